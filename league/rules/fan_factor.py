"""The fan factor after a match (R30)."""

from __future__ import annotations

from typing import Any

from league.rules.explained import Cell, Explained, MatchResult, Section, _die, _non_negative, signed
from league.rules.messages import N_, Msg


class FanFactorRules(Section):
    """Mixed into Ruleset: the post-match fan-factor roll."""

    def explain_fan_factor_change(
        self,
        roll: int,
        *,
        fan_factor: int,
        result: MatchResult,
        touchdowns: int,
        casualties: int,
        crowd_casualty: bool = False,
        tv_station: bool = False,
    ) -> Explained:
        c = self.settings.fan_factor_change
        _die("roll", roll, 6)
        _non_negative("fan_factor", fan_factor)
        if result not in ("win", "draw", "loss"):
            raise ValueError(f"result must be win, draw or loss, not {result!r}")
        mods: list[tuple[Msg, int]] = []
        result_mod = {"win": c.win, "draw": c.draw, "loss": c.loss}[result]
        named = {"win": N_("win %(modifier)s"), "draw": N_("draw %(modifier)s"), "loss": N_("loss %(modifier)s")}
        if result_mod:
            mods.append((Msg(named[result], modifier=signed(result_mod)), result_mod))
        if touchdowns >= c.touchdowns_needed:
            bonus = c.touchdowns_bonus
            text = N_("%(needed)s+ touchdowns %(modifier)s")
            mods.append((Msg(text, needed=c.touchdowns_needed, modifier=signed(bonus)), bonus))
        if casualties >= c.casualties_needed:
            bonus = c.casualties_bonus
            text = N_("%(needed)s+ casualties caused %(modifier)s")
            mods.append((Msg(text, needed=c.casualties_needed, modifier=signed(bonus)), bonus))
        if crowd_casualty:
            bonus = c.crowd_casualty_bonus
            mods.append((Msg(N_("your crowd caused a casualty %(modifier)s"), modifier=signed(bonus)), bonus))
        tens = fan_factor // c.per_fan_factor
        if tens:
            bonus = tens * c.per_fan_factor_modifier
            text = N_("fan factor %(fan_factor)s: %(tens)s × %(per)s %(modifier)s")
            per = signed(c.per_fan_factor_modifier)
            mods.append((Msg(text, fan_factor=fan_factor, tens=tens, per=per, modifier=signed(bonus)), bonus))
        if tv_station:
            bonus = self.settings.tv_station_fan_factor_bonus
            mods.append((Msg(N_("TV station %(modifier)s"), modifier=signed(bonus)), bonus))
        total = roll + sum(v for _, v in mods)
        if total < c.down_below:
            change, row = -1, f"< {c.down_below}"
        elif total > c.up_above:
            change, row = 1, f"> {c.up_above}"
        else:
            change, row = 0, f"{c.down_below}–{c.up_above}"
        change = max(change, -fan_factor)  # FF never below 0
        steps = [Msg(N_("D6 %(roll)s"), roll=roll), *(m for m, _ in mods), Msg(N_("total %(total)s"), total=total)]
        return Explained(change, (Cell("fan_factor_change", row, None, signed(change)),), tuple(steps))

    def fan_factor_change(self, roll: int, **kwargs: Any) -> int:
        return self.explain_fan_factor_change(roll, **kwargs).value
