"""A fixture's date agreed between the coaches, the board's own date, and the board's page of the season's
rounds: their deadlines, the fixtures still without a date and those past their deadline.

Each form works as a plain POST (a redirect back, or the page again with its errors and status 422) and
through htmx, which swaps the box of the match's date in place."""

from __future__ import annotations

from django import forms
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from league.accounts import is_board
from league.lib.responses import post_form, success
from league.models import Season
from matches import scheduling
from matches.forms.scheduling import AcceptDateForm, BoardDateForm, DeadlineForm, ProposeDatesForm
from matches.models import Match
from matches.views.base import HtmxHttpRequest, match_page
from matches.views.schedule_box import schedule_box

BACK_TO_MY_TEAM = "my"
BACK_TO_SCHEDULE = "schedule"


def _get_match(pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("season__ruleset", "division", "cup", "home__race", "away__race"), pk=pk
    )


def _get_match_for_party(request: HttpRequest, pk: int) -> Match:
    """The one access check of a proposal or an answer: a coach of either team; else 403 (the board
    sets the date with its own form)."""
    match = _get_match(pk)
    if scheduling.coached_team(match, request.user) is None:
        raise PermissionDenied
    return match


def _back(request: HttpRequest) -> str:
    back = request.POST.get("back", "")
    return back if back in (BACK_TO_MY_TEAM, BACK_TO_SCHEDULE) else ""


def _box(request: HtmxHttpRequest, match: Match, **kwargs) -> HttpResponse:
    return render(request, "matches/_schedule.html", {"box": schedule_box(request, match, **kwargs)})


def _done(request: HtmxHttpRequest, match: Match, message: str) -> HttpResponse:
    """htmx: the box afresh, the message in it; a plain POST: the message and back where it came from."""
    back = _back(request)
    if request.htmx:
        return _box(request, match, back=back, notice=message)
    if back == BACK_TO_MY_TEAM:
        return success(request, message, "coach_home")
    if back == BACK_TO_SCHEDULE:
        return success(request, message, reverse("season_schedule", args=[match.season_id]))
    return success(request, message, match)


def _again(request: HtmxHttpRequest, match: Match, name: str, form: forms.Form) -> HttpResponse:
    """The form again with its errors: htmx, in the box; a plain POST, on the match page."""
    if not request.htmx:
        return match_page(request, match, **{name: form})
    if name == "accept_form":  # a button: its refusal is said at the top of the box
        return _box(request, match, back=_back(request), errors=form.non_field_errors())
    return _box(request, match, back=_back(request), **{name: form})


@require_POST
def match_propose(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A coach proposes up to three dates and times (they replace the open ones)."""
    match = _get_match_for_party(request, pk)
    form = ProposeDatesForm(request.POST, auto_id=f"propose-{match.pk}-%s")

    def propose() -> str:
        made = scheduling.propose_dates(match, starts=form.cleaned_data["starts"], by=request.user)
        return ngettext(
            "%(n)s date proposed: the other coach accepts it or proposes others.",
            "%(n)s dates proposed: the other coach accepts one or proposes others.",
            len(made),
        ) % {"n": len(made)}

    return post_form(
        request,
        form,
        propose,
        again=lambda: _again(request, match, "propose_form", form),
        done=lambda message: _done(request, match, message),
    )


@require_POST
def match_accept(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The other coach accepts one proposed date: it becomes the match's date."""
    match = _get_match_for_party(request, pk)
    form = AcceptDateForm(request.POST)

    def accept() -> Match:
        proposal = match.date_proposals.filter(pk=form.cleaned_data["proposal"]).first()
        if proposal is None:
            raise scheduling.SchedulingError([_("This proposal is no longer open: look again.")])
        return scheduling.accept_date(proposal, by=request.user)

    def agreed(dated: Match) -> HttpResponse:
        # the board may since have dated the match without a time: then its day alone
        when = scheduling.shown(dated.starts_at) if dated.starts_at else formats.date_format(dated.date, "DATE_FORMAT")
        return _done(request, dated, _("The date is agreed: %(when)s.") % {"when": when})

    return post_form(
        request,
        form,
        accept,
        again=lambda: _again(request, match, "accept_form", form),
        done=agreed,
        already=lambda refusal: agreed(_get_match(pk)),
    )


@require_POST
def match_board_date(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The board dates a fixture itself."""
    if not is_board(request.user):
        raise PermissionDenied
    match = _get_match(pk)
    form = BoardDateForm(request.POST, auto_id=f"fixture-{match.pk}-%s")

    def set_date() -> str:
        d = form.cleaned_data
        scheduling.board_schedule(match, date=d["date"], time=d["time"], by=request.user)
        return _("The fixture's date is set.")

    def again() -> HttpResponse:
        if _back(request) == BACK_TO_SCHEDULE and not request.htmx:
            return _schedule_page(request, match.season, board_forms={match.pk: form})
        return _again(request, match, "board_form", form)

    return post_form(request, form, set_date, again=again, done=lambda message: _done(request, match, message))


# --- the board's page of the season's rounds --------------------------------------------------------


def _get_season_for_board(request: HttpRequest, pk: int) -> Season:
    if not is_board(request.user):
        raise PermissionDenied
    return get_object_or_404(Season, pk=pk)


def _schedule_page(
    request: HttpRequest,
    season: Season,
    *,
    deadline_forms: dict[str, DeadlineForm] | None = None,
    board_forms: dict[int, BoardDateForm] | None = None,
) -> HttpResponse:
    deadline_forms, board_forms = deadline_forms or {}, board_forms or {}
    rounds = scheduling.schedule_overview(season, today=timezone.localdate())
    for row in rounds:
        row.form = deadline_forms.get(row.key) or DeadlineForm(
            initial={"competition": row.competition, "round": row.round, "deadline": row.deadline},
            auto_id=f"deadline-{row.key}-%s",
        )
        for match in {m.pk: m for m in [*row.unscheduled, *row.overdue]}.values():
            match.board_form = board_forms.get(match.pk) or BoardDateForm(
                initial={"date": match.date, "time": match.start_time}, auto_id=f"fixture-{match.pk}-%s"
            )
    return render(request, "matches/season_schedule.html", {"season": season, "rounds": rounds})


@require_GET
def season_schedule(request: HttpRequest, pk: int) -> HttpResponse:
    return _schedule_page(request, _get_season_for_board(request, pk))


@require_POST
def season_deadline(request: HttpRequest, pk: int) -> HttpResponse:
    """The board sets (or lifts, left empty) a round's deadline."""
    season = _get_season_for_board(request, pk)
    key = f"{request.POST.get('competition', '')}-{request.POST.get('round', '')}"
    form = DeadlineForm(request.POST, auto_id=f"deadline-{key}-%s")

    def set_deadline() -> str:
        d = form.cleaned_data
        row = scheduling.set_round_deadline(
            season, competition=d["competition"], round=d["round"], deadline=d["deadline"], by=request.user
        )
        if row is None:
            return _("The round's deadline is lifted.")
        return _("The deadline of round %(round)s is set.") % {"round": row.round}

    def again() -> HttpResponse:
        return _schedule_page(request, season, deadline_forms={key: form})

    return post_form(
        request,
        form,
        set_deadline,
        again=again,
        done=lambda message: success(request, message, reverse("season_schedule", args=[season.pk])),
    )
