"""Every calculation of the Torshov rulebook, as methods of a ruleset version.

Each `explain_x` returns the value with the table cells and modifiers behind it, so a page can say
"Kampbonus: row 40,001–60,000, column 100–125: +2"; `x` returns the bare number. The board's
rulings are cited as Rn (../shared/RULINGS.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from league.rules import season
from league.rules.roster import RosterRules
from league.rules.tables import (
    D66_CODES,
    STATS,
    TABLE_NAMES,
    Facility,
    HandicapResult,
    Named,
    Revival,
    RulesetData,
    SeriousInjury,
    fmt_int,
    parse_ruleset_data,
)

Phase = Literal["creation", "season", "offseason"]
Ticket = Literal["ordinary", "cheap", "expensive"]
MatchResult = Literal["win", "draw", "loss"]


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@dataclass(frozen=True)
class Cell:
    """One cell of one table that a result came from."""

    table: str
    row: str
    column: str | None
    value: str

    def __str__(self) -> str:
        label = TABLE_NAMES.get(self.table, self.table)
        where = f"row {self.row}" + (f", column {self.column}" if self.column else "")
        return f"{label}: {where}: {self.value}"


@dataclass(frozen=True)
class Explained:
    """A result with where it came from: table cells and the modifiers, one by one."""

    value: Any
    cells: tuple[Cell, ...] = ()
    steps: tuple[str, ...] = ()

    def __int__(self) -> int:
        return int(self.value)

    def lines(self) -> list[str]:
        return [str(c) for c in self.cells] + list(self.steps)


@dataclass(frozen=True)
class DevelopmentOptions:
    """What a development roll allows (R29)."""

    result: str  # "skill" | "MA" | "AG" | "ST"
    is_double: bool
    normal_skill: bool = True  # a skill from the normal categories is always allowed
    stat: str | None = None  # the optional stat increase
    trait_normal: bool = False  # doubles: a trait from the normal categories
    skill_any_other: bool = False  # doubles: a skill from any other category


@dataclass(frozen=True)
class StandingRow:
    """A team's line in a division table, the input of `order_standings`."""

    team: Any
    points: int
    touchdowns_for: int
    touchdowns_against: int
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def touchdown_difference(self) -> int:
        return self.touchdowns_for - self.touchdowns_against


class Ruleset(RosterRules):
    """One version of the league's tables and settings. Pure: build it from data, ask it questions."""

    def __init__(self, data: RulesetData) -> None:
        self.data = data
        self.settings = data.settings
        self.tables = data.tables
        self.name = data.name

    @classmethod
    def from_data(cls, raw: Mapping[str, Any]) -> Ruleset:
        return cls(parse_ruleset_data(raw))

    def __repr__(self) -> str:
        return f"<Ruleset {self.name!r}>"

    # --- for display: the tables as rows of labels and cells ------------------------------------

    def ffm_table(self) -> list[tuple[int, tuple[str, ...]]]:
        grid = self.tables.fan_factor_modifier
        return [(label, tuple(signed(v) for v in row)) for label, row in zip(grid.rows, grid.cells, strict=True)]

    def winnings_table(self) -> list[tuple[str, tuple[str, ...]]]:
        grid = self.tables.winnings
        return [(r.label(), tuple(signed(v) for v in row)) for r, row in zip(grid.rows, grid.cells, strict=True)]

    def handicap_roll_counts(self) -> range:
        return range(max(len(c.bands) for c in self.tables.handicap_count))

    def settings_items(self) -> list[tuple[str, str]]:
        s = self.settings
        return [(name, _display(getattr(s, name))) for name in s.__dataclass_fields__]

    # --- players: SPP, skill points, development (R4, R28, R29) ---------------------------------

    def explain_skill_points(self, spp: int) -> Explained:
        _non_negative("spp", spp)
        band = self.tables.skill_points.lookup(spp)
        points, title = band.value
        return Explained(points, (Cell("skill_points", band.range.label(), None, f"{title}, {points}"),))

    def skill_points(self, spp: int) -> int:
        return self.explain_skill_points(spp).value

    def level_thresholds(self) -> tuple[int, ...]:
        return tuple(b.range.min for b in self.tables.skill_points.bands[1:])  # type: ignore[misc]

    def level_ups(self, spp_before: int, spp_after: int) -> int:
        """Development rolls earned: one per threshold crossed (R4)."""
        _non_negative("spp_before", spp_before)
        _non_negative("spp_after", spp_after)
        return sum(1 for t in self.level_thresholds() if spp_before < t <= spp_after)

    def spp_award(self, kind: str) -> int:
        return self.tables.spp_awards[kind]

    def spp(
        self,
        *,
        completions: int = 0,
        touchdowns: int = 0,
        interceptions: int = 0,
        casualties: int = 0,
        fouls: int = 0,
        mvps: int = 0,
    ) -> int:
        """SPP for a player's deeds (R28); crowd casualties from a block's push count as casualties."""
        a = self.tables.spp_awards
        return (
            completions * a["completion"]
            + touchdowns * a["touchdown"]
            + interceptions * a["interception"]
            + casualties * a["casualty"]
            + fouls * a["foul"]
            + mvps * a["mvp"]
        )

    def development(self, d1: int, d2: int) -> str:
        return self.explain_development(d1, d2).value

    def explain_development(self, d1: int, d2: int) -> Explained:
        _die("d1", d1, 6)
        _die("d2", d2, 6)
        band = self.tables.development.lookup(d1 + d2)
        double = " (double)" if d1 == d2 else ""
        return Explained(band.value, (Cell("development", band.range.label(), None, band.value + double),))

    def development_options(self, d1: int, d2: int) -> DevelopmentOptions:
        result = self.development(d1, d2)
        double = d1 == d2
        return DevelopmentOptions(
            result=result,
            is_double=double,
            stat=result if result in STATS else None,
            trait_normal=double,
            skill_any_other=double,
        )

    def stat_change_allowed(self, base: int, current: int, change: int) -> bool:
        """No stat more than ±stat_limit from the position's value (R29)."""
        return abs(current + change - base) <= self.settings.stat_limit

    def mutation(self, category: str, d4: int) -> str:
        _die("d4", d4, 4)
        try:
            return self.tables.mutations[category][d4 - 1]
        except KeyError:
            raise ValueError(f"{category!r} is not a mutation category") from None

    def mutation_categories(self) -> tuple[str, ...]:
        return tuple(self.tables.mutations)

    def tzeentch_mutation(self, d1: int, d2: int) -> str:
        """The Tzeentch 2D6 table; 'choice' on 12 means pick any of the others."""
        _die("d1", d1, 6)
        _die("d2", d2, 6)
        return self.tables.tzeentch_mutations.lookup(d1 + d2).value

    def may_always_mutate(self, position: str) -> bool:
        return position in self.tables.mutation_positions

    # --- team rating and staff (R1-R3, R5-R8) ---------------------------------------------------

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
            ("players", player_value),
            ("re-rolls", rerolls * reroll_price),
            ("fan factor", fan_factor * s.fan_factor_value),
            ("assistant coaches", assistant_coaches * s.assistant_coach_price),
            ("cheerleaders", self.cheerleaders_value(cheerleaders)),
            ("apothecary", s.apothecary_value if apothecary else 0),
        ]
        total = sum(v for _, v in parts)
        skill = sum(self.skill_points(spp) for _, spp in squad)
        tr = total // s.tr_divisor + skill
        steps = [f"{name}: {fmt_int(v)}" for name, v in parts]
        steps.append(f"total {fmt_int(total)} / {fmt_int(s.tr_divisor)} = {total // s.tr_divisor}")
        steps.append(f"skill points: {skill}")
        steps.append(f"team rating: {tr}")
        return Explained(tr, (), tuple(steps))

    def team_rating(self, players: Iterable[tuple[int, int]], **kwargs: Any) -> int:
        return self.explain_team_rating(players, **kwargs).value

    # --- gate, fan-factor modifier, vandalism (R12-R18) -----------------------------------------

    def explain_gate(
        self, dice: Sequence[int], *, home: bool, ticket: Ticket = "ordinary", neutral: bool = False, die: int = 6
    ) -> Explained:
        """Sum of the dice, each modified and never below 0, × 1,000 (R12, R13, R14).
        `die` is the division's die (6 or 5), so a 6 on a D5 is refused."""
        s = self.settings
        for i, d in enumerate(dice, start=1):
            _die(f"die {i}", d, die)
        if ticket not in s.ticket_gate_modifier:
            raise ValueError(f"ticket must be ordinary, cheap or expensive, not {ticket!r}")
        steps = []
        if neutral:
            modifier = 0  # R14: no home/away modifier and ordinary ticket prices at a neutral venue
            steps.append("neutral venue: no die modifier")
        else:
            venue = s.home_gate_modifier if home else s.away_gate_modifier
            price = s.ticket_gate_modifier[ticket]
            modifier = venue + price
            steps.append(f"{'home' if home else 'away'} {signed(venue)} per die")
            if price:
                steps.append(f"{ticket} tickets {signed(price)} per die")
        modified = [max(0, d + modifier) for d in dice]
        gate = sum(modified) * s.gate_unit
        steps.append(f"dice {list(dice)} → {modified} = {sum(modified)} × {fmt_int(s.gate_unit)} = {fmt_int(gate)}")
        return Explained(gate, (), tuple(steps))

    def gate(
        self, dice: Sequence[int], *, home: bool, ticket: Ticket = "ordinary", neutral: bool = False, die: int = 6
    ) -> int:
        return self.explain_gate(dice, home=home, ticket=ticket, neutral=neutral, die=die).value

    def gate_die(self, division: int | str) -> int:
        """D6 in the 1st division, D5 in the 2nd (R12)."""
        return self.settings.division_dice[str(division)]

    def ffm_key(self, gate: int) -> int:
        """Gate in thousands rounded up to a multiple of 5; 0 counts as 5; above the table its last row (R15)."""
        _non_negative("gate", gate)
        grid = self.tables.fan_factor_modifier
        thousands = math.ceil(gate / 1000)
        key = max(5, math.ceil(thousands / 5) * 5)
        return min(key, grid.rows[-1])

    def explain_fan_factor_modifier(self, home_gate: int, away_gate: int) -> Explained:
        grid = self.tables.fan_factor_modifier
        row, col = self.ffm_key(home_gate), self.ffm_key(away_gate)
        value = grid.cells[grid.rows.index(row)][grid.columns.index(col)]
        return Explained(value, (Cell("fan_factor_modifier", str(row), str(col), signed(value)),))

    def fan_factor_modifier(self, home_gate: int, away_gate: int) -> int:
        return self.explain_fan_factor_modifier(home_gate, away_gate).value

    def overflow(self, home_gate: int, away_gate: int, capacity: int) -> int:
        return max(0, home_gate + away_gate - capacity)

    def explain_vandalism_target(
        self, home_gate: int, away_gate: int, capacity: int, *, neutral: bool = False
    ) -> Explained:
        """None: no risk; 2–6: the D6 that avoids vandalism; 7: automatic (R18).
        At a neutral venue the capacity is 250,000 and the federation pays for any damage (R14)."""
        if neutral:
            capacity = self.settings.neutral_capacity
        over = self.overflow(home_gate, away_gate, capacity)
        if over == 0:
            return Explained(None, (), (f"{fmt_int(home_gate + away_gate)} does not exceed {fmt_int(capacity)} seats",))
        band = self.tables.vandalism.lookup(over)
        shown = "no risk" if band.value is None else ("automatic" if band.value >= 7 else f"{band.value}+")
        return Explained(
            band.value,
            (Cell("vandalism", band.range.label(), None, shown),),
            (f"overflow {fmt_int(over)}",),
        )

    def vandalism_target(self, home_gate: int, away_gate: int, capacity: int, *, neutral: bool = False) -> int | None:
        return self.explain_vandalism_target(home_gate, away_gate, capacity, neutral=neutral).value

    def vandalised(self, target: int | None, roll: int | None) -> bool:
        if target is None:
            return False
        if target >= 7:
            return True
        if roll is None:
            raise ValueError("a D6 is needed to check for vandalism")
        _die("roll", roll, 6)
        return roll < target

    def seats_destroyed(
        self, home_gate: int, away_gate: int, capacity: int, *, caretakers: bool = False, neutral: bool = False
    ) -> int:
        """Half the overflow, rounded down; caretakers repair up to 5,000 (R18). 0 where there is no risk,
        and 0 at a neutral venue, where the federation pays (R14)."""
        if neutral or self.vandalism_target(home_gate, away_gate, capacity) is None:
            return 0
        lost = self.overflow(home_gate, away_gate, capacity) * self.settings.seats_destroyed_percent // 100
        if caretakers:
            lost = max(0, lost - self.settings.caretakers_repair)
        return lost

    # --- winnings (R17, R19-R21) ----------------------------------------------------------------

    def counted_attendance(self, attendance: int, capacity: int) -> int:
        """Attendance counts only up to 150% of capacity, rounded down (R17)."""
        return min(attendance, capacity * self.settings.overcrowding_percent // 100)

    def explain_winnings(
        self,
        roll: int,
        *,
        team_rating: int,
        attendance: int,
        capacity: int,
        won: bool,
        home: bool,
        ticket: Ticket = "ordinary",
        neutral: bool = False,
        vip: bool = False,
        die: int = 6,
    ) -> Explained:
        s = self.settings
        grid = self.tables.winnings
        _die("roll", roll, die)
        _non_negative("attendance", attendance)
        if ticket not in s.ticket_winnings_row_shift:
            raise ValueError(f"ticket must be ordinary, cheap or expensive, not {ticket!r}")
        steps = [f"roll {roll}"]
        if neutral:
            capacity = s.neutral_capacity  # R14: the neutral venue's capacity and ordinary prices
            ticket = "ordinary"
        counted = self.counted_attendance(attendance, capacity)
        if counted < attendance:
            steps.append(f"attendance {fmt_int(attendance)} counted as {fmt_int(counted)} (150% of capacity, R17)")
        row = grid.row_index(counted)
        shift = s.ticket_winnings_row_shift[ticket]
        shifted = min(max(row + shift, 0), len(grid.rows) - 1)
        col = grid.column_index(team_rating)
        table_mod = grid.cells[shifted][col]
        total = roll
        if won:
            total += s.winnings_win_bonus
            steps.append(f"winner {signed(s.winnings_win_bonus)}")
        if home and not neutral:
            total += s.winnings_home_bonus
            steps.append(f"home {signed(s.winnings_home_bonus)}")
        if shift and shifted != row:
            steps.append(f"{ticket} tickets: row {grid.rows[row].label()} → {grid.rows[shifted].label()}")
        elif shift:
            steps.append(f"{ticket} tickets: already at the table's edge, row stays")
        total += table_mod
        steps.append(f"table {signed(table_mod)}")
        if vip and home and not neutral:  # R19: facilities count only in the owner's home matches
            total += s.vip_lounge_bonus
            steps.append(f"VIP lounge {signed(s.vip_lounge_bonus)}")
        money = max(0, total) * s.winnings_unit
        steps.append(
            f"{total} × {fmt_int(s.winnings_unit)} = {fmt_int(money)}" + (" (never below 0)" if total < 0 else "")
        )
        cell = Cell("winnings", grid.rows[shifted].label(), grid.columns[col].label(), signed(table_mod))
        return Explained(money, (cell,), tuple(steps))

    def winnings(self, roll: int, **kwargs: Any) -> int:
        return self.explain_winnings(roll, **kwargs).value

    def vip_lounge_applies(self, *, touchdowns: int, casualties: int) -> bool:
        t = self.settings.vip_lounge_threshold
        return touchdowns >= t or casualties >= t

    def kiosk_income(self, roll: int) -> int:
        """After each home match a D6 of 3+ gives 10,000, after the winnings floor (R19)."""
        _die("roll", roll, 6)
        return self.settings.kiosk_income if roll >= self.settings.kiosk_target else 0

    # --- stadium (R16) --------------------------------------------------------------------------

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
            lines.append(f"{fmt_int(capacity)} → {fmt_int(capacity + s.expansion_step)}: {fmt_int(cost)}")
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

    # --- handicap (R22, R23) --------------------------------------------------------------------

    def explain_handicap_rolls(self, team_rating_a: int, team_rating_b: int) -> Explained:
        lower, diff = min(team_rating_a, team_rating_b), abs(team_rating_a - team_rating_b)
        if diff == 0:
            return Explained(0, (), ("equal team ratings: no handicap",))
        column = next(c for c in self.tables.handicap_count if c.tr.contains(lower))
        rolls = next(i for i, band in enumerate(column.bands) if band.contains(diff))
        return Explained(
            rolls,
            (Cell("handicap_count", column.bands[rolls].label(), f"TR {column.tr.label()}", str(rolls)),),
            (f"lower TR {lower}, difference {diff}",),
        )

    def handicap_rolls(self, team_rating_a: int, team_rating_b: int) -> int:
        return self.explain_handicap_rolls(team_rating_a, team_rating_b).value

    def handicap_result(self, d66: int) -> HandicapResult:
        _d66(d66)
        return self.tables.handicap_results.lookup(d66).value

    # --- fan factor (R30) -----------------------------------------------------------------------

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
        mods: list[tuple[str, int]] = []
        result_mod = {"win": c.win, "draw": c.draw, "loss": c.loss}[result]
        if result_mod:
            mods.append((result, result_mod))
        if touchdowns >= c.touchdowns_needed:
            mods.append((f"{c.touchdowns_needed}+ touchdowns", c.touchdowns_bonus))
        if casualties >= c.casualties_needed:
            mods.append((f"{c.casualties_needed}+ casualties caused", c.casualties_bonus))
        if crowd_casualty:
            mods.append(("your crowd caused a casualty", c.crowd_casualty_bonus))
        tens = fan_factor // c.per_fan_factor
        if tens:
            mods.append(
                (
                    f"fan factor {fan_factor}: {tens} × {signed(c.per_fan_factor_modifier)}",
                    tens * c.per_fan_factor_modifier,
                )
            )
        if tv_station:
            mods.append(("TV station", self.settings.tv_station_fan_factor_bonus))
        total = roll + sum(v for _, v in mods)
        if total < c.down_below:
            change, row = -1, f"< {c.down_below}"
        elif total > c.up_above:
            change, row = 1, f"> {c.up_above}"
        else:
            change, row = 0, f"{c.down_below}–{c.up_above}"
        change = max(change, -fan_factor)  # FF never below 0
        steps = [f"D6 {roll}"] + [f"{name} {signed(v)}" for name, v in mods] + [f"total {total}"]
        return Explained(change, (Cell("fan_factor_change", row, None, signed(change)),), tuple(steps))

    def fan_factor_change(self, roll: int, **kwargs: Any) -> int:
        return self.explain_fan_factor_change(roll, **kwargs).value

    # --- injuries and healing (R25, R26, R36) ---------------------------------------------------

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

    # --- weather, kick-off ----------------------------------------------------------------------

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

    # --- team re-rolls in a match (R14) -----------------------------------------------------------

    def match_rerolls(self, rerolls: int, *, home: bool) -> int:
        """The team re-rolls a team takes onto the pitch: the designated home team gets the extra ones,
        also at a neutral venue (R14)."""
        return rerolls + (self.settings.home_team_rerolls if home else 0)

    # --- MVP (R27) ------------------------------------------------------------------------------

    def receives_mvp(self, mvps_received: int) -> bool:
        return mvps_received < self.settings.mvp_limit

    def mvp_candidates(self, earned_spp: Sequence[Any], played: Sequence[Any]) -> list[Any]:
        """Those who earned SPP in the match, else those who played (R27)."""
        return list(earned_spp) if earned_spp else list(played)

    # --- season (R31-R35) -----------------------------------------------------------------------

    def points(self, result: MatchResult) -> int:
        return self.settings.points[result]

    def prizes(self, division: int | str) -> tuple[int, ...]:
        return self.settings.prizes.get(str(division), ())

    def order_standings(
        self,
        rows: Sequence[StandingRow],
        head_to_head_points: Mapping[tuple[Any, Any], int] | None = None,
        tiebreak_winners: Sequence[Any] = (),
    ) -> list[list[StandingRow]]:
        """Rank a division by the tie-breakers of R31. Returns groups: a group of more than one
        is a tie the rules cannot split (until the board records the tiebreak game's winner)."""
        return season.order_lines(list(rows), self.settings.tiebreakers, head_to_head_points or {}, tiebreak_winners)

    def standings(
        self, teams: Iterable[Any], results: Iterable[season.Result], tiebreak_winners: Sequence[Any] = ()
    ) -> list[season.Line]:
        """A division's table from confirmed results, points and tie-breakers from this ruleset (R31)."""
        return season.standings(
            teams,
            results,
            points=self.settings.points,
            tiebreakers=self.settings.tiebreakers,
            tiebreak_winners=tiebreak_winners,
        )

    def rank_lines(
        self,
        lines: list[season.Line],
        head_to_head: Mapping[tuple[Any, Any], int],
        tiebreak_winners: Sequence[Any] = (),
    ) -> list[season.Line]:
        """Kept table lines ordered by this ruleset's tie-breakers (R31), as `standings` orders them."""
        return season.rank_lines(
            lines, tiebreakers=self.settings.tiebreakers, head_to_head=head_to_head, tiebreak_winners=tiebreak_winners
        )

    def outcome_points(self, scored: int, conceded: int) -> int:
        """Points for one side of a league result (R31: win 3, draw 1, loss 0 by default)."""
        return self.settings.points[season.outcome(scored, conceded)]


def _display(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {_display(v)}" for k, v in value.items())
    if isinstance(value, tuple | list):
        return ", ".join(_display(v) for v in value)
    if hasattr(value, "__dataclass_fields__"):
        return ", ".join(f"{k}: {getattr(value, k)}" for k in value.__dataclass_fields__)
    return str(value)


def _non_negative(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number of 0 or more, not {value!r}")


def _die(name: str, value: int, sides: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise ValueError(f"{name}: a D{sides} shows 1–{sides}, not {value!r}")


def _d66(value: int) -> None:
    if value not in D66_CODES:
        raise ValueError(f"a D66 is two dice 1–6 read as tens and units (11–66), not {value!r}")
