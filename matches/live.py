"""The match log kept beside the pitch (issue 17): the writes and the reads of the live page.

Every write locks the match row, so the two coaches' phones take turns, and is idempotent on the
id the phone made (`client_id`): a send retried after a lost answer finds its entry and records
nothing new. Nothing is deleted: an entry is undone by a compensating entry. The score, the half,
the turns, the weather and the re-rolls left are derived from the log by league.rules.live; the
kick-off's and the Master Chef's dice are stored rows (matches/dice.py), typed or rolled.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.accounts import is_board
from league.lib.refusals import Refusal
from league.lib.writes import league_write
from league.rules import live as rules
from league.rules.records import REPORTED_COUNTERS
from matches import dice
from matches.models import DiceRoll, HandicapDraw, LiveEvent, Match, PlayerMatch, PreMatch, SquadEntry
from teams.models import Player, Race

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


def can_write(user: Any, match: Match) -> bool:
    """The two coaches of the match and the board add entries (and undo them: `may_undo`); everyone else
    only looks."""

    if not getattr(user, "is_authenticated", False):
        return False
    coaches = {getattr(match.home, "coach_id", None), getattr(match.away, "coach_id", None)}
    return user.pk in coaches or is_board(user)


def playable(match: Match, prematch: PreMatch | None) -> bool:
    """The log is open once the pre-match sequence is finished and until the report is filed."""
    return (
        match.status == Match.Status.SCHEDULED
        and bool(match.home_id and match.away_id)
        and prematch is not None
        and prematch.done >= PreMatch.Step.MASTER_CHEF
    )


def may_undo(user: Any, entry: LiveEvent) -> bool:
    """An entry is undone by the coach who made it or by the board (issue 24); the other coach asks them."""
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


# --- writing -------------------------------------------------------------------------------------


def _lock(match_pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_for_update(of=("self",)).select_related(
            "season__ruleset", "home__race", "away__race", "home__stadium", "prematch"
        ),
        pk=match_pk,
    )


@league_write
def record(match_pk: int, entry: EventInput, *, by: Any) -> LiveEvent:
    """Add an entry to the log (or undo one). Sent twice with the same client id, it is recorded once
    and the first entry is returned. Refused, nothing is saved."""
    match = _lock(match_pk)
    if not can_write(by, match):
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
    event = LiveEvent(match=match, kind=entry.kind, client_id=entry.client_id, author=by)
    if entry.kind == LiveEvent.Kind.UNDO:
        _undo(event, entry, events, by)
    elif entry.kind == LiveEvent.Kind.START:
        if state.started:
            raise LiveError([_("The match has started.")])
        event.data = {"setup": setup_now(match, prematch), "chef": _chef(match, prematch, 1, entry, by)}
    elif entry.kind == LiveEvent.Kind.HALF_TIME:
        if state.half != 1:
            raise LiveError([_("Half-time comes after the first half.")])
        event.data = {"chef": _chef(match, prematch, 2, entry, by)}
    elif entry.kind == LiveEvent.Kind.END:
        if state.half != 2:
            raise LiveError([_("The match ends after the second half.")])
    elif not state.playing:
        raise LiveError([_("The match has ended.") if state.ended else _("Start the match first.")])
    elif entry.kind == LiveEvent.Kind.KICKOFF:
        event.team = team_of(match, state.kicking)
        event.data = _kickoff(match, prematch, state, entry, by)
    elif entry.kind in (LiveEvent.Kind.TURN, LiveEvent.Kind.REROLL):
        side = side_of(match, entry.team_id) if entry.team_id in (match.home_id, match.away_id) else None
        if side is None:
            raise LiveError([_("Choose one of the two teams.")])
        if entry.kind == LiveEvent.Kind.TURN and side != state.active:
            raise LiveError([_("It is not that team's turn: the page was behind. Look again.")])
        if entry.kind == LiveEvent.Kind.REROLL and state.rerolls_left(side) < 1:
            raise LiveError([_("%(team)s has no team re-rolls left this half.") % {"team": team_of(match, side).name}])
        event.team = team_of(match, side)
    elif entry.kind in PLAYER_KINDS | VICTIM_KINDS:
        _players(match, event, entry)
        _in_play(match, event, events)
    else:
        raise LiveError([_("Unknown entry.")])
    event.save()
    return event


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


def _players(match: Match, event: LiveEvent, entry: EventInput) -> None:
    """The named players must be of the match squads; the victim an opponent of whoever hurt him."""
    ids = {i for i in (entry.player_id, entry.victim_id) if i}
    squad = dict(
        SquadEntry.objects.filter(match=match, status=SquadEntry.Status.PLAYING, player_id__in=ids).values_list(
            "player_id", "team_id"
        )
    )
    needs_player = entry.kind in PLAYER_KINDS or entry.kind == LiveEvent.Kind.CASUALTY
    needs_victim = entry.kind in VICTIM_KINDS
    if needs_player and not entry.player_id:
        raise LiveError([_("Choose the player.")])
    if needs_victim and not entry.victim_id:
        raise LiveError([_("Choose the player who was hurt.")])
    if any(i not in squad for i in ids):
        raise LiveError([_("Choose a player of the match squads.")])
    if entry.player_id and entry.victim_id and squad[entry.player_id] == squad[entry.victim_id]:
        raise LiveError([_("A player does not hurt his own team mate here: log it as an injury.")])
    if entry.kind in INJURY_KINDS and entry.injury not in dict(LIVE_INJURIES):
        raise LiveError([_("Choose the injury: badly hurt, serious injury or dead.")])
    if entry.kind == LiveEvent.Kind.CASUALTY and entry.how not in (rules.BLOCK, rules.FOUL):
        raise LiveError([_("By block or by foul?")])
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


OUT_OF_PLAY = {  # why a player is out of play (league.rules.live.out_of_play) → the refusal
    rules.SENT_OFF: gettext_lazy(
        "%(player)s was sent off: he is out of this match. Undo that entry if it was a mistake."
    ),
    "serious_injury": gettext_lazy(
        "%(player)s is seriously injured: he is out of this match. Undo that entry if it was a mistake."
    ),
    "dead": gettext_lazy("%(player)s is dead: he is out of this match. Undo that entry if it was a mistake."),
}


def out_of_play(match: Match, events: Sequence[LiveEvent]) -> dict[int, str]:
    """The players seriously injured, dead or sent off in the log so far (undone entries left out), by id."""
    return rules.out_of_play(as_rules_events(match, events))


def _in_play(match: Match, event: LiveEvent, events: Sequence[LiveEvent]) -> None:
    """An entry names only players still on the pitch (issue 24): no touchdown for a dead man, no second
    injury for one in the casualty box, nothing by one sent off."""
    out = out_of_play(match, events)
    named = rules.named_out_of_play(rules.Event(kind=event.kind, player=event.player_id, victim=event.victim_id), out)
    if named:
        players = Player.objects.in_bulk(named)
        raise LiveError([str(OUT_OF_PLAY[out[pk]]) % {"player": players[pk]} for pk in named])


def _chef(match: Match, prematch: PreMatch, half: int, entry: EventInput, by: Any) -> dict[str, list[int]]:
    """Master Chef's: before each half a D6, and one more per 20,000 spent before the match; the dice
    are stored rows (typed or rolled). Returns each chef side's dice."""
    rolls = []
    for side, team in ((rules.HOME, match.home), (rules.AWAY, match.away)):
        if team.race.head_coach != Race.HeadCoach.MASTER_CHEF:
            continue
        count = 1 + getattr(prematch, f"{side}_chef_dice")
        values = dice.draw(count=count, entered=entry.chef.get(side))
        rolls.append(_dice_row(match, f"chef:{half}:{team.pk}", values, entry.chef.get(side), by, team, step="live"))
    stored = dice.store(match, rolls)  # after an undone half-time the first dice stand
    return {side_of(match, d.team_id): d.values for d in stored.values()}


def _dice_row(match: Match, purpose: str, values: list[int], entered: Any, by: Any, team: Any, **kw) -> DiceRoll:
    return DiceRoll(
        match=match,
        purpose=purpose,
        step=kw.get("step", "live"),
        sides=kw.get("sides", 6),
        count=len(values),
        values=values,
        entered=entered is not None,
        rolled_by=by if getattr(by, "is_authenticated", False) else None,
        team=team,
    )


def _kickoff(match: Match, prematch: PreMatch, state: rules.State, entry: EventInput, by: Any) -> dict:
    """The Kick-Off table (2D6 by the kicking team) and the dice its result asks for: the weather
    again on 7 (R39: the roof at home), a D6 of turns on 2, the roll-off for the extra re-roll on
    5 and 9 (a tie is rolled again; typed dice that tie are refused)."""
    r = match.season.ruleset.rules
    kicking = team_of(match, state.kicking)
    cid = entry.client_id.hex
    values = dice.draw(count=2, entered=entry.kickoff)
    result = r.kickoff(*values)
    rows = [_dice_row(match, f"kickoff:{cid}", values, entry.kickoff, by, kicking)]
    data: dict[str, Any] = {"dice": values, "result": result.key, "name": result.name}
    if result.key == rules.CHANGING_WEATHER:
        w = dice.draw(count=2, entered=entry.weather)
        rows.append(_dice_row(match, f"kickoff_weather:{cid}", w, entry.weather, by, None))
        roof = match.home.stadium.roof and not match.neutral
        weather = r.weather(*w, roof=roof)
        data.update(weather=weather.key, weather_name=weather.name, weather_dice=w)
    elif result.key == rules.RIOT:
        d = dice.draw(count=1, entered=entry.riot)
        rows.append(_dice_row(match, f"riot:{cid}", d, entry.riot, by, kicking))
        data["riot_turns"] = d[0]
    elif result.key in rules.CONTESTS:
        count = rules.CONTESTS[result.key]
        staff = "cheerleaders" if result.key == rules.TWELFTH_PLAYER else "assistant_coaches"
        ffm = prematch.fan_factor_modifier or 0
        for attempt in range(1, 21):
            rolled = {s: dice.draw(count=count, entered=entry.contest.get(s)) for s in rules.SIDES}
            home_total, away_total = rules.kickoff_contest(
                result.key,
                rolled[rules.HOME],
                rolled[rules.AWAY],
                ffm=ffm,
                home_staff=getattr(match.home, staff),
                away_staff=getattr(match.away, staff),
            )
            for s in rules.SIDES:
                rows.append(
                    _dice_row(
                        match,
                        f"kickoff_contest:{cid}:{attempt}:{s}",
                        rolled[s],
                        entry.contest.get(s),
                        by,
                        team_of(match, s),
                    )
                )
            winner = rules.contest_winner(home_total, away_total)
            if winner is not None:
                data.update(extra_reroll=winner, contest=[home_total, away_total])
                break
            if entry.contest.get(rules.HOME) is not None or entry.contest.get(rules.AWAY) is not None:
                raise LiveError([_("The roll-off is tied (%(n)s each): roll again.") % {"n": home_total}])
    dice.store(match, rows)
    return data


# --- reading -------------------------------------------------------------------------------------


def log_rows(match: Match) -> list[LiveEvent]:
    """The whole log, oldest first, with who entered each entry."""
    return list(
        LiveEvent.objects.filter(match=match).select_related("player", "victim", "author", "team").order_by("pk")
    )


def squads(match: Match, leaving_out: Collection[int] = ()) -> dict[str, list[Any]]:
    """The players who took the field, by side, by number: whom an entry names (`leaving_out`: those out
    of play)."""
    by_side: dict[str, list[Any]] = {rules.HOME: [], rules.AWAY: []}
    for entry in (
        SquadEntry.objects.filter(match=match, status=SquadEntry.Status.PLAYING)
        .exclude(player_id__in=leaving_out)
        .select_related("player")
        .order_by("player__number")
    ):
        by_side[side_of(match, entry.team_id)].append(entry.player)
    return by_side


def weather_name(match: Match, key: str) -> str:
    for band in match.season.ruleset.rules.tables.weather.bands:
        if band.value.key == key:
            return band.value.name
    return key


def report_prefill(match: Match) -> dict | None:
    """The report form's initial data from an ended log: the score and each player's line (Comp, TD,
    Int, Cas by block or foul, crowd casualties (R28), injury and by whom, sent off). None without an
    ended log: the form is empty as before. The apothecary and serious injury details are the
    filing coach's to add."""
    events = list(LiveEvent.objects.filter(match=match))
    kept = as_rules_events(match, events)
    if not any(e.kind == LiveEvent.Kind.END for e in kept):
        return None
    state = rules.derive(setup_of(match, None, events), kept)
    lines = {
        player_id: {
            **{c: getattr(t, c) for c in REPORTED_COUNTERS},
            "injury": t.injury,
            "injured_by": t.injured_by,
            "sent_off": t.sent_off,
        }
        for player_id, t in rules.tally(kept).items()
    }
    return {"home_score": state.score[rules.HOME], "away_score": state.score[rules.AWAY], "lines": lines}


def shown(match: Match) -> bool:
    """Whether the match page links to the live page: while the match can be played, or its log is kept."""
    if match.status != Match.Status.SCHEDULED:
        return LiveEvent.objects.filter(match=match).exists()
    return (
        playable(match, PreMatch.objects.filter(match=match).first()) or LiveEvent.objects.filter(match=match).exists()
    )


def playing_now():
    """Matches being played now: a started log, not ended, the report not yet filed (the front page)."""
    # Most of the week nothing is being played: a plain read of the started matches first, as the
    # whole question takes PostgreSQL longer to plan than to answer (issue 16).
    if not LiveEvent.objects.filter(kind=LiveEvent.Kind.START, match__status=Match.Status.SCHEDULED).exists():
        return Match.objects.none()
    live = LiveEvent.objects.filter(match=OuterRef("pk"), undone_by__isnull=True)
    return (
        Match.objects.filter(status=Match.Status.SCHEDULED)
        .filter(Exists(live.filter(kind=LiveEvent.Kind.START)))
        .exclude(Exists(live.filter(kind=LiveEvent.Kind.END)))
        .select_related("home", "away")
        .order_by("pk")
    )
