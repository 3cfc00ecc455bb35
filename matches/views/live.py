"""The live match page: the log both coaches keep on their phones, followed read-only by
everyone else. The page polls its board with htmx; static/js/live.js sends entries with an id made
on the phone and queues them while offline. Without JavaScript each form is a plain post."""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET, require_POST

from league.accounts import is_board
from league.lib.confirm import confirm_page, is_confirmed
from league.lib.refusals import Refusal
from league.rules import live as rules
from matches import dice
from matches.live.entries import ASKS_FIRST, question, record
from matches.live.reads import log_rows, weather_name
from matches.live.reads import squads as squads_of
from matches.live.state import (
    LIVE_INJURIES,
    EventInput,
    LiveForbidden,
    TurnAlreadyEnded,
    derive,
    out_of_play,
    playable,
    team_of,
)
from matches.models import LiveEvent, Match
from matches.notices import takes_part
from matches.views.base import with_both_teams
from teams.models import Race

HOW = [(rules.BLOCK, gettext_lazy("by block")), (rules.FOUL, gettext_lazy("by foul"))]


class LiveEventForm(forms.Form):
    """One entry as posted; the dice fields are typed dice (empty: the server rolls)."""

    kind = forms.ChoiceField(choices=LiveEvent.Kind.choices)
    client_id = forms.UUIDField()
    team = forms.IntegerField(required=False, min_value=1)
    player = forms.IntegerField(required=False, min_value=1)
    victim = forms.IntegerField(required=False, min_value=1)
    how = forms.ChoiceField(required=False, choices=[("", ""), *HOW])
    injury = forms.ChoiceField(required=False, choices=[("", ""), *LIVE_INJURIES])
    undoes = forms.IntegerField(required=False, min_value=1)
    dice = forms.CharField(required=False, max_length=20)
    weather_dice = forms.CharField(required=False, max_length=20)
    riot_die = forms.CharField(required=False, max_length=20)
    contest_home = forms.CharField(required=False, max_length=20)
    contest_away = forms.CharField(required=False, max_length=20)
    chef_home = forms.CharField(required=False, max_length=60)
    chef_away = forms.CharField(required=False, max_length=60)
    made_at = forms.CharField(required=False, max_length=40)  # the phone's ISO time; a bad one is no claim
    # an end of turn: the half and the turn the phone showed, so a press a poll late ends no later turn
    half = forms.IntegerField(required=False, min_value=0, max_value=3)
    turn = forms.IntegerField(required=False, min_value=1, max_value=rules.TURNS_PER_HALF)

    def entry(self) -> EventInput:
        """The entry the form describes. Typed dice are checked for their faces here and for their
        number in the service, which knows what the result asks for (a DiceError is a Refusal)."""
        d = self.cleaned_data

        def typed(name: str) -> list[int] | None:
            text = (d.get(name) or "").strip()
            if not text:
                return None
            count = len(text.replace(",", " ").replace("+", " ").split())
            return dice.parse_entered(text, sides=6, count=count)

        return EventInput(
            kind=d["kind"],
            client_id=d["client_id"],
            team_id=d.get("team"),
            player_id=d.get("player"),
            victim_id=d.get("victim"),
            how=d.get("how") or "",
            injury=d.get("injury") or "",
            undoes_id=d.get("undoes"),
            kickoff=typed("dice"),
            weather=typed("weather_dice"),
            riot=typed("riot_die"),
            contest={s: typed(f"contest_{s}") for s in rules.SIDES},
            chef={s: typed(f"chef_{s}") for s in rules.SIDES},
            made_at=_instant(d.get("made_at") or ""),
            half=d.get("half"),
            turn=d.get("turn"),
        )


def _instant(text: str) -> datetime | None:
    """An ISO 8601 time with its offset, as live.js sends it; anything else leaves the entry timed when it
    arrives rather than refused."""
    try:
        value = parse_datetime(text.strip())
    except ValueError:
        return None
    return value if value is not None and timezone.is_aware(value) else None


def _match(pk: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("season__ruleset", "home__race", "away__race", "prematch", "division", "cup"),
        pk=pk,
    )
    return with_both_teams(match)  # a bye has no live log (R34)


def _context(request: HttpRequest, match: Match) -> dict:
    prematch = getattr(match, "prematch", None)
    events = log_rows(match)
    state = derive(match, prematch, events)
    undone = {e.undoes_id: e for e in events if e.undoes_id}
    writer = takes_part(request.user, match)
    open_ = playable(match, prematch)
    # The pickers offer only players on the pitch: not the dead, seriously injured or sent off.
    squads = squads_of(match, leaving_out=out_of_play(match, events)) if writer and open_ else {}
    sides = [
        {
            "side": s,
            "team": team_of(match, s),
            "score": state.score[s],
            "turn": state.turn(s),
            "rerolls": state.rerolls[s],
            "recovered": state.recovered.get(s),
            "chef": team.race.head_coach == Race.HeadCoach.MASTER_CHEF,
            "squad": squads.get(s, []),
        }
        for s, team in ((rules.HOME, match.home), (rules.AWAY, match.away))
    ]
    return {
        "match": match,
        "state": state,
        "sides": sides,
        "active": team_of(match, state.active),
        "active_turn": state.turn(state.active),
        "kicking": team_of(match, state.kicking),
        "weather": weather_name(match, state.weather) if state.weather else "",
        "rows": [(e, undone.get(e.pk)) for e in reversed(events)],
        "writer": writer and open_,
        "undo_any": writer and is_board(request.user),  # else only his own entries
        "open": open_,
        "ended": state.ended,
        "client_id": uuid.uuid4,  # a fresh id per form, for a plain post without JavaScript
        "injuries": LIVE_INJURIES,
        "how": HOW,
        "Kind": LiveEvent.Kind,
        "chef_sides": [s for s in sides if s["chef"]],
        "chef_target": rules.CHEF_TARGET,
        "poll_ms": round(settings.LIVE_POLL_SECONDS * 1000),
    }


@require_GET
def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live page: the coaches keep the log; the board and visitors follow it read-only."""
    match = _match(pk)
    context = _context(request, match)
    if not context["rows"] and not context["open"]:
        messages.info(request, _("The match log opens once the pre-match sequence is finished."))
        return redirect(match)
    return render(request, "matches/live.html", context)


def _board_etag(request: HttpRequest, pk: int) -> str | None:
    """What the board is drawn from, in one small query: the log's entries (an undo is an entry too), the
    match's status and pre-match step, and whose board it is (his buttons, his language, his CSRF token in
    the forms). Twenty-six phones poll every few seconds and the log rarely changes between two polls: an
    unchanged board answers 304 without drawing it again."""
    row = (
        Match.objects.filter(pk=pk)
        .annotate(entries=Count("live_events"), last=Max("live_events__pk"))
        .values_list("status", "prematch__done", "entries", "last")
        .first()
    )
    if row is None:
        return None  # the view answers 404
    whose = (request.user.pk, get_language(), request.META.get("CSRF_COOKIE", ""))
    return hashlib.sha256(repr((row, whose)).encode()).hexdigest()[:32]


@require_GET
@condition(etag_func=_board_etag)
def match_live_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The board alone (score, half, turns, re-rolls, the buttons and the log): what the page polls."""
    match = _match(pk)
    response = render(request, "matches/live.html#board", _context(request, match))
    response["Cache-Control"] = "private, no-cache"  # kept by the phone's browser, which asks each time
    return response


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_POST
def match_live_event(request: HttpRequest, pk: int) -> HttpResponse:
    """Add an entry (or undo one). The phone's script gets JSON; a plain post goes back to the page,
    or to the report once the match has ended."""
    form = LiveEventForm(request.POST)
    back = reverse("match_live", args=[pk])
    if not form.is_valid():
        errors = [f"{name}: {e}" if name != "__all__" else e for name, es in form.errors.items() for e in es]
        return _refused(request, errors, back)
    try:
        entry = form.entry()
        if entry.kind in ASKS_FIRST and not is_confirmed(request):
            return _ask(request, pk, entry, back)
        event = record(pk, entry, by=request.user)
    except TurnAlreadyEnded as done:  # the other phone was first: done, not refused
        if _wants_json(request):
            return JsonResponse({"already": True, "messages": done.messages, **_caught_up(request, pk)})
        for text in done.messages:
            messages.info(request, text)
        return redirect(back)
    except Refusal as exc:  # a typed die off its faces too
        return _refused(request, list(exc.messages), back, status=403 if isinstance(exc, LiveForbidden) else 422)
    then = reverse("match_report", args=[pk]) if event.kind == LiveEvent.Kind.END else ""
    if _wants_json(request):
        return JsonResponse({"id": event.pk, "kind": event.kind, "then": then})
    return redirect(then or back)


def _caught_up(request: HttpRequest, pk: int) -> dict:
    """The log as it is now, for a phone found behind to redraw at once rather than a poll later: the state
    (score, half, whose turn) and the board as the page polls it (matches/live.html#board). Only then: an
    entry recorded keeps its ten queries, and the poll that follows it redraws."""
    context = _context(request, _match(pk))
    state = context["state"]
    return {
        "state": {"half": state.half, "active": state.active, "turns": state.turns, "score": state.score},
        "board": render_to_string("matches/live.html#board", context, request=request),
    }


def _ask(request: HttpRequest, pk: int, entry: EventInput, back: str) -> HttpResponse:
    """Undo and the end of the match are asked about first: live.js asks with the form's
    data-confirm and sends `confirmed`; a plain post gets the confirm page; nothing is recorded before."""
    if not takes_part(request.user, _match(pk)):
        raise PermissionDenied  # who may not write is refused at once, not asked first
    if _wants_json(request):
        return JsonResponse({"errors": [_("Nothing was done: it was not confirmed.")]}, status=422)
    button = _("Yes, end the match") if entry.kind == LiveEvent.Kind.END else _("Yes, undo it")
    return confirm_page(request, question=question(pk, entry), button=button, cancel_url=back)


def _refused(request: HttpRequest, errors: list[str], back: str, status: int = 422) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"errors": errors}, status=status)
    for e in errors:
        messages.error(request, e)
    return redirect(back)
