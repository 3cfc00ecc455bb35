from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from league import services as league_services
from league.accounts import is_board
from league.forms import MoveFixtureForm, ResultForm
from league.models import Season
from league.selectors import current_season, season_board
from matches import services
from matches.models import Match


@require_GET
def match_list(request: HttpRequest) -> HttpResponse:
    """Fixtures and results by round."""
    pk = request.GET.get("season")
    season = (
        get_object_or_404(Season.objects.select_related("ruleset", "cup"), pk=pk)
        if pk and pk.isdigit()
        else current_season()
    )
    board = season_board(season, latest=0, upcoming=0, rounds=True)
    return render(request, "matches/match_list.html", {"board": board, "seasons": Season.objects.all()})


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("season", "division", "cup", "home__race", "away__race", "tiebreak_winner"),
        pk=pk,
    )
    board = is_board(request.user)
    context = {
        "match": match,
        "is_board": board,
        "result_form": ResultForm(match=match) if board and match.status == Match.Status.SCHEDULED else None,
        "move_form": MoveFixtureForm(initial={"round": match.round, "date": match.date})
        if board and match.status == Match.Status.SCHEDULED and match.division_id
        else None,
        "history": match.history.select_related("history_user").order_by("-history_date")[:20],
    }
    return render(request, "matches/match_detail.html", context)


def _get_match_for_board(request: HttpRequest, pk: int) -> Match:
    if not is_board(request.user):
        raise PermissionDenied
    return get_object_or_404(Match.objects.select_related("home", "away", "cup"), pk=pk)


@require_POST
def match_result(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_board(request, pk)
    form = ResultForm(request.POST, match=match)
    if form.is_valid():
        d = form.cleaned_data
        try:
            services.record_result(
                match,
                home_score=d["home_score"],
                away_score=d["away_score"],
                home_casualties=d["home_casualties"],
                away_casualties=d["away_casualties"],
                tiebreak_winner_id=form.tiebreak_winner_id(),
                by=request.user,
            )
        except services.MatchError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Result recorded."))
    else:
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
    return redirect(match)


@require_POST
def match_move(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_board(request, pk)
    form = MoveFixtureForm(request.POST)
    if form.is_valid():
        try:
            league_services.move_fixture(match, **form.cleaned_data)
        except league_services.SeasonError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Fixture moved."))
    return redirect(match)
