"""The match list and match page, and what the board does to a match: forfeit, move, reopen, void."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from league.lib.inputs import query_id
from league.lib.offline import keep_offline
from league.lib.refusals import AlreadyDone, Refusal
from league.lib.responses import act_and_redirect, flash_refusal, post_form, success
from league.models import Season
from league.seasons.forms import ForfeitForm, MoveFixtureForm
from league.seasons.selectors import current_season, season_board
from league.seasons.services.fixtures import move_fixture, schedule_replay
from matches import results
from matches.models import Match
from matches.notices import acts_as_coach
from matches.report.confirmation import reopen_report, void_match
from matches.selectors import filter_rounds
from matches.views.base import _get_match_for_board, match_page


@require_GET
def match_list(request: HttpRequest) -> HttpResponse:
    """Fixtures and results by round."""
    pk = query_id(request.GET.get("season"))
    season = get_object_or_404(Season.objects.with_rules(), pk=pk) if pk is not None else current_season()
    board = season_board(season, latest=0, upcoming=0, rounds=True)
    # not an id ("²" is a digit to Python, not a number): no filter
    team, division = (query_id(request.GET.get(k)) for k in ("team", "division"))
    board.rounds = filter_rounds(board.rounds, team=team, division=division)
    filters = {"team": team, "division": division}
    return render(request, "matches/match_list.html", {"board": board, "seasons": Season.objects.all(), **filters})


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        # the ruleset and the pre-match with the match: the report's SPP and the dice's results read them;
        # the team that forfeited, which the page names (R46)
        Match.objects.select_related(
            "season__ruleset",
            "division",
            "cup",
            "home__race",
            "away__race",
            "tiebreak_winner",
            "forfeited_by",
            "prematch",
        ),
        pk=pk,
    )
    # a match of the coach's own, for the table (its next one among them)
    return keep_offline(request, match_page(request, match), when=acts_as_coach(match, request.user))


@require_POST
def match_result(request: HttpRequest, pk: int) -> HttpResponse:
    """Refused, and no longer offered: a result recorded on a match page skipped the pre-match and the
    report that the post-match sequence works from, and left both teams stuck. RULINGS keep
    direct results for forfeits (R35, this page's forfeit form) and a division's tiebreak game (the
    season page); every played match goes through its report. Kept as an address so a page opened
    before the change gets a message, not a 404."""
    match = _get_match_for_board(request, pk)
    messages.error(
        request,
        _(
            "A played match's result comes through its report, filed by a coach and confirmed by the other "
            "(or the board). Here the board records only a forfeit (R35); a division's tiebreak game is "
            "recorded on the season page."
        ),
    )
    return redirect(match)


@require_POST
def match_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    """The board records a forfeit (R35)."""
    match = _get_match_for_board(request, pk)
    form = ForfeitForm(request.POST, match=match)

    def forfeit() -> str:
        team = match.home if form.cleaned_data["team"] == match.home_id else match.away
        results.record_forfeit(match, team, by=request.user)
        return _("%(team)s forfeits: the opponent is awarded the win (R35).") % {"team": team.name}

    return post_form(
        request,
        form,
        forfeit,
        again=lambda: match_page(request, match, forfeit_form=form),
        done=lambda message: success(request, message, match),
    )


@require_POST
def match_move(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_board(request, pk)
    form = MoveFixtureForm(request.POST)

    def move() -> str:
        # a cup round is its place in the bracket (R34): only the date moves
        round_ = match.round if match.cup_id else form.cleaned_data["round"]
        move_fixture(match, round=round_, date=form.cleaned_data["date"])
        return _("Fixture moved.")

    return post_form(
        request,
        form,
        move,
        again=lambda: match_page(request, match, move_form=form),
        done=lambda message: success(request, message, match),
    )


BOARD_REPORT_ACTIONS = {
    "reopen": (reopen_report, gettext_lazy("The report is reopened: it is back with the coach who filed it.")),
    "void": (void_match, gettext_lazy("The match is void. If it is to be played again, add the replay here.")),
}


@require_POST
def match_board_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """The board reopens a confirmed report or voids a match."""
    match = _get_match_for_board(request, pk)
    if action not in BOARD_REPORT_ACTIONS:
        raise PermissionDenied
    service, done = BOARD_REPORT_ACTIONS[action]

    def run() -> str:
        service(match, by=request.user)
        return str(done)

    return act_and_redirect(request, run, match)


@require_POST
def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The board adds the replay of a voided match: the new fixture's page, both coaches told."""
    match = _get_match_for_board(request, pk)
    try:
        replay = schedule_replay(match, by=request.user)
    except AlreadyDone as done:
        messages.info(request, done.messages[0])
        return redirect(done.result)
    except Refusal as refusal:
        flash_refusal(request, refusal)
        return redirect(match)
    return success(request, _("The replay is added; both coaches are told. Date it here."), replay)
