"""An entry added to the live log, or refused: each write locks the match row, so the two coaches'
phones take turns, and is idempotent on the id the phone made."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.lib.writes import raise_league_version
from league.rules import live as rules
from matches.live.kickoff import chef_dice, kickoff_dice
from matches.live.state import (
    INJURY_KINDS,
    LIVE_INJURIES,
    PLAYER_KINDS,
    VICTIM_KINDS,
    EventInput,
    LiveError,
    LiveForbidden,
    TurnAlreadyEnded,
    derive,
    may_undo,
    out_of_play,
    playable,
    setup_now,
    side_of,
    team_of,
)
from matches.models import LiveEvent, Match, PreMatch, SquadEntry
from matches.notices import takes_part
from teams.models import Player

CLOCK_KINDS = {LiveEvent.Kind.START, LiveEvent.Kind.HALF_TIME, LiveEvent.Kind.END}
LIVE_ON_THE_FRONT_PAGE = {LiveEvent.Kind.START, LiveEvent.Kind.END}  # a match being played starts and ends
# Taking an entry back and ending the match are asked about first: one stray tap does neither.
ASKS_FIRST = {LiveEvent.Kind.UNDO, LiveEvent.Kind.END}
CLOCK_SKEW = timedelta(minutes=1)  # a phone's clock a little ahead of the server's is still believed
MAX_OFFLINE = timedelta(hours=6)  # an evening's match: the first entry claiming more is a wrong clock


def _lock(match_pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_for_update(of=("self",)).select_related(
            "season__ruleset", "home__race", "away__race", "home__stadium", "prematch"
        ),
        pk=match_pk,
    )


# Not a league write: the log shows only on the match's live page, read afresh each time, so an entry leaves
# the public pages' cache alone on a match night. Its start and end (and their undoing) put the match on and
# off the front page's "being played now": those raise the league version.
@transaction.atomic
def record(match_pk: int, entry: EventInput, *, by: Any) -> LiveEvent:
    """Add an entry to the log (or undo one). Sent twice with the same client id, it is recorded once
    and the first entry is returned. Refused, nothing is saved."""
    match = _lock(match_pk)
    if not takes_part(by, match):
        raise PermissionDenied
    events = list(LiveEvent.objects.filter(match=match))
    done = next((e for e in events if e.client_id == entry.client_id), None)
    if done is not None:
        return done
    prematch = getattr(match, "prematch", None)
    if not playable(match, prematch):
        raise LiveError(
            [_("The log is closed: the report is filed.")]
            if match.status != Match.Status.SCHEDULED
            else [_("Walk the pre-match sequence first.")]
        )
    state = derive(match, prematch, events)
    if entry.kind == LiveEvent.Kind.TURN:
        _done_if_the_turn_is_over(match, state, entry)
    arrived = timezone.now()
    event = LiveEvent(match=match, kind=entry.kind, client_id=entry.client_id, author=by, created_at=arrived)
    event.made_at = made_at(entry.made_at, arrived, events)
    _fill(event, entry, match, prematch, state, events, by)
    event.save()
    if (event.undoes.kind if event.undoes else event.kind) in LIVE_ON_THE_FRONT_PAGE:
        transaction.on_commit(raise_league_version)
    return event


def made_at(claimed: datetime | None, arrived: datetime, events: Sequence[LiveEvent]) -> datetime:
    """When the entry was made, as the phone says: one kept in an offline phone's queue is timed
    when the coach made it, not when it arrived. A time further ahead than a clock's skew, or before the log
    began, is a wrong clock: the arrival time stands. A time a little ahead is the arrival time."""
    began = min((e.made_at for e in events), default=arrived - MAX_OFFLINE)
    if claimed is None or claimed > arrived + CLOCK_SKEW or claimed < began:
        return arrived
    return min(claimed, arrived)


def question(match_pk: int, entry: EventInput) -> str:
    """What the coach is asked before an entry of ASKS_FIRST, naming the entry to undo."""
    if entry.kind == LiveEvent.Kind.END:
        return _("End the match? The report is filled from the log.")
    named = LiveEvent.objects.select_related("player", "victim", "team")
    target = named.filter(match_id=match_pk, pk=entry.undoes_id).first()
    if target is None:
        return _("Undo this entry?")
    return _("Undo “%(entry)s”? It stays in the log, struck through.") % {"entry": target.summary}


def _fill(
    event: LiveEvent,
    entry: EventInput,
    match: Match,
    prematch: PreMatch,
    state: rules.State,
    events: Sequence[LiveEvent],
    by: Any,
) -> None:
    """The entry's team, players and dice, or its refusal: an undo and the clock's entries in their
    turn, the rest only while the match is being played."""
    if entry.kind == LiveEvent.Kind.UNDO:
        _undo(event, entry, events, by)
    elif entry.kind in CLOCK_KINDS:
        _clock(event, entry, match, prematch, state, by)
    elif not state.playing:
        raise LiveError([_("The match has ended.") if state.ended else _("Start the match first.")])
    elif entry.kind == LiveEvent.Kind.KICKOFF:
        event.team = team_of(match, state.kicking)
        event.data = kickoff_dice(match, prematch, state, entry, by)
    elif entry.kind in (LiveEvent.Kind.TURN, LiveEvent.Kind.REROLL):
        event.team = _turn_or_reroll_team(match, state, entry)
    elif entry.kind in PLAYER_KINDS | VICTIM_KINDS:
        _players(match, event, entry)
        _in_play(match, event, events)
    else:
        raise LiveError([_("Unknown entry.")])


def _undo(event: LiveEvent, entry: EventInput, events: Sequence[LiveEvent], by: Any) -> None:
    target = next((e for e in events if e.pk == entry.undoes_id), None)
    if target is None or target.kind == LiveEvent.Kind.UNDO:
        raise LiveError([_("There is no such entry to undo.")])
    if any(e.undoes_id == target.pk for e in events):
        raise LiveError([_("That entry is undone already.")])
    if not may_undo(by, target):
        raise LiveForbidden([_("Only the coach who made an entry, or the board, may undo it.")])
    event.undoes = target
    event.team_id = target.team_id


def _clock(event: LiveEvent, entry: EventInput, match: Match, prematch: PreMatch, state: rules.State, by: Any) -> None:
    """The start (the match's setup kept, the Master Chef's dice), half-time (the chef's again) and the
    end, each after the one before."""
    if entry.kind == LiveEvent.Kind.START:
        if state.started:
            raise LiveError([_("The match has started.")])
        event.data = {"setup": setup_now(match, prematch), "chef": chef_dice(match, prematch, 1, entry, by)}
    elif entry.kind == LiveEvent.Kind.HALF_TIME:
        if state.half != 1:
            raise LiveError([_("Half-time comes after the first half.")])
        event.data = {"chef": chef_dice(match, prematch, 2, entry, by)}
    elif entry.kind == LiveEvent.Kind.END and state.half != 2:
        raise LiveError([_("The match ends after the second half.")])


def _done_if_the_turn_is_over(match: Match, state: rules.State, entry: EventInput) -> None:
    """Both phones keep the log and each is up to a poll behind: an end of turn the other phone logged a
    moment ago is what this coach meant too, so it is answered as done (nothing logged twice), never
    refused, and never taken as the end of the turn after it."""
    if entry.team_id not in (match.home_id, match.away_id) or not state.started:
        return
    side = side_of(match, entry.team_id)
    if rules.turn_over(state, side, half=entry.half, turn=entry.turn):
        shown = entry.turn if entry.turn is not None else state.turns[side]
        raise TurnAlreadyEnded(team_of(match, side).name, shown)


def _turn_or_reroll_team(match: Match, state: rules.State, entry: EventInput) -> Any:
    """A turn is the active team's; a team re-roll is one the team has left this half."""
    side = side_of(match, entry.team_id) if entry.team_id in (match.home_id, match.away_id) else None
    if side is None:
        raise LiveError([_("Choose one of the two teams.")])
    if entry.kind == LiveEvent.Kind.TURN and side != state.active:
        raise LiveError([_("It is not that team's turn: the page was behind. Look again.")])
    if entry.kind == LiveEvent.Kind.REROLL and state.rerolls_left(side) < 1:
        raise LiveError([_("%(team)s has no team re-rolls left this half.") % {"team": team_of(match, side).name}])
    return team_of(match, side)


def _players(match: Match, event: LiveEvent, entry: EventInput) -> None:
    """The named players must be of the match squads; the victim an opponent of whoever hurt him."""
    ids = {i for i in (entry.player_id, entry.victim_id) if i}
    squad = dict(
        SquadEntry.objects.filter(match=match, status=SquadEntry.Status.PLAYING, player_id__in=ids).values_list(
            "player_id", "team_id"
        )
    )
    _refuse_players(entry, ids, squad)
    needs_victim = entry.kind in VICTIM_KINDS
    event.player_id = entry.player_id if entry.kind not in (LiveEvent.Kind.INJURY, LiveEvent.Kind.KO) else None
    event.victim_id = entry.victim_id if needs_victim else None
    if event.player_id:
        event.team_id = squad[event.player_id]
    else:  # a crowd push without a pusher, an injury, a KO: the side is the hurt player's opponent's or his own
        victim_team = squad[event.victim_id]
        event.team_id = (
            (match.away_id if victim_team == match.home_id else match.home_id)
            if entry.kind == LiveEvent.Kind.CROWD
            else victim_team
        )
    if entry.kind in INJURY_KINDS:
        event.data = {"injury": entry.injury, **({"how": entry.how} if entry.kind == LiveEvent.Kind.CASUALTY else {})}


def _refuse_players(entry: EventInput, ids: set[int], squad: dict[int, int]) -> None:
    """The players the kind of entry asks for, of the squads, on opposite sides; the injury and how."""
    needs_player = entry.kind in PLAYER_KINDS or entry.kind == LiveEvent.Kind.CASUALTY
    needs_victim = entry.kind in VICTIM_KINDS
    if needs_player and not entry.player_id:
        raise LiveError([_("Choose the player.")])
    if needs_victim and not entry.victim_id:
        raise LiveError([_("Choose the player who was hurt.")])
    if any(i not in squad for i in ids):
        raise LiveError([_("Choose a player of the match squads.")])
    if entry.player_id and entry.victim_id and squad[entry.player_id] == squad[entry.victim_id]:
        raise LiveError([_("A player does not hurt a team mate here: log it as an injury.")])
    if entry.kind in INJURY_KINDS and entry.injury not in dict(LIVE_INJURIES):
        raise LiveError([_("Choose the injury: badly hurt, serious injury or dead.")])
    if entry.kind == LiveEvent.Kind.CASUALTY and entry.how not in (rules.BLOCK, rules.FOUL):
        raise LiveError([_("By block or by foul?")])


OUT_OF_PLAY = {  # why a player is out of play (league.rules.live.out_of_play) → the refusal
    rules.SENT_OFF: gettext_lazy(
        "%(player)s was sent off and is out of this match. Undo that entry if it was a mistake."
    ),
    "serious_injury": gettext_lazy(
        "%(player)s is seriously injured and out of this match. Undo that entry if it was a mistake."
    ),
    "dead": gettext_lazy("%(player)s is dead and out of this match. Undo that entry if it was a mistake."),
}


def _in_play(match: Match, event: LiveEvent, events: Sequence[LiveEvent]) -> None:
    """An entry names only players still on the pitch: no touchdown for a dead man, no second
    injury for one in the casualty box, nothing by one sent off."""
    out = out_of_play(match, events)
    named = rules.named_out_of_play(rules.Event(kind=event.kind, player=event.player_id, victim=event.victim_id), out)
    if named:
        players = Player.objects.in_bulk(named)
        raise LiveError([str(OUT_OF_PLAY[out[pk]]) % {"player": players[pk]} for pk in named])
