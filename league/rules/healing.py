"""Injuries and healing: the injury tables, the apothecary, the Bandage Crew, regeneration and niggling
checks (R9, R25, R26, R36)."""

from __future__ import annotations

from collections.abc import Mapping

from league.rules.explained import Section, _d66, _die
from league.rules.injuries import StatLoss, stat_loss
from league.rules.tables import Named, Revival, SeriousInjury


class HealingRules(Section):
    """Mixed into Ruleset: injury tables and the dice that heal."""

    def injury(self, d1: int, d2: int) -> Named:
        _die("d1", d1, 6)
        _die("d2", d2, 6)
        return self.tables.injury.lookup(d1 + d2).value

    def serious_injury(self, d66: int) -> SeriousInjury:
        _d66(d66)
        return self.tables.serious_injury.lookup(d66).value

    def revival(self, d66: int) -> Revival:
        _d66(d66)
        return self.tables.revival.lookup(d66).value

    def stat_loss(self, stat: str, base: Mapping[str, int], current: Mapping[str, int]) -> StatLoss:
        """An injury's -1 to `stat`, within this version's stat_limit (R41, R29)."""
        return stat_loss(stat, base=base, current=current, limit=self.settings.stat_limit)

    def apothecary_cost(self, action: str) -> int:
        try:
            return self.tables.apothecary_costs[action]
        except KeyError:
            raise ValueError(f"{action!r} is not an apothecary action") from None

    def apothecary_succeeds(self, roll: int) -> bool:
        _die("roll", roll, 6)
        return roll >= self.settings.apothecary_target

    def bandage_crew_target(self, attempt: int) -> int:
        """The n-th attempt needs 1+, 2+, 3+ (R25)."""
        targets = self.settings.bandage_crew_targets
        if not 1 <= attempt <= len(targets):
            raise ValueError(f"the Bandage Crew makes at most {len(targets)} attempts")
        return targets[attempt - 1]

    def bandage_crew_succeeds(self, attempt: int, roll: int) -> bool:
        _die("roll", roll, 6)
        return roll >= self.bandage_crew_target(attempt)

    def apprentice_outcome(self, roll: int) -> str:
        """The Apprentice or Familiar: 2+ revives, 1 kills the player for good (R9)."""
        _die("roll", roll, 6)
        return "revived" if roll >= self.settings.apprentice_target else "killed"

    def regenerates(self, roll: int) -> bool:
        _die("roll", roll, 6)
        return roll >= self.settings.regeneration_target

    def niggling_check_fails(self, roll: int) -> bool:
        _die("roll", roll, 6)
        return roll <= self.settings.niggling_fails_on
