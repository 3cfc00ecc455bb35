"""The rulebook's tables as frozen dataclasses, loaded from plain data and validated.

A broken table is a RulesetError naming the table and the cell, never a wrong number later.
No Django here: the admin validates an edited version by calling `parse_ruleset_data`.

One module per part: the tables' shapes, reading their cells, the settings, and each table's parser;
every name is importable from here.
"""

from league.rules.tables.cells import to_text
from league.rules.tables.parsing import TABLE_PARSERS, RulesetData, parse_ruleset_data, parse_table
from league.rules.tables.settings import (
    SETTING_GROUPS,
    TIEBREAKERS,
    FanFactorChangeSettings,
    SettingGroup,
    Settings,
    SettingSpec,
)
from league.rules.tables.shapes import (
    D66_CODES,
    STATS,
    TABLE_NAMES,
    TWO_D6,
    Band,
    BandTable,
    Facility,
    FanFactorGrid,
    Grid,
    HandicapColumn,
    HandicapResult,
    Named,
    Range,
    Revival,
    RulesetError,
    SeriousInjury,
    Tables,
    fmt_int,
)

__all__ = [
    "D66_CODES",
    "SETTING_GROUPS",
    "STATS",
    "TABLE_NAMES",
    "TABLE_PARSERS",
    "TIEBREAKERS",
    "TWO_D6",
    "Band",
    "BandTable",
    "Facility",
    "FanFactorChangeSettings",
    "FanFactorGrid",
    "Grid",
    "HandicapColumn",
    "HandicapResult",
    "Named",
    "Range",
    "Revival",
    "RulesetData",
    "RulesetError",
    "SeriousInjury",
    "SettingGroup",
    "SettingSpec",
    "Settings",
    "Tables",
    "fmt_int",
    "parse_ruleset_data",
    "parse_table",
    "to_text",
]
