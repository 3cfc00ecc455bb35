"""The rules editor's tables: each editable table laid out as the rulebook prints it, cell by cell."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league import rules
from league.messages import translated
from league.rules.tables.settings import AFTER, FACILITIES, GAME, INJURIES, STADIUM
from league.templatetags.rules_text import rule_key

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Column:
    key: str | None  # a record's field; None for a grid column
    label: str | Promise
    kind: str = "int"  # int | text | long | long_optional | bool | stat | choice | range | target
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()


@dataclass
class CellSpec:
    name: str
    table: str
    path: Path  # into the table's raw data
    row: str
    column: str
    kind: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    pure: str = ""  # the cell as league.rules names it in a RulesetError


@dataclass
class TableSpec:
    key: str
    title: str
    ruling: str
    source: str
    corner: str | Promise
    columns: list[str]
    rows: list[tuple[str, list[CellSpec | None]]] = field(default_factory=list)
    note: str | Promise = ""

    def cells(self) -> Iterator[CellSpec]:
        for _label, row in self.rows:
            yield from (c for c in row if c is not None)


def _cell(table: str, path: Path, row: str, col: Column | str, pure: str, **kw: Any) -> CellSpec:
    if isinstance(col, Column):
        kw = {"kind": col.kind, "min": col.min, "max": col.max, "choices": col.choices, **kw}
        col = str(col.label)
    name = "t-" + table + "-" + "-".join(str(p) for p in path)
    return CellSpec(name=name, table=table, path=path, row=row, column=col, pure=pure, **kw)


Row = tuple[str, str]  # a row's label as the page writes it, and as league.rules names it in a RulesetError


def _ranges(raw: list[dict]) -> list[Row]:
    labels = [rules.tables.Range(e.get("min"), e.get("max")).label() for e in raw]
    return [(translated(label), label) for label in labels]


def _grid(key: str, rows: list[Row], columns: list[str]) -> list:
    """A table of numbers, a cell for each row and column (the winnings, the fan factor modifier)."""
    return [
        (shown, [_cell(key, ("cells", i, j), shown, c, f"row {pure}, column {c}", kind="int", min=-20, max=20)
                 for j, c in enumerate(columns)])
        for i, (shown, pure) in enumerate(rows)
    ]  # fmt: skip


def _records(key: str, rows: list[Row], columns: list[Column]) -> list:
    """A table of records, a cell for each field of each row (the D66 and 2D6 tables, vandalism, the
    facilities)."""
    return [
        (shown, [_cell(key, (i, c.key), shown, c, f"row {pure} {c.key}") for c in columns])  # type: ignore[arg-type]
        for i, (shown, pure) in enumerate(rows)
    ]


def _values(key: str, raw: dict[str, int]) -> list:
    """A table of one number a key (the SPP awards, the apothecary's costs), each key by its label."""
    value = str(_("Value"))
    return [(rule_key(k), [_cell(key, (k,), rule_key(k), value, k, kind="int", min=0, max=99)]) for k in raw]


def _record_spec(key: str, ruling: str, source: str, corner: str, columns: list[Column], **kw: Any) -> TableSpec:
    return TableSpec(key, rules.TABLE_NAMES[key], ruling, source, corner, [str(c.label) for c in columns], **kw)


def table_specs(data: dict[str, Any]) -> dict[str, TableSpec]:
    """The editable tables of a version, laid out as the rulebook prints them."""
    t = data["tables"]
    name = rules.TABLE_NAMES
    w, f, hc = t["winnings"], t["fan_factor_modifier"], t["handicap_count"]
    specs = {
        "winnings": TableSpec(
            "winnings", name["winnings"], "R20, R21", AFTER + " – Premier", _("Attendance \\ TR"),
            [pure for _shown, pure in _ranges(w["columns"])],
        ),
        "fan_factor_modifier": TableSpec(
            "fan_factor_modifier", name["fan_factor_modifier"], "R15", GAME + " – Fan Factor-modifier tabell",
            _("Home \\ away (thousands)"), [str(c) for c in f["columns"]],
            note=_("Home gate down, away gate across, in thousands rounded up to a multiple of 5."),
        ),
    }  # fmt: skip
    specs["winnings"].rows = _grid("winnings", _ranges(w["rows"]), specs["winnings"].columns)
    ffm_rows = [(str(r), str(r)) for r in f["rows"]]
    specs["fan_factor_modifier"].rows = _grid("fan_factor_modifier", ffm_rows, specs["fan_factor_modifier"].columns)

    target = [Column("target", _("D6 to avoid (empty: no risk, 7: automatic)"), "target", 2, 7)]
    vandalism_rows = [(shown, str(i + 1)) for i, (shown, _pure) in enumerate(_ranges(t["vandalism"]))]
    specs["vandalism"] = _record_spec(
        "vandalism", "R18", STADIUM + " – Vandalisering", _("Overflow"), target,
        rows=_records("vandalism", vandalism_rows, target),
    )  # fmt: skip

    width = max(len(c["bands"]) for c in hc)
    spec = TableSpec(
        "handicap_count",
        name["handicap_count"],
        "R22",
        GAME + " – Handicap tabell 1",
        _("Lower TR \\ rolls"),
        [str(n) for n in range(width)],
        note=_("Each cell is the TR difference that gives that many rolls, e.g. 26–50; the last is open, e.g. 121+."),
    )
    for i, (shown, pure) in enumerate(_ranges(hc)):
        label = "TR " + shown
        cells: list[CellSpec | None] = [
            _cell("handicap_count", (i, "bands", j), label, str(j), f"column {pure}, band {j + 1}", kind="range")
            for j in range(width)
        ]
        spec.rows.append((label, cells))
    specs["handicap_count"] = spec

    records = {
        # the Norwegian effect is required, the English one beside it optional.
        "handicap_results": ("R22, R23", GAME + " – Handicap tabell 2", "D66", [
            Column("name", _("Name"), "text"),
            Column("effect", _("Effect"), "long"),
            Column("effect_en", _("Effect (English)"), "long_optional"),
        ], {}),
        "serious_injury": ("R25", INJURIES + " – Alvorlig skade-tabell", "D66", [
            Column("name", _("Name"), "text"),
            Column("name_en", _("Name (English)"), "text"),
            Column("miss", _("Misses matches"), "int", 0, 99),
            Column("niggling", _("Niggling injury"), "bool"),
            Column("stat", _("Stat -1"), "stat"),
            Column("dead", _("Dead"), "bool"),
        ], {}),
        "revival": ("R25", INJURIES + " – Gjenoppliving-tabell", "D66", [
            Column("name", _("Name"), "text"),
            Column("plus", _("Matches out"), "int", 0, 99),
            Column("dice", _("+ dice"), "int", 0, 9),
            Column("die", _("D (sides)"), "int", 0, 20),
            Column("niggling", _("Niggling injury"), "bool"),
            Column("stat", _("Stat -1"), "stat"),
        ], {}),
        "development": ("R29", AFTER + " – Spillerutviklinger", "2D6", [
            Column("result", _("Result"), "choice", choices=("skill", "MA", "AG", "ST", "AV")),
        ], {"note": _("A double also allows a trait from the normal categories or a skill from any other (R29).")}),
        "skill_points": ("R4", AFTER + " – Skillpoeng", "SPP", [
            Column("title", _("Title"), "text"),
            Column("points", _("Skill points"), "int", 0, 999),
        ], {}),
    }  # fmt: skip
    for key, (ruling, source, corner, columns, kw) in records.items():
        rows = _records(key, _ranges(t[key]), columns)
        specs[key] = _record_spec(key, ruling, source, corner, columns, rows=rows, **kw)
    for key, ruling, source in (
        ("spp_awards", "R28", AFTER + " – Spillerutviklinger"),
        ("apothecary_costs", "R26", INJURIES),
    ):
        specs[key] = TableSpec(key, name[key], ruling, source, "", [str(_("Value"))], _values(key, t[key]))
    prices = [
        Column("price", _("Price"), "int", 0, None),
        Column("price_per_seat", _("Price per seat"), "int", 0, None),
    ]
    facility_rows = [(e["name"], str(i + 1)) for i, e in enumerate(t["facilities"])]
    specs["facilities"] = _record_spec(
        "facilities", "R16, R19", FACILITIES, "", prices, rows=_records("facilities", facility_rows, prices)
    )
    return specs
