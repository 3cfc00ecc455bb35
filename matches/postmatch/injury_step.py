"""Step 2, injuries (R25, R26, R37, R9): Regeneration, the serious injury table, the apothecary's
treatments and the after-match healer; the decisions come from league.rules.injuries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from league import rules
from league.lib.writes import league_write
from league.rules import injuries as injury_rules
from league.rules.injuries import (
    Fate,
    InjuredPlayer,
    dice_needed,
    fate_unless_regenerated,
    healer_attempts,
    healer_may_treat,
    injury_fate,
)
from league.rules.messages import N_, Joined, Msg
from matches import dice
from matches.models import (
    ApothecaryUse,
    DiceRoll,
    Match,
    PlayerMatch,
    PostMatch,
    SquadEntry,
)
from matches.postmatch.base import PostMatchError, finish_step, lock_step, prematch_of
from matches.postmatch.raising import raise_the_dead
from teams.ledger import post_entry
from teams.models import Player, Race, StatChange, Team, TreasuryEntry

# --- 2. injuries (R25, R26, R37, R9) -------------------------------------------------------------


def _skills(player: Player) -> set[str]:
    return {s.name for s in player.position.skills.all()} | {g.skill.name for g in player.gained_skills.all()}


def injured_lines(match: Match, team: Team) -> list[PlayerMatch]:
    return list(
        PlayerMatch.objects.filter(match=match, team=team)
        .exclude(injury="")
        .select_related("player__position")
        .prefetch_related("player__position__skills", "player__gained_skills__skill")
    )


def _player_die(
    match: Match, purpose: str, player: Player, *, by: Any, entered: Mapping[str, Sequence[int]], **kwargs: Any
) -> DiceRoll:
    """One of the injuries step's dice for a player, stored under "<purpose>:<player>" (entered or rolled)."""
    key = f"{purpose}:{player.pk}"
    return dice.roll(match, key, step="injuries", entered=entered.get(key), by=by, player=player, **kwargs)


def _lose_stat(player: Player, stat: str, r: rules.Ruleset, note: str, match: Match) -> Msg:
    """An injury's -1 to a stat, as league.rules decides it: never past -2 from the position's value and
    never moved to another stat (R41); a stat lowered to 0 hits another at random (R29). The part of
    the explanation line says which, R41's refusal too."""
    base = {s: getattr(player.position, s.lower()) for s in rules.STATS}
    loss = r.stat_loss(stat, base, {s: getattr(player, s.lower()) for s in rules.STATS})
    if loss.choose_from:
        loss = loss.moved_to(loss.choose_from[dice.randbelow(len(loss.choose_from))])
    if loss.lowered is not None:
        field = f"{loss.lowered.lower()}_change"
        setattr(player, field, getattr(player, field) - 1)
        StatChange.objects.create(
            player=player,
            stat=loss.lowered,
            change=-1,
            reason=StatChange.Reason.INJURY,
            note=note,
            match_id=match.pk,
        )
    return loss.shown


def _revive(player: Player, match: Match, r: rules.Ruleset, by: Any, entered: Mapping[str, Sequence[int]]) -> Msg:
    """A revived player rolls on the revival table, and the dice for the matches he misses."""
    d = _player_die(match, "revival", player, d66=True, by=by, entered=entered)
    result = r.revival(d.total)
    miss = result.plus
    if result.dice:
        m = _player_die(match, "revival_miss", player, sides=result.die, count=result.dice, by=by, entered=entered)
        miss = result.miss_matches(m.values)
    player.miss_matches = max(player.miss_matches, miss)
    parts: list[str] = [
        Msg(
            N_("revived: Gjenoppliving-tabell D66 %(d)s %(name)s, out %(miss)s matches"),
            d=d.shown,
            name=result.name,
            miss=miss,
        )
    ]
    if result.niggling:
        player.niggling += 1
        parts.append("NI")
    if result.stat:
        parts.append(_lose_stat(player, result.stat, r, result.name, match))
    return Joined(", ", parts)


def kiosk_applies(match: Match, team: Team) -> bool:
    """The kiosk pays at home, as the facilities stood at the gate (R19)."""
    pre = prematch_of(match)
    return team.pk == match.home_id and not match.neutral and pre is not None and "kiosk" in pre.home_facilities


@dataclass
class InjuryFacts:
    """What the injuries step is decided from, read once: the injured lines, the dice rolled so far,
    the apothecary's treatments."""

    lines: list[PlayerMatch]
    stored: dict[str, DiceRoll]
    uses: dict[tuple[int, str], ApothecaryUse]


def injury_facts(match: Match, team: Team) -> InjuryFacts:
    return InjuryFacts(
        lines=injured_lines(match, team),
        stored={d.purpose: d for d in match.dice.filter(step="injuries").select_related("player")},
        uses={(u.player_id, u.action): u for u in match.apothecary_uses.filter(team=team)},
    )


def _injured(line: PlayerMatch, player: Player, uses: Mapping[tuple[int, str], ApothecaryUse]) -> InjuredPlayer:
    """The report line and the apothecary's treatments as the decision tree reads them (no dice yet)."""
    Action = ApothecaryUse.Action
    heal = uses.get((player.pk, Action.HEAL_SERIOUS if line.injury == PlayerMatch.Injury.SERIOUS else Action.HEAL_DEAD))
    revive = uses.get((player.pk, Action.REVIVE)) if line.injury == PlayerMatch.Injury.DEAD else None
    return InjuredPlayer(
        injury=line.injury,
        regeneration=injury_rules.REGENERATION in _skills(player),
        heal=None if heal is None else heal.roll or 1,  # a treatment never rolled failed
        revive=None if revive is None else revive.roll or 1,
    )


def _with_stored_dice(injured: InjuredPlayer, player: Player, stored: Mapping[str, DiceRoll], r: rules.Ruleset):
    """The tree's facts with the Regeneration and serious injury dice rolled so far."""
    regeneration = stored.get(f"regeneration:{player.pk}")
    serious = stored.get(f"serious_injury:{player.pk}")
    return replace(
        injured,
        regeneration_roll=None if regeneration is None else regeneration.values[0],
        serious_injury_dead=None if serious is None else r.serious_injury(serious.total).dead,
    )


def _fates(match: Match, team: Team, facts: InjuryFacts) -> list[tuple[PlayerMatch, InjuredPlayer]]:
    r = match.season.ruleset.rules
    return [
        (line, _with_stored_dice(_injured(line, line.player, facts.uses), line.player, facts.stored, r))
        for line in facts.lines
    ]


def pending_injury_dice(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[tuple[str, Player]]:
    """The Regeneration and serious injury dice not rolled yet, in R25's order: they decide who is dead
    before the Bandage Crew is ordered."""
    r = match.season.ruleset.rules
    purposes = {Fate.ROLL_REGENERATION: "regeneration", Fate.ROLL_SERIOUS_INJURY: "serious_injury"}
    return [
        (f"{purposes[die]}:{line.player.pk}", line.player)
        for line, injured in _fates(match, team, facts or injury_facts(match, team))
        for die in dice_needed(r, injured)
    ]


@league_write
def roll_injury_dice(
    match: Match, team: Team, *, entered: Mapping[str, Sequence[int]] | None = None, by: Any
) -> list[str]:
    """Roll (once) the Regeneration and serious injury dice, so the coach knows who is dead (R25)."""
    match, team, _postmatch = lock_step(match, team, PostMatch.Step.INJURIES)
    r = match.season.ruleset.rules
    entered = entered or {}
    rolled = []
    for key, player in pending_injury_dice(match, team):
        if key.startswith("serious_injury"):
            regeneration = match.dice.filter(purpose=f"regeneration:{player.pk}").first()
            if regeneration is not None and r.regenerates(regeneration.values[0]):
                continue
        d66 = key.startswith("serious_injury")
        dice.roll(match, key, step="injuries", d66=d66, entered=entered.get(key), by=by, player=player)
        rolled.append(key)
    return rolled


def injury_dice_shown(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[str]:
    """The Regeneration and serious injury dice already rolled, read out before the Bandage Crew."""
    r = match.season.ruleset.rules
    facts = facts or injury_facts(match, team)
    shown = []
    for line in facts.lines:
        player = line.player
        d = facts.stored.get(f"regeneration:{player.pk}")
        if d is not None:
            result = _("regenerates") if r.regenerates(d.values[0]) else _("does not regenerate")
            shown.append(
                _("%(player)s: Regeneration D6 %(roll)s, %(result)s.")
                % {"player": player, "roll": d.shown, "result": result}
            )
        d = facts.stored.get(f"serious_injury:{player.pk}")
        if d is not None:
            shown.append(
                _("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(name)s.")
                % {"player": player, "d": d.shown, "name": r.serious_injury(d.total).name}
            )
    return shown


def healer_limit(team: Team, r: rules.Ruleset) -> int:
    return healer_attempts(team.race.healer, r.settings)[0]


def healer_candidates(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[Player]:
    """The dead the Bandage Crew (Apprentice, Familiar) may attempt (R25): killed in the match or on the
    serious injury table (66), and never one the apothecary treated or tried. Decided from the stored
    dice: a player whose fate waits on an unrolled die is not offered."""
    r = match.season.ruleset.rules
    return [
        line.player
        for line, injured in _fates(match, team, facts or injury_facts(match, team))
        if injury_fate(r, injured) == Fate.DEAD
        and healer_may_treat(team.race.healer, regeneration=injured.regeneration)
    ]


def revived_by_apothecary(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[Player]:
    """The dead the apothecary revives (R26): they roll on the revival table."""
    r = match.season.ruleset.rules
    return [
        line.player
        for line, injured in _fates(match, team, facts or injury_facts(match, team))
        if injury_fate(r, injured) != Fate.REGENERATES and fate_unless_regenerated(r, injured) == Fate.REVIVED
    ]


@league_write
def injuries(
    match: Match,
    team: Team,
    *,
    healer_targets: Sequence[int] = (),
    entered: Mapping[str, Sequence[int]] | None = None,
    raise_zombie: int | None = None,
    by: Any,
) -> PostMatch:
    """Regeneration, the serious injury table for the unhealed, the Bandage Crew (or the Apprentice /
    Familiar) on the dead, the revival table; fees from the treasury, this match's winnings included."""

    match, team, postmatch = lock_step(match, team, PostMatch.Step.INJURIES)
    r = postmatch.ruleset.rules
    s = r.settings
    entered = entered or {}
    lines: list[str] = []
    # R37: a match to miss is served with every match the team plays.
    played = set(SquadEntry.objects.filter(match=match, team=team).values_list("player_id", flat=True))
    served = Player.objects.on_roster().filter(team=team, miss_matches__gt=0).exclude(pk__in=played)
    for p in served:  # saved one by one: each change leaves a history record
        p.miss_matches -= 1
        p.save(update_fields=["miss_matches"])
        lines.append(_("%(player)s has served a match (%(left)s left).") % {"player": p, "left": p.miss_matches})

    uses = {(u.player_id, u.action): u for u in match.apothecary_uses.filter(team=team)}
    dead: list[Player] = []
    has_regeneration: dict[int, bool] = {}
    for line in injured_lines(match, team):
        player = Player.objects.select_related("position").get(pk=line.player_id)
        injured = _injured(line, player, uses)
        has_regeneration[player.pk] = injured.regeneration
        if injured.regeneration:
            d = _player_die(match, "regeneration", player, by=by, entered=entered)
            injured = replace(injured, regeneration_roll=d.values[0])
            if injury_fate(r, injured) == Fate.REGENERATES:
                lines.append(_("%(player)s regenerates: D6 %(roll)s (3+, R25).") % {"player": player, "roll": d.shown})
                continue
            lines.append(_("%(player)s does not regenerate: D6 %(roll)s.") % {"player": player, "roll": d.shown})
        fate = injury_fate(r, injured)
        if fate == Fate.BADLY_HURT:
            lines.append(_("%(player)s: badly hurt, back for the next match.") % {"player": player})
        elif fate == Fate.HEALED:
            lines.append(
                _("%(player)s: the apothecary heals the serious injury (%(roll)s, R26).")
                % {"player": player, "roll": uses[(player.pk, ApothecaryUse.Action.HEAL_SERIOUS)].roll}
            )
        elif fate == Fate.ROLL_SERIOUS_INJURY:
            lines.append(_serious_injury(match, player, injured, dead, r, by, entered))
        elif fate == Fate.SAVED:
            lines.append(
                _("%(player)s: the apothecary saves him (%(roll)s, R26).")
                % {"player": player, "roll": uses[(player.pk, ApothecaryUse.Action.HEAL_DEAD)].roll}
            )
        elif fate == Fate.REVIVED:
            lines.append(Joined("", [f"{player}: ", _revive(player, match, r, by, entered)]))
            player.save()
        elif fate == Fate.BURIED:
            lines.append(_("%(player)s: the apothecary failed; no one else may treat him.") % {"player": player})
            _bury(player.pk)
        else:
            dead.append(player)

    healer = team.race.healer
    targets = [int(t) for t in healer_targets]
    dead_ids = {p.pk for p in dead}
    if len(set(targets)) != len(targets):
        raise PostMatchError([_("Each attempt must be on another player (R25).")])
    if not set(targets) <= dead_ids:
        raise PostMatchError([_("Only a dead player not treated by the apothecary can be attempted.")])
    limit, fee = healer_attempts(healer, s)
    if len(targets) > limit:
        raise PostMatchError([_("At most %(n)s attempts.") % {"n": limit}])
    by_id = {p.pk: p for p in dead}
    for attempt, pk in enumerate(targets, start=1):
        player = by_id[pk]
        if not healer_may_treat(healer, regeneration=has_regeneration[pk]):
            raise PostMatchError([_("The Apprentice cannot treat a player with Regeneration (R9).")])
        post_entry(
            team,
            -fee,
            kind=TreasuryEntry.Kind.FEE,
            description=_("%(healer)s: %(player)s") % {"healer": team.race.get_healer_display(), "player": player},
            by=by,
            cause=match,
            idempotency_key=f"healer:{match.pk}:{team.pk}:{attempt}",
        )
        d = dice.roll(
            match,
            f"healer:{team.pk}:{attempt}",
            step="injuries",
            entered=entered.get(f"healer:{team.pk}:{attempt}"),
            by=by,
            player=player,
            team=team,
        )
        if healer == Race.Healer.BANDAGE_CREW:
            ok = r.bandage_crew_succeeds(attempt, d.values[0])
            target = f"{r.bandage_crew_target(attempt)}+"
        else:
            ok = r.apprentice_outcome(d.values[0]) == "revived"
            target = f"{s.apprentice_target}+"
        if ok:
            lines.append(
                Msg(
                    N_("%(healer)s, attempt %(n)s on %(player)s: D6 %(roll)s (%(target)s) → %(result)s"),
                    healer=team.race.get_healer_display(),
                    n=attempt,
                    player=player,
                    roll=d.shown,
                    target=target,
                    result=_revive(player, match, r, by, entered),
                )
            )
            player.save()
            dead_ids.discard(pk)
        else:
            lines.append(
                _("%(healer)s, attempt %(n)s on %(player)s: D6 %(roll)s (%(target)s) fails.")
                % {
                    "healer": team.race.get_healer_display(),
                    "n": attempt,
                    "player": player,
                    "roll": d.shown,
                    "target": target,
                }
            )
    for pk in dead_ids:
        _bury(pk)
        lines.append(_("%(player)s is dead. ✝") % {"player": by_id[pk]})
    lines += raise_the_dead(match, team, r, raise_zombie)
    return finish_step(postmatch, PostMatch.Step.INJURIES, "injuries", lines or [_("No injuries.")])


def _serious_injury(
    match: Match,
    player: Player,
    injured: InjuredPlayer,
    dead: list[Player],
    r: rules.Ruleset,
    by: Any,
    entered: Mapping[str, Sequence[int]],
) -> str:
    """Roll on the serious injury table and apply the result: dead (for the healer, or buried after the
    apothecary, R25), or out for matches, a niggling injury, a stat lost."""
    d = _player_die(match, "serious_injury", player, d66=True, by=by, entered=entered)
    si = r.serious_injury(d.total)
    fate = injury_fate(r, replace(injured, serious_injury_dead=si.dead))
    if fate == Fate.BURIED:
        _bury(player.pk)
    if fate in (Fate.BURIED, Fate.DEAD):
        if fate == Fate.DEAD:
            dead.append(player)
        return _("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(name)s.") % {
            "player": player,
            "d": d.shown,
            "name": si.name,
        }
    parts: list[str] = [si.name]
    player.miss_matches = max(player.miss_matches, si.miss_matches)
    if si.miss_matches:
        parts.append(Msg(N_("misses %(n)s"), n=si.miss_matches))
    if si.niggling:
        player.niggling += 1
        parts.append("NI")
    if si.stat:  # R41: a stat at -2 lowers nothing; the matches missed and the niggling injury stand
        parts.append(_lose_stat(player, si.stat, r, si.name, match))
    player.save()
    return Msg(
        N_("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(result)s."),
        player=player,
        d=d.shown,
        result=Joined(", ", parts),
    )


def _bury(player_id: int) -> None:
    """Dead, saved with a history record (a bare UPDATE would leave none)."""
    player = Player.objects.get(pk=player_id)
    player.status, player.left_at = Player.Status.DEAD, timezone.now()
    player.save(update_fields=["status", "left_at"])
