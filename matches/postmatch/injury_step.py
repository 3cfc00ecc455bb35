"""Step 2, injuries (R25, R26, R37, R9): Regeneration, the serious injury table, the apothecary's
treatments and the after-match healer; the decisions come from league.rules.injuries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import rules
from matches import dice
from matches.models import (
    ApothecaryUse,
    DiceRoll,
    Match,
    PlayerMatch,
    PostMatch,
    SquadEntry,
)
from matches.postmatch.base import STATS, PostMatchError, Step, finish_step, lock_step, prematch_of
from matches.postmatch.raising import raise_the_dead
from teams.ledger import post_entry
from teams.models import Player, StatChange, Team, TreasuryEntry

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


def _lose_stat(player: Player, stat: str, r: rules.Ruleset, note: str, match: Match) -> str:
    """-1 to a stat; never past -2 from the position's value; a stat at 0 hits another at random (R29)."""
    base = getattr(player.position, stat.lower())
    current = base + getattr(player, f"{stat.lower()}_change")
    if current - 1 <= 0 or not r.stat_change_allowed(base, current, -1):
        others = [
            s
            for s in STATS
            if s != stat
            and r.stat_change_allowed(getattr(player.position, s.lower()), getattr(player, s.lower()), -1)
            and getattr(player, s.lower()) > 1
        ]
        if not others:
            return _("no stat can be lowered further")
        stat = others[dice.randbelow(len(others))]
    field = f"{stat.lower()}_change"
    setattr(player, field, getattr(player, field) - 1)
    StatChange.objects.create(
        player=player, stat=stat, change=-1, reason=StatChange.Reason.INJURY, note=note, match_id=match.pk
    )
    return f"-1 {stat}"


def _revive(player: Player, match: Match, r: rules.Ruleset, by: Any, entered: Mapping[str, Sequence[int]]) -> str:
    """A revived player rolls on the revival table, and the dice for the matches he misses."""
    d = dice.roll(
        match,
        f"revival:{player.pk}",
        step="injuries",
        d66=True,
        entered=entered.get(f"revival:{player.pk}"),
        by=by,
        player=player,
    )
    result = r.revival(d.total)
    miss = result.plus
    if result.dice:
        m = dice.roll(
            match,
            f"revival_miss:{player.pk}",
            step="injuries",
            sides=result.die,
            count=result.dice,
            entered=entered.get(f"revival_miss:{player.pk}"),
            by=by,
            player=player,
        )
        miss = result.miss_matches(m.values)
    player.miss_matches = max(player.miss_matches, miss)
    parts = [
        _("revived: Gjenoppliving-tabell D66 %(d)s %(name)s, out %(miss)s matches")
        % {"d": d.shown, "name": result.name, "miss": miss}
    ]
    if result.niggling:
        player.niggling += 1
        parts.append("NI")
    if result.stat:
        parts.append(_lose_stat(player, result.stat, r, result.name, match))
    return ", ".join(parts)


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


def _regenerated(player: Player, stored: Mapping[str, Any], r: rules.Ruleset) -> bool | None:
    """True or False once the Regeneration die is rolled, None if it is not yet (or he has no Regeneration)."""
    if "Regeneration" not in _skills(player):
        return None
    d = stored.get(f"regeneration:{player.pk}")
    return None if d is None else r.regenerates(d.values[0])


def pending_injury_dice(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[tuple[str, Player]]:
    """The Regeneration and serious injury dice not rolled yet, in R25's order: they decide who is dead
    before the Bandage Crew is ordered."""
    r = match.season.ruleset.rules
    facts = facts or injury_facts(match, team)
    pending = []
    for line in facts.lines:
        player = line.player
        regenerated = _regenerated(player, facts.stored, r)
        if "Regeneration" in _skills(player) and regenerated is None:
            pending.append((f"regeneration:{player.pk}", player))
        if regenerated:
            continue
        heal = facts.uses.get((player.pk, "heal_serious_injury"))
        healed = heal is not None and r.apothecary_succeeds(heal.roll or 1)
        serious = line.injury == PlayerMatch.Injury.SERIOUS and not healed
        if serious and f"serious_injury:{player.pk}" not in facts.stored:
            pending.append((f"serious_injury:{player.pk}", player))
    return pending


@transaction.atomic
def roll_injury_dice(
    match: Match, team: Team, *, entered: Mapping[str, Sequence[int]] | None = None, by: Any
) -> list[str]:
    """Roll (once) the Regeneration and serious injury dice, so the coach knows who is dead (R25)."""
    match, team, _postmatch = lock_step(match, team, Step.INJURIES)
    r = match.season.ruleset.rules
    entered = entered or {}
    rolled = []
    for key, player in pending_injury_dice(match, team):
        stored = {d.purpose: d for d in match.dice.filter(purpose=f"regeneration:{player.pk}")}
        if key.startswith("serious_injury") and _regenerated(player, stored, r):
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
    s = r.settings
    return {"bandage_crew": len(s.bandage_crew_targets), "apprentice": s.apprentice_players}.get(
        team.race.healer, s.familiar_players
    )


def healer_candidates(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[Player]:
    """The dead the Bandage Crew (Apprentice, Familiar) may attempt (R25): killed in the match or on the
    serious injury table (66), and never one the apothecary treated or tried. Decided from the stored
    dice: a player whose fate waits on an unrolled die is not offered."""
    r = match.season.ruleset.rules
    facts = facts or injury_facts(match, team)
    candidates = []
    for line in facts.lines:
        player = line.player
        regenerated = _regenerated(player, facts.stored, r)
        if regenerated or (regenerated is None and "Regeneration" in _skills(player)):
            continue
        if line.injury == PlayerMatch.Injury.SERIOUS:
            d = facts.stored.get(f"serious_injury:{player.pk}")
            treated = (player.pk, "heal_serious_injury") in facts.uses
            if treated or d is None or not r.serious_injury(d.total).dead:
                continue
        else:
            apothecary = {(player.pk, "heal_dead"), (player.pk, "revive_dead")} & facts.uses.keys()
            if line.injury != PlayerMatch.Injury.DEAD or apothecary:
                continue
        if team.race.healer != "bandage_crew" and "Regeneration" in _skills(player):
            continue  # R9: the Apprentice cannot treat him
        candidates.append(player)
    return candidates


def revived_by_apothecary(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[Player]:
    """The dead the apothecary revives (R26): they roll on the revival table."""
    r = match.season.ruleset.rules
    facts = facts or injury_facts(match, team)
    revived = []
    for line in facts.lines:
        if line.injury != PlayerMatch.Injury.DEAD or _regenerated(line.player, facts.stored, r):
            continue
        heal = facts.uses.get((line.player_id, "heal_dead"))
        revive = facts.uses.get((line.player_id, "revive_dead"))
        if heal and r.apothecary_succeeds(heal.roll or 1):
            continue
        if revive and r.apothecary_succeeds(revive.roll or 1):
            revived.append(line.player)
    return revived


@transaction.atomic
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

    match, team, postmatch = lock_step(match, team, Step.INJURIES)
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
    for line in injured_lines(match, team):
        player = Player.objects.select_related("position").get(pk=line.player_id)
        if "Regeneration" in _skills(player):
            d = dice.roll(
                match,
                f"regeneration:{player.pk}",
                step="injuries",
                entered=entered.get(f"regeneration:{player.pk}"),
                by=by,
                player=player,
            )
            if r.regenerates(d.values[0]):
                lines.append(_("%(player)s regenerates: D6 %(roll)s (3+, R25).") % {"player": player, "roll": d.shown})
                continue
            lines.append(_("%(player)s does not regenerate: D6 %(roll)s.") % {"player": player, "roll": d.shown})
        if line.injury == PlayerMatch.Injury.BADLY_HURT:
            lines.append(_("%(player)s: badly hurt, back for the next match.") % {"player": player})
            continue
        if line.injury == PlayerMatch.Injury.SERIOUS:
            heal = uses.get((player.pk, "heal_serious_injury"))
            if heal and r.apothecary_succeeds(heal.roll or 1):
                lines.append(
                    _("%(player)s: the apothecary heals the serious injury (%(roll)s, R26).")
                    % {"player": player, "roll": heal.roll}
                )
                continue
            d = dice.roll(
                match,
                f"serious_injury:{player.pk}",
                step="injuries",
                d66=True,
                entered=entered.get(f"serious_injury:{player.pk}"),
                by=by,
                player=player,
            )
            si = r.serious_injury(d.total)
            parts = [f"{si.name}"]
            if si.dead:
                if heal:  # treated by the apothecary: no Bandage Crew after him (R25)
                    _bury(player.pk)
                else:
                    dead.append(player)
                lines.append(
                    _("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(name)s.")
                    % {"player": player, "d": d.shown, "name": si.name}
                )
                continue
            player.miss_matches = max(player.miss_matches, si.miss_matches)
            if si.miss_matches:
                parts.append(_("misses %(n)s") % {"n": si.miss_matches})
            if si.niggling:
                player.niggling += 1
                parts.append("NI")
            if si.stat:
                parts.append(_lose_stat(player, si.stat, r, si.name, match))
            player.save()
            lines.append(
                _("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(result)s.")
                % {"player": player, "d": d.shown, "result": ", ".join(parts)}
            )
            continue
        # dead (R25, R26): the apothecary's heal or revival comes first
        heal = uses.get((player.pk, "heal_dead"))
        if heal and r.apothecary_succeeds(heal.roll or 1):
            lines.append(
                _("%(player)s: the apothecary saves him (%(roll)s, R26).") % {"player": player, "roll": heal.roll}
            )
            continue
        revive = uses.get((player.pk, "revive_dead"))
        if revive and r.apothecary_succeeds(revive.roll or 1):
            lines.append(f"{player}: " + _revive(player, match, r, by, entered))
            player.save()
            continue
        if heal or revive:
            lines.append(_("%(player)s: the apothecary failed; no one else may treat him.") % {"player": player})
            _bury(player.pk)
            continue
        dead.append(player)

    healer = team.race.healer
    targets = [int(t) for t in healer_targets]
    dead_ids = {p.pk for p in dead}
    if len(set(targets)) != len(targets):
        raise PostMatchError([_("Each attempt must be on another player (R25).")])
    if not set(targets) <= dead_ids:
        raise PostMatchError([_("Only a dead player not treated by the apothecary can be attempted.")])
    if healer == "bandage_crew":
        limit, fee = len(s.bandage_crew_targets), s.bandage_crew_fee
    else:
        limit = s.apprentice_players if healer == "apprentice" else s.familiar_players
        fee = s.apprentice_fee
    if len(targets) > limit:
        raise PostMatchError([_("At most %(n)s attempts.") % {"n": limit}])
    by_id = {p.pk: p for p in dead}
    for attempt, pk in enumerate(targets, start=1):
        player = by_id[pk]
        if healer != "bandage_crew" and "Regeneration" in _skills(player):
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
        if healer == "bandage_crew":
            ok = r.bandage_crew_succeeds(attempt, d.values[0])
            target = f"{r.bandage_crew_target(attempt)}+"
        else:
            ok = r.apprentice_outcome(d.values[0]) == "revived"
            target = f"{s.apprentice_target}+"
        if ok:
            lines.append(
                _("%(healer)s, attempt %(n)s on %(player)s: D6 %(roll)s (%(target)s) → %(result)s")
                % {
                    "healer": team.race.get_healer_display(),
                    "n": attempt,
                    "player": player,
                    "roll": d.shown,
                    "target": target,
                    "result": _revive(player, match, r, by, entered),
                }
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
    return finish_step(postmatch, Step.INJURIES, "injuries", lines or [_("No injuries.")])


def _bury(player_id: int) -> None:
    """Dead, saved with a history record (a bare UPDATE would leave none)."""
    player = Player.objects.get(pk=player_id)
    player.status, player.left_at = Player.Status.DEAD, timezone.now()
    player.save(update_fields=["status", "left_at"])
