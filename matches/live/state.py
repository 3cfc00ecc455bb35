"""The live log's ground: its kinds of entry, its refusals, who may write and when the log is open,
and the state derived from the log (league.rules.live)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from league.accounts import is_board
from league.lib.refusals import AlreadyDone, Refusal
from league.rules import live as rules
from matches.models import HandicapDraw, LiveEvent, Match, PlayerMatch, PreMatch

PLAYER_KINDS = {
    LiveEvent.Kind.TOUCHDOWN,
    LiveEvent.Kind.COMPLETION,
    LiveEvent.Kind.INTERCEPTION,
    LiveEvent.Kind.SENT_OFF,
}
VICTIM_KINDS = {LiveEvent.Kind.CASUALTY, LiveEvent.Kind.CROWD, LiveEvent.Kind.INJURY, LiveEvent.Kind.KO}
INJURY_KINDS = {LiveEvent.Kind.CASUALTY, LiveEvent.Kind.CROWD, LiveEvent.Kind.INJURY}
LIVE_INJURIES = [c for c in PlayerMatch.Injury.choices if c[0]]


class LiveError(Refusal):
    pass


class LiveForbidden(LiveError):
    """A coach of the match asks for what only another may do (undo the other coach's entry): a 403."""


class TurnAlreadyEnded(AlreadyDone):
    """The turn a phone ends was ended already, on the other phone or by a touchdown: the coach was right
    about it, only a few seconds late. Nothing is logged, and the answer is a success with the log as it is."""

    def __init__(self, team: Any, turn: int) -> None:
        super().__init__()
        self.messages = [
            _("%(team)s's turn %(n)s is already ended: the page has caught up.") % {"team": team, "n": turn}
        ]


@dataclass
class EventInput:
    """An entry as the phone sends it."""

    kind: str
    client_id: uuid.UUID
    team_id: int | None = None
    player_id: int | None = None
    victim_id: int | None = None
    how: str = ""
    injury: str = ""
    undoes_id: int | None = None
    kickoff: list[int] | None = None  # typed dice; None: the server rolls
    weather: list[int] | None = None
    riot: list[int] | None = None
    contest: dict[str, list[int] | None] = field(default_factory=dict)  # "home"/"away"
    chef: dict[str, list[int] | None] = field(default_factory=dict)
    made_at: datetime | None = None  # when the phone says it was made; None: when it arrives
    half: int | None = None  # an end of turn: the half and the side's turn the phone showed
    turn: int | None = None


def playable(match: Match, prematch: PreMatch | None) -> bool:
    """The log is open once the pre-match sequence is finished and until the report is filed."""
    return (
        match.status == Match.Status.SCHEDULED
        and bool(match.home_id and match.away_id)
        and prematch is not None
        and prematch.done >= PreMatch.Step.MASTER_CHEF
    )


def may_undo(user: Any, entry: LiveEvent) -> bool:
    """An entry is undone by the coach who made it or by the board; the other coach asks them."""
    return (entry.author_id is not None and entry.author_id == user.pk) or is_board(user)


def side_of(match: Match, team_id: int | None) -> str | None:
    if team_id is None:
        return None
    return rules.HOME if team_id == match.home_id else rules.AWAY


def team_of(match: Match, side: str | None) -> Any:
    return {rules.HOME: match.home, rules.AWAY: match.away}.get(side)


# --- deriving the state ------------------------------------------------------------------------


def effective(events: Sequence[LiveEvent]) -> list[LiveEvent]:
    """The entries that count: neither an undo nor undone."""
    undone = {e.undoes_id for e in events if e.undoes_id}
    return [e for e in events if e.kind != LiveEvent.Kind.UNDO and e.pk not in undone]


def as_rules_events(match: Match, events: Sequence[LiveEvent]) -> list[rules.Event]:
    return [
        rules.Event(kind=e.kind, side=side_of(match, e.team_id), player=e.player_id, victim=e.victim_id, data=e.data)
        for e in effective(events)
    ]


def setup_now(match: Match, prematch: PreMatch) -> dict:
    """The match's specifics from the pre-match: each side's team re-rolls (the roster's, +1 at home
    (R14), Ekstra trening), Doom & Gloom, the weather. Kept in the start entry, so a later change of
    the roster does not change a match being played."""
    r = match.season.ruleset.rules
    rerolls = {
        rules.HOME: r.match_rerolls(match.home.rerolls, home=True),
        rules.AWAY: r.match_rerolls(match.away.rerolls, home=False),
    }
    doom = []
    for draw in HandicapDraw.objects.filter(match=match, key__in=["extra_training", "doom_and_gloom"]):
        side = side_of(match, draw.team_id)
        if draw.key == "extra_training":
            rerolls[side] += 1
        else:
            doom.append(rules.other(side))  # the opponent's re-rolls are halved
    return {"rerolls": rerolls, "weather": prematch.weather, "doom": doom}


def setup_of(match: Match, prematch: PreMatch | None, events: Sequence[LiveEvent]) -> rules.Setup:
    start = next((e for e in effective(events) if e.kind == LiveEvent.Kind.START), None)
    raw = start.data.get("setup") if start else None
    if raw is None:
        raw = setup_now(match, prematch) if prematch else {"rerolls": {}, "weather": "", "doom": []}
    return rules.Setup(rerolls=raw["rerolls"], weather=raw["weather"], doom_and_gloom=frozenset(raw["doom"]))


def derive(match: Match, prematch: PreMatch | None, events: Sequence[LiveEvent]) -> rules.State:
    return rules.derive(setup_of(match, prematch, events), as_rules_events(match, events))


def out_of_play(match: Match, events: Sequence[LiveEvent]) -> dict[int, str]:
    """The players seriously injured, dead or sent off in the log so far (undone entries left out), by id."""
    return rules.out_of_play(as_rules_events(match, events))
