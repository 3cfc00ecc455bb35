"""The league's public pages: the front page, a coach's own page, the standings and the rules."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from league.accounts import is_board
from league.lib.inputs import query_id
from league.lib.offline import keep_offline
from league.lib.pagecache import kept_for_visitors
from league.models import Ruleset, Season
from league.notices.selectors import inbox
from league.seasons import waiting
from league.seasons.leaders import roster_leaders
from league.seasons.selectors import current_season, memorial, season_board
from league.views.base import _get_season
from league.views.charts import form_guide
from league.views.ruleset_editor.cells import settings_rows
from matches.charts import recent_form
from matches.live.reads import playing_now
from matches.selectors import next_cup_matches, next_matches
from matches.views.schedule_box import schedule_box
from teams.selectors import roster_sheet


@require_GET
@kept_for_visitors
def home(request: HttpRequest) -> HttpResponse:
    """The league board: both tables, latest results, next fixtures, the cup, leaders, memorial."""
    board = season_board(current_season(), bracket="current", tables=2)
    context = {
        "board": board,
        "form_guide": form_guide(board.tables, recent_form(board.teams)),
        "leaders": roster_leaders(),
        "memorial": memorial(8),
        "playing_now": list(playing_now()),  # a live log's start and end raise the league version
    }
    return render(request, "league/home.html", context)


@login_required
@require_GET
def coach_home(request: HttpRequest) -> HttpResponse:
    """A coach's own page ("Mitt lag"): what waits for him first, then his teams and their next matches, then
    the news. A coach without a team is asked to found one; the board without a team has its desk."""
    of = waiting.coaching_for_request(request)
    teams, scheduled = of.teams, of.scheduled
    todos = waiting.own_for_request(request)
    if not teams and not todos and is_board(request.user):
        return redirect("board_desk")
    sheets: dict[int, object] = {}

    def sheet(team_id: int):
        if team_id not in sheets:
            sheets[team_id] = roster_sheet(team_id)
        return sheets[team_id]

    cards = []
    nexts, cups = next_matches(teams, scheduled), next_cup_matches(teams, scheduled)
    for team in teams:
        match, cup = nexts.get(team.pk), cups.get(team.pk)
        cup = cup if cup is not None and cup != match else None
        opponent_id = None if match is None else (match.away_id if match.home_id == team.pk else match.home_id)
        cards.append(
            {
                "sheet": sheet(team.pk),
                "injured": [line for line in sheet(team.pk).lines if line.injuries],
                "next": match,
                "home": match is not None and match.home_id == team.pk,
                "opponent": sheet(opponent_id) if opponent_id else None,
                "cup": cup,
                # each match's date, agreed here: the league's next and the cup tie beside it
                "schedule": schedule_box(request, match, back="my") if match is not None else None,
                "cup_schedule": schedule_box(request, cup, back="my") if cup is not None else None,
            }
        )
    keys = {t.key for t in waiting.for_request(request)}
    context = {
        "cards": cards,
        "todos": todos,
        "waits": waiting.coach_waits(request.user, of=of),
        "notices": inbox(request.user, keys, limit=5, news=True),
    }
    return keep_offline(request, render(request, "league/coach_home.html", context))


@require_GET
@kept_for_visitors
def standings(request: HttpRequest) -> HttpResponse:
    season = _season_from_query(request)
    context = {
        "board": season_board(season, latest=0, upcoming=0, bracket="none"),
        "seasons": list(Season.objects.only("id", "name", "status")),
    }
    return render(request, "league/standings.html", context)


def _season_from_query(request: HttpRequest) -> Season | None:
    """?season=<id>; no id means the current season, anything else that is not an id is a 404."""
    value = request.GET.get("season")
    if not value:
        return current_season()
    pk = query_id(value)
    if pk is None:
        raise Http404
    return _get_season(pk)


@require_GET
@kept_for_visitors
def rules(request: HttpRequest) -> HttpResponse:
    """The tables of a published ruleset (the newest unless one is picked), as coaches look them up."""
    versions = list(Ruleset.objects.published().only("id", "name", "published_at"))

    chosen = request.GET.get("version")
    shown = next((v for v in versions if str(v.pk) == chosen), versions[0] if versions else None)
    ruleset = None if shown is None else Ruleset.objects.get(pk=shown.pk)
    settings = settings_rows(ruleset.data) if ruleset else []
    page = render(request, "league/rules.html", {"ruleset": ruleset, "versions": versions, "settings": settings})
    return keep_offline(request, page)


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and feed readers ask for /favicon.ico whatever the page says (the admin's pages, the error
    pages): the league's ball, not a 404 in the logs."""
    return redirect(static("img/favicon.svg"), permanent=True)
