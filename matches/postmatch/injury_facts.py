"""What the injuries step is decided from (R25, R26, R9): the injured lines, the apothecary's treatments
and the Regeneration and serious injury dice, rolled ahead so the coach knows who is dead before the
Bandage Crew is ordered; and whom the healer may attempt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league import rules
from league.lib.numbers import money
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
from matches import dice
from matches.models import ApothecaryUse, DiceRoll, Match, PlayerMatch, PostMatch
from matches.postmatch.base import lock_step
from teams.models import Player, Race, Team


def _skills(player: Player) -> set[str]:
    return {s.name for s in player.position.skills.all()} | {g.skill.name for g in player.gained_skills.all()}


def injured_lines(match: Match, team: Team) -> list[PlayerMatch]:
    return list(
        PlayerMatch.objects.filter(match=match, team=team)
        .exclude(injury="")
        .select_related("player__position")
        .prefetch_related("player__position__skills", "player__gained_skills__skill")
    )


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


def injured_player(line: PlayerMatch, player: Player, uses: Mapping[tuple[int, str], ApothecaryUse]) -> InjuredPlayer:
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
        (line, _with_stored_dice(injured_player(line, line.player, facts.uses), line.player, facts.stored, r))
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


def healer_price(team: Team, r: rules.Ruleset) -> str:
    """The team's healer, its fee for each attempt, how many dead it may attempt and what an attempt needs,
    from the ruleset's settings (R25): said on the injury step before the coach orders it. Only
    the team's own healer (R9): a Dwarf coach is not told of the Apprentice or the Familiar."""
    s = r.settings
    limit, fee = healer_attempts(team.race.healer, s)
    words = {"healer": team.race.get_healer_display(), "fee": money(fee), "n": limit}
    if team.race.healer == Race.Healer.BANDAGE_CREW:
        words["targets"] = ", ".join(f"{t}+" for t in s.bandage_crew_targets)
        said = ngettext(
            "%(healer)s: %(fee)s per attempt, at most %(n)s dead player, the attempt needs %(targets)s (R25).",
            "%(healer)s: %(fee)s per attempt, at most %(n)s dead players, the attempts need %(targets)s (R25).",
            limit,
        )
    else:
        words["target"] = s.apprentice_target
        said = ngettext(
            "%(healer)s: %(fee)s per attempt, at most %(n)s dead player; %(target)s+ revives, a 1 is dead for good; "
            "never on a player with Regeneration (R9, R25).",
            "%(healer)s: %(fee)s per attempt, at most %(n)s dead players; %(target)s+ revives, a 1 is dead for good; "
            "never on a player with Regeneration (R9, R25).",
            limit,
        )
    return said % words


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
