"""Every calculation of the Torshov rulebook, as methods of a ruleset version.

`Ruleset` is composed of one section per part of the rulebook, each in its own module:

- development.py: SPP, skill points, development rolls, mutations, the MVP (R4, R27-R29)
- team_rating.py: team rating, staff and re-roll prices, a match's team re-rolls (R1-R3, R5-R8, R14)
- roster.py: what a roster may hold (R5-R8)
- gate.py: gate, fan-factor modifier, vandalism, winnings, kiosk (R12-R21)
- stadium.py: capacity, expansion, roof, facilities (R16, R19)
- match_day.py: handicap, weather, kick-off (R22, R23, R39)
- fan_factor.py: the fan factor after a match (R30)
- healing.py: injury tables, apothecary, Bandage Crew, regeneration, niggling checks (R9, R25, R26, R36)
- season.py: points, prizes, the order of a division's table (R31-R35)

Each `explain_x` returns the value with the table cells and modifiers behind it, so a page can say
"Kampbonus: row 40,001–60,000, column 100–125: +2"; `x` returns the bare number. The board's
rulings are cited as Rn (../shared/RULINGS.md). Every name this module had is still importable here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from league.rules import season
from league.rules.development import DEVELOPMENT_RESULTS, DevelopmentOptions, DevelopmentRules
from league.rules.explained import (
    TICKETS,
    Cell,
    Explained,
    MatchResult,
    Phase,
    Section,
    Ticket,
    _d66,
    _die,
    _non_negative,
    _ticket,
    signed,
)
from league.rules.fan_factor import FanFactorRules
from league.rules.gate import GateRules
from league.rules.healing import HealingRules
from league.rules.match_day import MatchDayRules
from league.rules.messages import N_, Msg
from league.rules.roster import RosterRules
from league.rules.season import SeasonRules, StandingRow
from league.rules.stadium import StadiumRules
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
    parse_ruleset_data,
)
from league.rules.team_rating import TeamRatingRules

__all__ = [  # what this module offered before it was split, still importable from here
    "D66_CODES",
    "DEVELOPMENT_RESULTS",
    "N_",
    "STATS",
    "TABLE_NAMES",
    "TICKETS",
    "Cell",
    "DevelopmentOptions",
    "Explained",
    "Facility",
    "HandicapResult",
    "MatchResult",
    "Msg",
    "Named",
    "Phase",
    "Revival",
    "RosterRules",
    "Ruleset",
    "RulesetData",
    "Section",
    "SeriousInjury",
    "StandingRow",
    "Ticket",
    "_d66",
    "_die",
    "_display",
    "_non_negative",
    "_ticket",
    "parse_ruleset_data",
    "season",
    "signed",
]


class Ruleset(
    DevelopmentRules,
    TeamRatingRules,
    GateRules,
    StadiumRules,
    MatchDayRules,
    FanFactorRules,
    HealingRules,
    SeasonRules,
    RosterRules,
):
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

    def settings_items(self) -> list[tuple[str, str]]:
        s = self.settings
        return [(name, _display(getattr(s, name))) for name in s.__dataclass_fields__]


def _display(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {_display(v)}" for k, v in value.items())
    if isinstance(value, tuple | list):
        return ", ".join(_display(v) for v in value)
    if hasattr(value, "__dataclass_fields__"):
        return ", ".join(f"{k}: {getattr(value, k)}" for k in value.__dataclass_fields__)
    return str(value)
