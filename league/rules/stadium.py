"""The stadium: capacity, expansion, roof and facilities (R16, R19)."""

from __future__ import annotations

from league.rules.explained import Explained, Section, _non_negative
from league.rules.messages import N_, Msg
from league.rules.tables import Facility


class StadiumRules(Section):
    """Mixed into Ruleset: what a stadium holds and what building costs."""

    def start_capacity(self, *, first_division: bool) -> int:
        s = self.settings
        return s.start_capacity_first_division if first_division else s.start_capacity

    def explain_expansion_cost(self, capacity: int, steps: int = 1, *, roof: bool = False) -> Explained:
        """Each +10,000 step costs half the current capacity rounded down to whole thousands (+20,000 with a roof)."""
        s = self.settings
        _non_negative("capacity", capacity)
        if steps < 0:
            raise ValueError("steps cannot be negative")
        total, lines = 0, []
        for _ in range(steps):
            cost = capacity // 2 // s.expansion_rounding * s.expansion_rounding
            if roof:
                cost += s.roof_price_per_new_seat * s.expansion_step
            lines.append(
                Msg(
                    N_("%(before)s → %(after)s: %(cost)s"),
                    before=capacity,
                    after=capacity + s.expansion_step,
                    cost=cost,
                )
            )
            total += cost
            capacity += s.expansion_step
        return Explained(total, (), tuple(lines))

    def expansion_cost(self, capacity: int, steps: int = 1, *, roof: bool = False) -> int:
        return self.explain_expansion_cost(capacity, steps, roof=roof).value

    def roof_cost(self, capacity: int) -> int:
        return capacity * self.settings.roof_price_per_seat

    def facility(self, key: str) -> Facility:
        for f in self.tables.facilities:
            if f.key == key:
                return f
        raise ValueError(f"{key!r} is not a stadium facility")

    def facility_price(self, key: str, *, capacity: int) -> int:
        f = self.facility(key)
        return f.price + f.price_per_seat * capacity
