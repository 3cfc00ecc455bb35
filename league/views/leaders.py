"""The leaders page (issue 16): "Toppliste", all-time or one season, players or teams, by race."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from league.lib.inputs import query_id
from league.lib.pagecache import per_version
from league.models import Season
from league.seasons.leaders import PLAYER_STATS, TEAM_STATS, Filters, player_leaders, team_leaders
from teams.models import Race


def _filters(request: HttpRequest, seasons: list[Season], races: list[Race]) -> Filters:
    """?kind=players|teams&stat=…&season=<id>&race=<slug>; no season is all-time; nonsense is a 404.
    The season and race are picked from the lists the page shows anyway (no query of their own)."""
    kind = request.GET.get("kind") or "players"
    stats = PLAYER_STATS if kind == "players" else TEAM_STATS if kind == "teams" else None
    if stats is None:
        raise Http404
    stat = request.GET.get("stat") or next(iter(stats))
    if stat not in stats:
        raise Http404
    season = race = None
    if request.GET.get("season"):
        pk = query_id(request.GET["season"])
        if pk is None:
            raise Http404
        season = next((s for s in seasons if s.pk == pk), None)
        if season is None:
            raise Http404
    if request.GET.get("race"):
        race = next((r for r in races if r.slug == request.GET["race"]), None)
        if race is None:
            raise Http404
    return Filters(season=season, race=race, stat=stat, kind=kind)


@require_GET
def leaders_page(request: HttpRequest) -> HttpResponse:
    # the pickers' lists change only with the league's data: kept per league version
    seasons = per_version(request, "leader_seasons", lambda: list(Season.objects.order_by("-created_at").only("name")))
    races = per_version(request, "leader_races", lambda: list(Race.objects.order_by("name").only("slug", "name")))
    f = _filters(request, seasons, races)
    read = player_leaders if f.kind == "players" else team_leaders
    params = request.GET.copy()
    params.pop("page", None)
    context = {
        "page_query": f"{params.urlencode()}&" if params else "",
        "f": f,
        "page": read(f, request.GET.get("page")),
        "stats": PLAYER_STATS if f.kind == "players" else TEAM_STATS,
        "seasons": seasons,
        "races": races,
    }
    return render(request, "league/leaders.html", context)
