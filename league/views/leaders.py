"""The leaders page: "Toppliste", all-time or one season, players or teams, by race; its CSV
file."""

from __future__ import annotations

from collections.abc import Iterator

from django.core.validators import slug_re
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_GET

from league.lib.csv_files import Cell, csv_response, file_name, refused
from league.lib.inputs import query_id
from league.lib.pagecache import kept_for_visitors
from league.models import Season
from league.seasons.leaders import (
    PLAYER_STATS,
    TEAM_STATS,
    Filters,
    player_leader_rows,
    player_leaders,
    team_leader_lines,
    team_leaders,
)
from teams.models import Race


class BadFilter(Http404):
    """A filter no page links to. The page answers it as any unknown address (404); its CSV file says
    why, in the visitor's language: 400 for nonsense, 404 for a season or race that does not exist."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def _filters(request: HttpRequest) -> Filters:
    """?kind=players|teams&stat=…&season=<id>&race=<slug>; no season is all-time; nonsense is a BadFilter."""
    kind = request.GET.get("kind") or "players"
    stats = PLAYER_STATS if kind == "players" else TEAM_STATS if kind == "teams" else None
    if stats is None:
        raise BadFilter(_("Unknown list “%(kind)s”: choose players or teams.") % {"kind": kind[:40]})
    stat = request.GET.get("stat") or next(iter(stats))
    if stat not in stats:
        raise BadFilter(_("Unknown statistic “%(stat)s”.") % {"stat": stat[:40]})
    season = race = None
    if request.GET.get("season"):
        pk = query_id(request.GET["season"])
        if pk is None:
            raise BadFilter(_("A season is picked by its number."))
        season = Season.objects.filter(pk=pk).only("name").first()
        if season is None:
            raise BadFilter(_("There is no season number %(pk)s.") % {"pk": pk}, status=404)
    if request.GET.get("race"):
        slug = request.GET["race"]  # a slug's letters only: PostgreSQL refuses a NUL in a string
        race = Race.objects.filter(slug=slug).only("slug", "name").first() if slug_re.fullmatch(slug) else None
        if race is None:
            raise BadFilter(_("There is no race “%(race)s”.") % {"race": request.GET["race"][:40]}, status=404)
    return Filters(season=season, race=race, stat=stat, kind=kind)


@require_GET
@kept_for_visitors
def leaders_page(request: HttpRequest) -> HttpResponse:
    f = _filters(request)
    read = player_leaders if f.kind == "players" else team_leaders
    params = request.GET.copy()
    params.pop("page", None)
    context = {
        "page_query": f"{params.urlencode()}&" if params else "",
        "csv_query": params.urlencode(),
        "f": f,
        "page": read(f, request.GET.get("page")),
        "stats": PLAYER_STATS if f.kind == "players" else TEAM_STATS,
        "seasons": list(Season.objects.order_by("-created_at").only("name")),
        "races": list(Race.objects.order_by("name").only("slug", "name")),
    }
    return render(request, "league/leaders.html", context)


@require_GET
def leaders_csv(request: HttpRequest) -> HttpResponse:
    """The leaders page as a CSV file, every row of it (unpaged), with the page's filters."""
    try:
        f = _filters(request)
    except BadFilter as bad:
        return refused(bad.message, bad.status)
    kind = pgettext("file name", "players") if f.kind == "players" else pgettext("file name", "teams")
    season = f.season.name if f.season else pgettext("file name", "all-time")
    name = file_name("torshov", pgettext("file name", "leaders"), kind, season, f.stat)
    if f.kind == "players":
        return csv_response(PLAYER_HEADERS, _player_rows(f), name)
    return csv_response(TEAM_HEADERS, _team_rows(f), name)


PLAYER_HEADERS = (
    gettext_lazy("Rank"),
    gettext_lazy("Player"),
    gettext_lazy("Team"),
    gettext_lazy("Matches"),
    gettext_lazy("Touchdowns"),
    gettext_lazy("Casualties"),
    gettext_lazy("Completions"),
    gettext_lazy("Interceptions"),
    gettext_lazy("MVPs"),
    gettext_lazy("SPP"),
)


def _player_rows(f: Filters) -> Iterator[list[Cell]]:
    for rank, row in enumerate(player_leader_rows(f), start=1):
        yield [
            rank,
            row.player.name,
            row.team.name,
            row.matches,
            row.touchdowns,
            row.casualties,
            row.completions,
            row.interceptions,
            row.mvps,
            row.spp,
        ]


TEAM_HEADERS = (
    gettext_lazy("Rank"),
    gettext_lazy("Team"),
    gettext_lazy("Race"),
    gettext_lazy("Played"),
    gettext_lazy("Won"),
    gettext_lazy("Drawn"),
    gettext_lazy("Lost"),
    gettext_lazy("Win %"),
    gettext_lazy("Touchdown difference"),
    gettext_lazy("Casualty difference"),
    gettext_lazy("Titles"),
)


def _team_rows(f: Filters) -> Iterator[list[Cell]]:
    for rank, line in enumerate(team_leader_lines(f), start=1):
        yield [
            rank,
            line.name,
            line.race_name,
            line.played,
            line.won,
            line.drawn,
            line.lost,
            line.win_percent,
            line.touchdown_difference,
            line.casualty_difference,
            line.titles,
        ]
