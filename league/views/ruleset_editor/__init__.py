"""The board's rules editor: every setting a labelled field, every table a grid of inputs.

The layout (groups, labels, units, bounds, rulings, rulebook sections) lives here; validation is
`league.rules`' own (`parse_table`), the same code the structured-text admin and the seasons use.
A version's raw data is a JSON object; a cell is a path into it, which also gives the diff.
"""

from league.views.ruleset_editor.cells import (
    CellError,
    cell_where,
    convert,
    get_path,
    parse_number,
    rules_message,
    set_path,
    settings_rows,
    show,
)
from league.views.ruleset_editor.changes import Change, differences
from league.views.ruleset_editor.fields import TIEBREAKERS, Path, Setting
from league.views.ruleset_editor.form import RulesetEditorForm
from league.views.ruleset_editor.settings import GROUPS
from league.views.ruleset_editor.tables import CellSpec, Column, TableSpec, rules_range_label, table_specs

__all__ = [
    "GROUPS",
    "TIEBREAKERS",
    "CellError",
    "CellSpec",
    "Change",
    "Column",
    "Path",
    "RulesetEditorForm",
    "Setting",
    "TableSpec",
    "cell_where",
    "convert",
    "differences",
    "get_path",
    "parse_number",
    "rules_message",
    "rules_range_label",
    "set_path",
    "settings_rows",
    "show",
    "table_specs",
]
