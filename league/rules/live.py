"""The match as it is played, derived from its live log. Pure: no Django.

The log is a list of events; the score, the half, each team's turn, the weather and the team
re-rolls left are worked out from it here, never stored. The rulebook's parts:

- "Under kampen", Kick-Off table: 2 Opprør (both turn markers move D6 turns; at 8 for both the
  half ends), 3 Ut me dommern! (no sending-offs for the rest of the half), 5 12. spiller and
  9 Innøvd trekk (the higher roll gets an extra team re-roll for the half: D6 + FFM + cheerleaders,
  2D6 + FFM + assistant coaches; the FFM is the home team's modifier, R15), 7 Skiftende vær (roll
  the weather again).
- "Re-Roll (RR)": at half-time each team gets back half of the team re-rolls it used in the first
  half, rounded up ("Lag A har 7 RR, og bruker 5 ... starter andre omgang med 2+3=5 RR").
- "Master Chef's": before each half a D6 per die; on 2+ the Halflings get an extra team re-roll for
  that half and the opponent loses one, never more than he had at the start (of the half).
- "Hjemmebane" / R14: the designated home team has +1 team re-roll and kicks off the first half;
  the away team kicks off after half-time.
- Handicap table 2: Ekstra trening (one extra team re-roll for the match), Doom & Gloom (the
  opponent's team re-rolls halved for the first half, rounded down: a half re-roll is none).

A re-roll used in a half is taken from the half's extra re-rolls first (the Master Chef's, the
kick-off's): they are gone at half-time anyway, so a coach spends them first, and only the team's
own re-rolls used count for the half-time recovery.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

HOME, AWAY = "home", "away"
SIDES = (HOME, AWAY)

TURNS_PER_HALF = 8  # "to (2) omganger à åtte (8) runder"
CHEF_TARGET = 2  # Master Chef: 2+ on a D6
INJURIES = ("badly_hurt", "serious_injury", "dead")  # as the report's PlayerMatch.Injury, worst last

# The kinds of log entries (the model's LiveEvent.Kind mirrors these values).
START = "start"
KICKOFF = "kickoff"
TURN = "turn"
TOUCHDOWN = "touchdown"
COMPLETION = "completion"
INTERCEPTION = "interception"
CASUALTY = "casualty"  # by block or by foul, data["how"]
CROWD = "crowd"  # pushed into the crowd: the pusher's block casualty (R28)
INJURY = "injury"  # hurt without an opponent to credit (a failed dodge, a thrown rock)
KO = "ko"
SENT_OFF = "sent_off"
REROLL = "reroll"
HALF_TIME = "half_time"
END = "end"
UNDO = "undo"

BLOCK, FOUL = "block", "foul"

# The Kick-Off table's keys (data/torshov_2006.json) whose effect touches the log.
RIOT = "riot"
GET_THE_REF = "get_the_ref"
TWELFTH_PLAYER = "twelfth_player"
CHANGING_WEATHER = "changing_weather"
PRACTISED_MOVE = "practised_move"
CONTESTS = {TWELFTH_PLAYER: 1, PRACTISED_MOVE: 2}  # dice each coach rolls for the extra re-roll


def other(side: str) -> str:
    return AWAY if side == HOME else HOME


@dataclass(frozen=True)
class Event:
    """A log entry as the rules see it: its kind, the side it is for, and what it says."""

    kind: str
    side: str | None = None
    player: Any = None
    victim: Any = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Setup:
    """What the pre-match sequence settled: each side's team re-rolls for the match (the roster's,
    the home team's extra one (R14), Ekstra trening), Doom & Gloom against a side, the weather."""

    rerolls: Mapping[str, int]
    weather: str
    doom_and_gloom: frozenset[str] = frozenset()


@dataclass
class Rerolls:
    """One side's team re-rolls in the current half."""

    own: int = 0  # the team's own at the start of the half
    extra: int = 0  # the half's extra ones: Master Chef, kick-off 5 and 9
    lost: int = 0  # taken by the opponent's Master Chef for the half
    used: int = 0

    @property
    def left(self) -> int:
        return max(0, self.own + self.extra - self.lost - self.used)

    @property
    def own_used(self) -> int:
        """The team's own re-rolls used: the half's extra ones go first."""
        return max(0, self.used - self.extra)


@dataclass
class State:
    half: int = 0  # 0 before the kick-off, 1, 2; 3 once the match has ended
    score: dict[str, int] = field(default_factory=lambda: {HOME: 0, AWAY: 0})
    turns: dict[str, int] = field(default_factory=lambda: {HOME: 0, AWAY: 0})  # turns played this half
    active: str = AWAY  # whose turn it is
    kicking: str = HOME  # who kicks off next
    weather: str = ""
    rerolls: dict[str, Rerolls] = field(default_factory=lambda: {HOME: Rerolls(), AWAY: Rerolls()})
    full: dict[str, int] = field(default_factory=lambda: {HOME: 0, AWAY: 0})  # the match's own re-rolls
    recovered: dict[str, int] = field(default_factory=dict)  # at half-time, by the house rule
    no_sending_off: bool = False  # Kick-Off 3 for the rest of the half

    @property
    def started(self) -> bool:
        return self.half >= 1

    @property
    def ended(self) -> bool:
        return self.half > 2

    @property
    def playing(self) -> bool:
        return 1 <= self.half <= 2

    def turn(self, side: str) -> int:
        """The turn a side is in (or about to play), 1–8."""
        return min(self.turns[side] + 1, TURNS_PER_HALF)

    @property
    def half_over(self) -> bool:
        """Both teams have played their eight turns: the half ends (Kick-Off 2 counts too)."""
        return all(self.turns[s] >= TURNS_PER_HALF for s in SIDES)

    def rerolls_left(self, side: str) -> int:
        return self.rerolls[side].left


def turn_over(state: State, side: str, *, half: int | None, turn: int | None) -> bool:
    """Whether the side's turn a phone asks to end is over already: the other phone ended it (or a touchdown
    did) before this press arrived, a phone being a few seconds behind. `half` and `turn` are those the phone
    showed; without them (a page from before they were sent) a side whose turn it is not, and that has played
    a turn this half, has had its turn ended. A turn is over once the side has played that many turns of its
    half, or the half is past."""
    if half is None or turn is None:
        return side != state.active and state.turns[side] > 0
    if state.half != half:
        return state.half > half
    return state.turns[side] >= turn


def half_time_recovery(used: int) -> int:
    """Re-Roll (RR), the house rule: half of the team re-rolls used in the first half, rounded up."""
    if used < 0:
        raise ValueError("used must be 0 or more")
    return math.ceil(used / 2)


def second_half_rerolls(full: int, used: int) -> int:
    """The team re-rolls a team starts the second half with: what it did not use, and half of those
    it used back, rounded up (the book's example: 7, 5 used → 2 + 3 = 5)."""
    used = min(used, full)
    return full - used + half_time_recovery(used)


def first_half_rerolls(full: int, *, doom_and_gloom: bool = False) -> int:
    """Doom & Gloom (handicap table 2) halves the first half's team re-rolls, rounded down."""
    return full // 2 if doom_and_gloom else full


def chef_successes(dice: Sequence[int]) -> int:
    """Master Chef's: each D6 of 2+ is an extra team re-roll for the half (and one the opponent loses)."""
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise ValueError(f"a D6 shows 1–6, not {d!r}")
    return sum(1 for d in dice if d >= CHEF_TARGET)


def chef_effects(successes: Mapping[str, int], own: Mapping[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """(extra, lost) per side for the half: each side's successes are its extra re-rolls; the opponent
    loses as many, never more than it has at the start of the half."""
    extra = {s: successes.get(s, 0) for s in SIDES}
    lost = {s: min(extra[other(s)], own[s]) for s in SIDES}
    return extra, lost


def kickoff_contest(
    key: str, home_dice: Sequence[int], away_dice: Sequence[int], *, ffm: int, home_staff: int, away_staff: int
) -> tuple[int, int]:
    """The totals of Kick-Off 5 (D6 + FFM + cheerleaders) or 9 (2D6 + FFM + assistant coaches); the FFM
    is the home team's ("Ved noen hendelser på kick-off tabellen skal man legge til en FFM for
    hjemmelaget"). `*_staff`: the cheerleaders on 5, the assistant coaches on 9."""
    count = CONTESTS[key]
    for dice in (home_dice, away_dice):
        if len(dice) != count or any(not 1 <= d <= 6 for d in dice):
            raise ValueError(f"{key}: {count} D6 per coach")
    return sum(home_dice) + ffm + home_staff, sum(away_dice) + away_staff


def contest_winner(home_total: int, away_total: int) -> str | None:
    """The higher total gets the extra re-roll; a tie is rolled again ("Bruk tie-break")."""
    if home_total == away_total:
        return None
    return HOME if home_total > away_total else AWAY


def _start_half(state: State, half: int, chef: Mapping[str, Sequence[int]], setup: Setup) -> None:
    state.half = half
    state.turns = {HOME: 0, AWAY: 0}
    state.kicking = HOME if half == 1 else AWAY  # R14 / "Hjemmebane"
    state.active = other(state.kicking)  # the receiving team moves first
    state.no_sending_off = False
    if half == 1:
        own = {s: first_half_rerolls(state.full[s], doom_and_gloom=s in setup.doom_and_gloom) for s in SIDES}
    else:
        own = {}
        for s in SIDES:
            used = state.rerolls[s].own_used
            state.recovered[s] = half_time_recovery(used)
            own[s] = second_half_rerolls(state.full[s], used)
    extra, lost = chef_effects({s: chef_successes(chef.get(s, ())) for s in SIDES}, own)
    state.rerolls = {s: Rerolls(own=own[s], extra=extra[s], lost=lost[s]) for s in SIDES}


def derive(setup: Setup, events: Iterable[Event]) -> State:
    """The match's state after the log's events, in order (undone ones already left out)."""
    state = State(weather=setup.weather, full={s: setup.rerolls.get(s, 0) for s in SIDES})
    state.rerolls = {s: Rerolls(own=state.full[s]) for s in SIDES}  # before the kick-off: the match's own
    for e in events:
        if e.kind == START and state.half == 0:
            _start_half(state, 1, e.data.get("chef", {}), setup)
        elif e.kind == HALF_TIME and state.half == 1:
            _start_half(state, 2, e.data.get("chef", {}), setup)
        elif e.kind == END and state.half == 2:
            state.half = 3
        elif not state.playing:
            continue
        elif e.kind == TURN and e.side:
            state.turns[e.side] += 1
            state.active = other(e.side)
        elif e.kind == TOUCHDOWN and e.side:
            state.score[e.side] += 1
            state.turns[state.active] += 1  # a touchdown ends the turn
            state.kicking = e.side  # the scorers kick off, the others receive and move first
            state.active = other(e.side)
        elif e.kind == REROLL and e.side:
            state.rerolls[e.side].used += 1
        elif e.kind == KICKOFF:
            _kickoff(state, e)
    return state


def _kickoff(state: State, e: Event) -> None:
    result = e.data.get("result")
    if e.data.get("weather"):
        state.weather = e.data["weather"]
    if e.data.get("extra_reroll") in SIDES:
        state.rerolls[e.data["extra_reroll"]].extra += 1
    if result == RIOT:
        turns = int(e.data.get("riot_turns", 0))
        state.turns = {s: min(TURNS_PER_HALF, state.turns[s] + turns) for s in SIDES}
    if result == GET_THE_REF:
        state.no_sending_off = True


@dataclass
class Tally:
    """One player's line of the report as the log tells it (Spillerutviklinger; R28: a crowd casualty
    from a push is the pusher's block casualty)."""

    completions: int = 0
    touchdowns: int = 0
    interceptions: int = 0
    casualties: int = 0
    foul_casualties: int = 0
    crowd_casualties: int = 0
    injury: str = ""
    injured_by: Any = None
    sent_off: bool = False


def tally(events: Iterable[Event]) -> dict[Any, Tally]:
    """Each player's deeds and injury from the log (undone entries already left out). A player hurt
    twice keeps the worst injury and who caused it."""
    lines: dict[Any, Tally] = {}

    def line(player: Any) -> Tally:
        return lines.setdefault(player, Tally())

    for e in events:
        if e.kind == TOUCHDOWN and e.player is not None:
            line(e.player).touchdowns += 1
        elif e.kind == COMPLETION and e.player is not None:
            line(e.player).completions += 1
        elif e.kind == INTERCEPTION and e.player is not None:
            line(e.player).interceptions += 1
        elif e.kind == SENT_OFF and e.player is not None:
            line(e.player).sent_off = True
        elif e.kind in (CASUALTY, CROWD, INJURY):
            if e.player is not None and e.kind == CROWD:
                line(e.player).crowd_casualties += 1
            elif e.player is not None and e.kind == CASUALTY:
                if e.data.get("how") == FOUL:
                    line(e.player).foul_casualties += 1
                else:
                    line(e.player).casualties += 1
            injury = e.data.get("injury")
            if e.victim is not None and injury in INJURIES:
                hurt = line(e.victim)
                if not hurt.injury or INJURIES.index(injury) >= INJURIES.index(hurt.injury):
                    hurt.injury = injury
                    hurt.injured_by = e.player if e.kind in (CASUALTY, CROWD) else None
    return lines


def casualties_caused(events: Iterable[Event]) -> dict[str, int]:
    """R38: the opponents' badly hurt, seriously injured or killed players from a side's blocks, fouls
    and crowd pushes, counted as they happened."""
    caused = {HOME: 0, AWAY: 0}
    for e in events:
        if e.kind in (CASUALTY, CROWD) and e.side in SIDES and e.data.get("injury") in INJURIES:
            caused[e.side] += 1
    return caused


# --- who is out of play ------------------------------------------------------------------

# A seriously injured or dead player stays in the casualty box for the rest of the match: the apothecary,
# Regeneration and the serious injury table come after it (R25, R26). A badly hurt player ("ute for
# kampen") is not out here: the apothecary may heal him back onto the pitch at once (R26, 1 AP), which the
# log does not record. A KO'd player comes back at a kick-off on 4+.
OUT_OF_PLAY_INJURIES = ("serious_injury", "dead")


def out_of_play(events: Iterable[Event]) -> dict[Any, str]:
    """The players out of the match after the log's entries so far (undone entries already left out:
    an undone injury or sending-off puts the player back), each with why: "serious_injury" or "dead" from
    any injury entry that names him as the one hurt, or SENT_OFF. The first reason stands."""
    out: dict[Any, str] = {}
    for e in events:
        if e.kind == SENT_OFF and e.player is not None:
            out.setdefault(e.player, SENT_OFF)
        elif e.kind in (CASUALTY, CROWD, INJURY) and e.victim is not None:
            injury = e.data.get("injury")
            if injury in OUT_OF_PLAY_INJURIES:
                out.setdefault(e.victim, injury)
    return out


def named_out_of_play(event: Event, out: Mapping[Any, str]) -> list[Any]:
    """The players a new entry names (who did it, who was hurt) that are out of play already: an entry
    credits or hurts only a player on the pitch, whatever its kind (a touchdown, a completion, an
    interception, a casualty caused or suffered, a KO, a sending-off)."""
    return [p for p in dict.fromkeys((event.player, event.victim)) if p is not None and p in out]
