"""Helpers the match pages share: the htmx request type, who may act on a match, the match page."""

from __future__ import annotations

from django import forms
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django_htmx.middleware import HtmxDetails

from league.accounts import is_board, sees_private
from league.seasons.forms import ForfeitForm, MoveFixtureForm
from matches.calendars import google_calendar_url
from matches.forms.report import DisputeForm, PhotoForm
from matches.live.reads import shown
from matches.match_page import (
    MatchActions,
    match_actions,
    replay_of,
    report_photos,
    report_sides,
    who_acted,
    with_results,
    with_who,
)
from matches.models import PHOTO_SLOTS, Match
from matches.notices import takes_part
from matches.report.confirmation import report_history
from matches.report.filing import filer_name
from matches.views.schedule_box import schedule_box


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware (django-htmx's example types it so)."""

    htmx: HtmxDetails


def match_page(request: HttpRequest, match: Match, **bound: forms.Form) -> HttpResponse:
    """The match page; after a form of it with errors (`dispute_form`, `forfeit_form`, `move_form`,
    `photo_form`), that form again with its errors and what was typed. A refusal is also said above the
    page's actions: the form may no longer be offered once the match has moved on (a report confirmed
    meanwhile)."""
    return render(request, "matches/match_detail.html", _match_detail_context(request, match, **bound))


def _match_detail_context(request: HttpRequest, match: Match, **bound: forms.Form) -> dict:
    board = is_board(request.user)
    schedule = schedule_box(
        request, match, propose_form=bound.pop("propose_form", None), board_form=bound.pop("board_form", None)
    )
    who = who_acted(match, private=sees_private(request.user))
    actions = match_actions(request.user, match, board=board)
    return {
        "match": match,
        "is_board": board,
        "actions": actions,
        "filer": filer_name(match) if match.status == Match.Status.REOPENED else "",
        "replay": replay_of(match),
        # each team's players under its own name, and each die with what it gave
        "sides": report_sides(match, match.lines.select_related("player", "injured_by")),
        "apothecary_uses": match.apothecary_uses.select_related("player"),
        "dice": with_results(
            match, with_who(match.dice.select_related("team", "player", "rolled_by"), "rolled_by", who)
        ),
        "forfeit_form": bound.get("forfeit_form") or ForfeitForm(match=match) if actions.forfeit else None,
        "move_form": bound.get("move_form") or MoveFixtureForm(initial={"round": match.round, "date": match.date})
        if actions.move
        else None,
        "dispute_form": bound.get("dispute_form") or DisputeForm(),
        "refused": [e for form in bound.values() for e in form.non_field_errors()],
        "history": with_who(
            match.history.select_related("history_user").order_by("-history_date")[:20], "history_user", who
        ),
        "report_history": report_history(match),
        # how the date was agreed: every proposal kept, who made it and how it ended
        "date_history": with_who(
            match.date_proposals.select_related("proposed_by", "answered_by").order_by("-proposed_at", "-pk"),
            "proposed_by",
            who,
        ),
        "live_shown": shown(match),
        "schedule": schedule,
        "google_calendar": google_calendar_url(match, base_url=request.build_absolute_uri("/").rstrip("/")),
        **_photos_context(request, match, who, bound.get("photo_form"), actions),
    }


def _photos_context(request: HttpRequest, match: Match, who, bound: forms.Form | None, actions: MatchActions) -> dict:
    """The referee sheet's photos and the form adding one: for the match's coaches and the board only."""
    if not actions.party:
        return {"photos": None}
    photos, deleted = report_photos(match, who, user=request.user, board=is_board(request.user))
    takes_more = match.status != Match.Status.VOID and match.home_id and match.away_id and len(photos) < PHOTO_SLOTS
    return {
        "photos": photos,
        "photos_deleted": deleted,
        "photo_form": (bound or PhotoForm()) if takes_more or bound else None,
    }


def _get_match_for_board(request: HttpRequest, pk: int) -> Match:
    if not is_board(request.user):
        raise PermissionDenied
    return get_object_or_404(Match.objects.select_related("home", "away", "cup"), pk=pk)


def _get_match_for_coach(request: HttpRequest, pk: int) -> Match:
    """The one access check for report writes: a coach of either team, or the board; else 403."""
    match = get_object_or_404(
        Match.objects.select_related("season__ruleset", "home__coach", "away__coach", "cup", "division"), pk=pk
    )
    if not takes_part(request.user, match):
        raise PermissionDenied
    return with_both_teams(match)


def with_both_teams(match: Match) -> Match:
    """A bye (R34), or a cup match still waiting for the winner of another, has one team: it has no
    pre-match, live log, report, referee sheet or post-match, so their pages are not found (its match
    page links to none of them) instead of a server error."""
    if match.home_id is None or match.away_id is None:
        raise Http404("A match with one team is not played.")
    return match
