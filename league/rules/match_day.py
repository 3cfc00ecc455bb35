"""Before the kick-off: the handicap tables (R22, R23), the weather (R39) and the kick-off table."""

from __future__ import annotations

from league.rules.explained import Cell, Explained, Section, _d66, _die
from league.rules.messages import N_, Msg
from league.rules.tables import HandicapResult, Named


class MatchDayRules(Section):
    """Mixed into Ruleset: handicap, weather, kick-off."""

    def handicap_roll_counts(self) -> range:
        return range(max(len(c.bands) for c in self.tables.handicap_count))

    def explain_handicap_rolls(self, team_rating_a: int, team_rating_b: int) -> Explained:
        lower, diff = min(team_rating_a, team_rating_b), abs(team_rating_a - team_rating_b)
        if diff == 0:
            return Explained(0, (), (Msg(N_("equal team ratings: no handicap")),))
        column = next(c for c in self.tables.handicap_count if c.tr.contains(lower))
        rolls = next(i for i, band in enumerate(column.bands) if band.contains(diff))
        return Explained(
            rolls,
            (
                Cell(
                    "handicap_count",
                    column.bands[rolls].label(),
                    Msg(N_("TR %(range)s"), range=column.tr.label()),
                    str(rolls),
                ),
            ),
            (Msg(N_("lower TR %(rating)s, difference %(difference)s"), rating=lower, difference=diff),),
        )

    def handicap_rolls(self, team_rating_a: int, team_rating_b: int) -> int:
        return self.explain_handicap_rolls(team_rating_a, team_rating_b).value

    def handicap_result(self, d66: int) -> HandicapResult:
        _d66(d66)
        return self.tables.handicap_results.lookup(d66).value

    def weather(self, d1: int, d2: int, *, roof: bool = False) -> Named:
        """The weather table; a roof cancels pouring rain and very sunny at the owner's home (R39)."""
        _die("d1", d1, 6)
        _die("d2", d2, 6)
        w = self.tables.weather.lookup(d1 + d2).value
        if roof and w.key in self.tables.roof_cancels_weather:
            return next(b.value for b in self.tables.weather.bands if b.value.key == "nice")
        return w

    def kickoff(self, d1: int, d2: int) -> Named:
        _die("d1", d1, 6)
        _die("d2", d2, 6)
        return self.tables.kickoff.lookup(d1 + d2).value
