"""Team rating and staff prices (R1-R3, R5-R8), and the team re-rolls a team takes onto the pitch (R14)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from league.rules.explained import Explained, Phase, Section, _non_negative
from league.rules.messages import N_, Msg


class TeamRatingRules(Section):
    """Mixed into Ruleset: what a team is worth and what its staff costs."""

    def cheerleaders_value(self, count: int) -> int:
        """The n-th cheerleader costs n × step; N are worth step × N(N+1)/2 (R6)."""
        _non_negative("count", count)
        return self.settings.cheerleader_step * count * (count + 1) // 2

    def cheerleader_price(self, already: int) -> int:
        return self.cheerleaders_value(already + 1) - self.cheerleaders_value(already)

    def reroll_price(self, base_price: int, phase: Phase) -> int:
        """Base at creation, ×2 in a season, ×1.5 between seasons (R7)."""
        try:
            percent = self.settings.reroll_percent[phase]
        except KeyError:
            raise ValueError(f"phase must be creation, season or offseason, not {phase!r}") from None
        return base_price * percent // 100

    def squad(self, players: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """The 16 (max_squad) most valuable players, ties on more SPP (R3)."""
        ordered = sorted(players, key=lambda p: (p[0], p[1]), reverse=True)
        return ordered[: self.settings.max_squad]

    def explain_team_rating(
        self,
        players: Iterable[tuple[int, int]],
        *,
        rerolls: int,
        reroll_price: int,
        fan_factor: int,
        assistant_coaches: int,
        cheerleaders: int,
        apothecary: bool,
    ) -> Explained:
        """TR = total value / divisor + skill points (R1, R2); the squad is at most 16 (R3)."""
        s = self.settings
        squad = self.squad(players)
        player_value = sum(v for v, _ in squad)
        parts = [
            (N_("players: %(value)s"), player_value),
            (N_("re-rolls: %(value)s"), rerolls * reroll_price),
            (N_("fan factor: %(value)s"), fan_factor * s.fan_factor_value),
            (N_("assistant coaches: %(value)s"), assistant_coaches * s.assistant_coach_price),
            (N_("cheerleaders: %(value)s"), self.cheerleaders_value(cheerleaders)),
            (N_("apothecary: %(value)s"), s.apothecary_value if apothecary else 0),
        ]
        total = sum(v for _, v in parts)
        skill = sum(self.skill_points(spp) for _, spp in squad)
        tr = total // s.tr_divisor + skill
        steps = [Msg(msgid, value=v) for msgid, v in parts]
        steps.append(
            Msg(
                N_("total %(total)s / %(divisor)s = %(result)s"),
                total=total,
                divisor=s.tr_divisor,
                result=total // s.tr_divisor,
            )
        )
        steps.append(Msg(N_("skill points: %(points)s"), points=skill))
        steps.append(Msg(N_("team rating: %(rating)s"), rating=tr))
        return Explained(tr, (), tuple(steps))

    def team_rating(self, players: Iterable[tuple[int, int]], **kwargs: Any) -> int:
        return self.explain_team_rating(players, **kwargs).value

    def match_rerolls(self, rerolls: int, *, home: bool) -> int:
        """The team re-rolls a team takes onto the pitch: the designated home team gets the extra ones,
        also at a neutral venue (R14)."""
        return rerolls + (self.settings.home_team_rerolls if home else 0)
