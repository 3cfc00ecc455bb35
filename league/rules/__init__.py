"""The Torshov rulebook as a pure, table-driven package (no Django).

The module-level functions are a stable contract called by tests outside the project; they use the
default ruleset "Torshov 2006" (data/torshov_2006.json). The same operations, and `explain_*`
variants that name the table cells used, are methods of `Ruleset`, built from any edited version.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from league.rules.development import MUTATION_CHOICE, STAT_CHOICE, SkillSpec, development_choices
from league.rules.dice_odds import DiceFit, FitVerdict, chi_square_survival, dice_fit, expected_faces, read_roll
from league.rules.roster import PositionSpec, RaceSpec, RosterPlan, RosterProblem
from league.rules.ruleset import (
    Cell,
    DevelopmentOptions,
    Explained,
    MatchResult,
    Phase,
    Ruleset,
    StandingRow,
    Ticket,
)
from league.rules.season import (
    Fixture,
    Line,
    Movement,
    Result,
    cup_first_round,
    cup_rounds,
    decisive_places,
    double_round_robin,
    promotion_and_relegation,
)
from league.rules.tables import (
    STATS,
    TABLE_NAMES,
    TABLE_PARSERS,
    HandicapResult,
    Revival,
    RulesetError,
    SeriousInjury,
    parse_ruleset_data,
    parse_table,
)

DEFAULT_RULESET_PATH = Path(__file__).resolve().parent / "data" / "torshov_2006.json"

__all__ = [
    "DEFAULT_RULESET_PATH",
    "MUTATION_CHOICE",
    "STATS",
    "STAT_CHOICE",
    "TABLE_NAMES",
    "TABLE_PARSERS",
    "Cell",
    "DevelopmentOptions",
    "DiceFit",
    "Explained",
    "FitVerdict",
    "Fixture",
    "HandicapResult",
    "Line",
    "Movement",
    "PositionSpec",
    "RaceSpec",
    "Result",
    "Revival",
    "RosterPlan",
    "RosterProblem",
    "Ruleset",
    "RulesetError",
    "SeriousInjury",
    "SkillSpec",
    "StandingRow",
    "cheerleaders_value",
    "chi_square_survival",
    "cup_first_round",
    "cup_rounds",
    "decisive_places",
    "default_data",
    "default_ruleset",
    "development",
    "development_choices",
    "dice_fit",
    "double_round_robin",
    "expansion_cost",
    "expected_faces",
    "fan_factor_change",
    "fan_factor_modifier",
    "gate",
    "handicap_rolls",
    "level_ups",
    "parse_ruleset_data",
    "parse_table",
    "promotion_and_relegation",
    "read_roll",
    "reroll_price",
    "seats_destroyed",
    "serious_injury",
    "skill_points",
    "team_rating",
    "vandalism_target",
    "winnings",
]


def default_data() -> dict[str, Any]:
    """A fresh copy of the committed default ruleset's raw data."""
    return json.loads(DEFAULT_RULESET_PATH.read_text(encoding="utf-8"))


@cache
def default_ruleset() -> Ruleset:
    return Ruleset.from_data(default_data())


# --- the public contract (default ruleset) ---------------------------------------------------


def skill_points(spp: int) -> int:
    """R4."""
    return default_ruleset().skill_points(spp)


def level_ups(spp_before: int, spp_after: int) -> int:
    """Development rolls earned between two SPP totals, R4."""
    return default_ruleset().level_ups(spp_before, spp_after)


def team_rating(
    players: Iterable[tuple[int, int]],
    *,
    rerolls: int,
    reroll_price: int,
    fan_factor: int,
    assistant_coaches: int,
    cheerleaders: int,
    apothecary: bool,
) -> int:
    """players: (value_gp, spp) of the squad; reroll_price: the race's base price. R1-R3."""
    return default_ruleset().team_rating(
        players,
        rerolls=rerolls,
        reroll_price=reroll_price,
        fan_factor=fan_factor,
        assistant_coaches=assistant_coaches,
        cheerleaders=cheerleaders,
        apothecary=apothecary,
    )


def cheerleaders_value(count: int) -> int:
    """R6."""
    return default_ruleset().cheerleaders_value(count)


def reroll_price(base_price: int, phase: Phase) -> int:
    """phase: "creation" | "season" | "offseason", R7."""
    return default_ruleset().reroll_price(base_price, phase)


def gate(dice: Sequence[int], *, home: bool, ticket: Ticket = "ordinary", neutral: bool = False) -> int:
    """dice: one result per fan factor point. R12-R14."""
    return default_ruleset().gate(dice, home=home, ticket=ticket, neutral=neutral)


def fan_factor_modifier(home_gate: int, away_gate: int) -> int:
    """R15."""
    return default_ruleset().fan_factor_modifier(home_gate, away_gate)


def vandalism_target(home_gate: int, away_gate: int, capacity: int) -> int | None:
    """None: no risk; 2..6: the D6 needed to avoid vandalism; 7: automatic. R18."""
    return default_ruleset().vandalism_target(home_gate, away_gate, capacity)


def seats_destroyed(home_gate: int, away_gate: int, capacity: int, *, caretakers: bool = False) -> int:
    """Seats lost if vandalised, R18."""
    return default_ruleset().seats_destroyed(home_gate, away_gate, capacity, caretakers=caretakers)


def winnings(
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
) -> int:
    """attendance: home gate + away gate as rolled. R17, R20, R21."""
    return default_ruleset().winnings(
        roll,
        team_rating=team_rating,
        attendance=attendance,
        capacity=capacity,
        won=won,
        home=home,
        ticket=ticket,
        neutral=neutral,
        vip=vip,
    )


def expansion_cost(capacity: int, steps: int = 1, *, roof: bool = False) -> int:
    """R16."""
    return default_ruleset().expansion_cost(capacity, steps, roof=roof)


def handicap_rolls(team_rating_a: int, team_rating_b: int) -> int:
    """Rolls on table 2 for the lower team, R22."""
    return default_ruleset().handicap_rolls(team_rating_a, team_rating_b)


def fan_factor_change(
    roll: int,
    *,
    fan_factor: int,
    result: MatchResult,
    touchdowns: int,
    casualties: int,
    crowd_casualty: bool = False,
    tv_station: bool = False,
) -> int:
    """-1, 0 or +1; casualties caused by this team. R30."""
    return default_ruleset().fan_factor_change(
        roll,
        fan_factor=fan_factor,
        result=result,
        touchdowns=touchdowns,
        casualties=casualties,
        crowd_casualty=crowd_casualty,
        tv_station=tv_station,
    )


def development(d1: int, d2: int) -> str:
    """ "skill" | "MA" | "AG" | "ST", R29."""
    return default_ruleset().development(d1, d2)


def serious_injury(d66: int) -> SeriousInjury:
    """.name, .miss_matches, .niggling, .stat, .dead."""
    return default_ruleset().serious_injury(d66)
