"""The post-match injury decision tree (R25, R26, R9): what becomes of each injured player, and who may
be raised. Pure: the services roll the dice, persist the outcome and pay the fees.

A player's fate is decided in R25's order: Regeneration first, then a badly hurt player is back, then
the apothecary's treatment (R26) before the serious injury table, and only the dead the apothecary never
touched are left to the after-match healer (Bandage Crew, Apprentice or Familiar). A die not rolled yet
is a fate of its own (`ROLL_REGENERATION`, `ROLL_SERIOUS_INJURY`), so the same function tells the forms
what to ask for and the service what happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from league.rules.messages import N_, Msg
from league.rules.tables import STATS

# The injuries of a report line, as PlayerMatch.Injury stores them.
BADLY_HURT = "badly_hurt"
SERIOUS_INJURY = "serious_injury"
DEAD = "dead"

# The after-match healers (Race.Healer) and the names the rulebook gives skills and positions.
BANDAGE_CREW = "bandage_crew"
APPRENTICE = "apprentice"
FAMILIAR = "familiar"
REGENERATION = "Regeneration"
STUNTY = "Stunty"
BIG_GUY = "Big Guy"
NURGLE = "Nurgle"
BEAST_OF_NURGLE = "Beast of Nurgle"
NECROMANCER = "necromancer"
ZOMBIES = "Zombie"
ROTTERS = "Rotter"


class Fate(StrEnum):
    REGENERATES = "regenerates"  # the Regeneration die succeeds: nothing else happens (R25)
    BADLY_HURT = "badly_hurt"  # back for the next match
    HEALED = "healed"  # the apothecary heals the serious injury (R26)
    SERIOUS_INJURY = "serious_injury"  # the serious injury table's result stands
    SAVED = "saved"  # the apothecary heals the dead player (R26)
    REVIVED = "revived"  # the apothecary revives him: he rolls on the revival table (R26)
    BURIED = "buried"  # dead after the apothecary treated him: no one else may (R25)
    DEAD = "dead"  # dead, and the after-match healer may attempt him (R25)
    ROLL_REGENERATION = "roll_regeneration"  # waits for the Regeneration die
    ROLL_SERIOUS_INJURY = "roll_serious_injury"  # waits for the serious injury die


class InjuryRules(Protocol):
    """The parts of a ruleset the tree reads (league.rules.Ruleset has them)."""

    def regenerates(self, roll: int) -> bool: ...

    def apothecary_succeeds(self, roll: int) -> bool: ...


@dataclass(frozen=True)
class InjuredPlayer:
    """What the tree is decided from. An apothecary treatment is its 2+ roll (1 if it was never
    rolled: it failed); None where the apothecary was not used that way."""

    injury: str
    regeneration: bool = False
    regeneration_roll: int | None = None
    heal: int | None = None  # heal_serious_injury on a serious injury, heal_dead on a dead player
    revive: int | None = None  # revive_dead
    serious_injury_dead: bool | None = None  # the serious injury table's verdict, once rolled


def injury_fate(r: InjuryRules, player: InjuredPlayer) -> Fate:
    """The fate of one injured player after the match, as far as the dice rolled so far decide it."""
    if player.regeneration:
        if player.regeneration_roll is None:
            return Fate.ROLL_REGENERATION
        if r.regenerates(player.regeneration_roll):
            return Fate.REGENERATES
    return fate_unless_regenerated(r, player)


def fate_unless_regenerated(r: InjuryRules, player: InjuredPlayer) -> Fate:
    """The fate of a player who does not regenerate (or has no Regeneration)."""
    if player.injury == BADLY_HURT:
        return Fate.BADLY_HURT
    if player.injury == SERIOUS_INJURY:
        if player.heal is not None and r.apothecary_succeeds(player.heal):
            return Fate.HEALED
        if player.serious_injury_dead is None:
            return Fate.ROLL_SERIOUS_INJURY
        if not player.serious_injury_dead:
            return Fate.SERIOUS_INJURY
        return Fate.BURIED if player.heal is not None else Fate.DEAD  # no healer after the apothecary
    if player.heal is not None and r.apothecary_succeeds(player.heal):
        return Fate.SAVED
    if player.revive is not None and r.apothecary_succeeds(player.revive):
        return Fate.REVIVED
    if player.heal is not None or player.revive is not None:
        return Fate.BURIED
    return Fate.DEAD


def dice_needed(r: InjuryRules, player: InjuredPlayer) -> tuple[Fate, ...]:
    """The dice still to roll for him, in R25's order: the Regeneration die, then (should he not
    regenerate) the serious injury die. Both decide who is dead before the healer is ordered."""
    fate = injury_fate(r, player)
    if fate == Fate.ROLL_REGENERATION:
        after = fate_unless_regenerated(r, player)
        return (fate, after) if after == Fate.ROLL_SERIOUS_INJURY else (fate,)
    return (fate,) if fate == Fate.ROLL_SERIOUS_INJURY else ()


def healer_may_treat(healer: str, *, regeneration: bool) -> bool:
    """The Apprentice and the Familiar cannot treat a player with Regeneration (R9)."""
    return healer == BANDAGE_CREW or not regeneration


def healer_attempts(healer: str, settings: object) -> tuple[int, int]:
    """How many dead the team's healer may attempt, and the fee for each (R25)."""
    if healer == BANDAGE_CREW:
        return len(settings.bandage_crew_targets), settings.bandage_crew_fee
    if healer == APPRENTICE:
        return settings.apprentice_players, settings.apprentice_fee
    return settings.familiar_players, settings.apprentice_fee


def can_be_raised(skills: set[str], *, big_guy: bool) -> bool:
    """A dead opponent the Necromancer may raise as a Zombie: not Stunty, not a Big Guy (R25)."""
    return STUNTY not in skills and BIG_GUY not in skills and not big_guy


def raises_zombies(head_coach: str) -> bool:
    """A team with a Necromancer raises one dead opponent a match (R25)."""
    return head_coach == NECROMANCER


def rots(race: str) -> bool:
    """A Nurgle team's Beast of Nurgle gives Nurgle's Rot to those it kills (R25)."""
    return race == NURGLE


def becomes_rotter(race: str, killer_position: str | None) -> bool:
    """A dead opponent comes back as a Rotter when a Beast of Nurgle killed him (R25)."""
    return rots(race) and killer_position == BEAST_OF_NURGLE


# --- a characteristic lost to an injury (R41; the book's "Karakteristikker", R29) -----------------

STAT_FLOOR = 1  # "får redusert en stat til 0": no characteristic is lowered to 0


@dataclass(frozen=True)
class StatLoss:
    """What an injury's -1 to a characteristic does. `lowered`: the characteristic that loses 1, None when
    none does; `choose_from`: when the book's 0 rule sends the loss to another characteristic, the ones a
    die picks from (the service rolls, then `moved_to`); `shown`: the explanation's part."""

    stat: str
    lowered: str | None
    shown: Msg
    choose_from: tuple[str, ...] = ()

    def moved_to(self, other: str) -> StatLoss:
        """The book's 0 rule, once the die has picked `other` among `choose_from`."""
        if other not in self.choose_from:
            raise ValueError(f"{other!r} is not one of {self.choose_from}")
        shown = Msg(N_("%(stat)s cannot go to 0: -1 %(other)s instead (R29)"), stat=self.stat, other=other)
        return StatLoss(self.stat, other, shown)


def _may_lose(stat: str, base: Mapping[str, int], current: Mapping[str, int], limit: int) -> bool:
    return current[stat] - 1 - base[stat] >= -limit and current[stat] - 1 >= STAT_FLOOR


def stat_loss(stat: str, *, base: Mapping[str, int], current: Mapping[str, int], limit: int) -> StatLoss:
    """-1 to `stat` from an injury (the serious injury or the revival table). `base`: the position's
    characteristics, `current`: the player's, both keyed by STATS; `limit`: the setting stat_limit.

    R41: a characteristic already `limit` below the position's value is not lowered, and the loss never
    moves to another characteristic (the injury's other effects are the caller's and still apply). The
    book's rule that a characteristic lowered to 0 hits another at random (R29) is a different case: the
    others it may hit are those that can lose 1 themselves."""
    if current[stat] - 1 - base[stat] < -limit:
        shown = Msg(
            N_("%(stat)s is already %(limit)s below the position's value: not lowered (R41)"), stat=stat, limit=limit
        )
        return StatLoss(stat, None, shown)
    if current[stat] - 1 >= STAT_FLOOR:
        return StatLoss(stat, stat, Msg(N_("-1 %(stat)s"), stat=stat))
    others = tuple(s for s in STATS if s != stat and _may_lose(s, base, current, limit))
    if not others:
        return StatLoss(stat, None, Msg(N_("no stat can be lowered further")))
    shown = Msg(N_("%(stat)s cannot go to 0: -1 to another at random (R29)"), stat=stat)
    return StatLoss(stat, None, shown, choose_from=others)
