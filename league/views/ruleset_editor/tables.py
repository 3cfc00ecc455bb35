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


def _record_table(key: str, raw: list[dict], columns: list[Column], *, row_key: str = "range") -> list:
    rows = []
    for i, entry in enumerate(raw):
        label = rules_range_label(entry) if row_key == "range" else str(entry.get(row_key, i + 1))
        cells = [
            _cell(key, (i, c.key), label, c, f"row {rules_range_label(entry)} {c.key}")  # type: ignore[arg-type]
            for c in columns
        ]
        rows.append((label, cells))
    return rows


def rules_range_label(entry: dict) -> str:
    return rules.tables.Range(entry.get("min"), entry.get("max")).label()


def table_specs(data: dict[str, Any]) -> dict[str, TableSpec]:
    """The editable tables of a version, laid out as the rulebook prints them."""
    t = data["tables"]
    specs: dict[str, TableSpec] = {}
    name = rules.TABLE_NAMES

    w = t["winnings"]
    cols = [rules_range_label(c) for c in w["columns"]]
    spec = TableSpec("winnings", name["winnings"], "R20, R21", AFTER + " – Premier", _("Attendance \\ TR"), cols)
    for i, r in enumerate(w["rows"]):
        label = rules_range_label(r)  # as league.rules names the cell; the page writes it the reader's way
        shown = translated(label)
        spec.rows.append(
            (
                shown,
                [
                    _cell(
                        "winnings", ("cells", i, j), shown, c, f"row {label}, column {c}", kind="int", min=-20, max=20
                    )
                    for j, c in enumerate(cols)
                ],
            )
        )
    specs["winnings"] = spec

    f = t["fan_factor_modifier"]
    cols = [str(c) for c in f["columns"]]
    spec = TableSpec(
        "fan_factor_modifier",
        name["fan_factor_modifier"],
        "R15",
        GAME + " – Fan Factor-modifier tabell",
        _("Home \\ away (thousands)"),
        cols,
        note=_("Home gate down, away gate across, in thousands rounded up to a multiple of 5."),
    )
    for i, r in enumerate(f["rows"]):
        spec.rows.append(
            (
                str(r),
                [
                    _cell(
                        "fan_factor_modifier",
                        ("cells", i, j),
                        str(r),
                        c,
                        f"row {r}, column {c}",
                        kind="int",
                        min=-20,
                        max=20,
                    )
                    for j, c in enumerate(cols)
                ],
            )
        )
    specs["fan_factor_modifier"] = spec

    target = Column("target", _("D6 to avoid (empty: no risk, 7: automatic)"), "target", 2, 7)
    spec = TableSpec(
        "vandalism", name["vandalism"], "R18", STADIUM + " – Vandalisering", _("Overflow"), [str(target.label)]
    )
    for i, e in enumerate(t["vandalism"]):
        shown = translated(rules_range_label(e))
        spec.rows.append((shown, [_cell("vandalism", (i, "target"), shown, target, f"row {i + 1} target")]))
    specs["vandalism"] = spec

    hc = t["handicap_count"]
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
    for i, c in enumerate(hc):
        label = "TR " + rules_range_label(c)
        cells: list[CellSpec | None] = []
        for j in range(width):
            cells.append(
                _cell(
                    "handicap_count",
                    (i, "bands", j),
                    label,
                    str(j),
                    f"column {rules_range_label(c)}, band {j + 1}",
                    kind="range",
                )
            )
        spec.rows.append((label, cells))
    specs["handicap_count"] = spec

    specs["handicap_results"] = TableSpec(
        "handicap_results",
        name["handicap_results"],
        "R22, R23",
        GAME + " – Handicap tabell 2",
        "D66",
        [str(_("Name")), str(_("Effect")), str(_("Effect (English)"))],
        _record_table(
            "handicap_results",
            t["handicap_results"],
            # Issue 26: the Norwegian effect is required, the English one beside it optional.
            [
                Column("name", _("Name"), "text"),
                Column("effect", _("Effect"), "long"),
                Column("effect_en", _("Effect (English)"), "long_optional"),
            ],
        ),
    )
    si_cols = [
        Column("name", _("Name"), "text"),
        Column("name_en", _("Name (English)"), "text"),
        Column("miss", _("Misses matches"), "int", 0, 99),
        Column("niggling", _("Niggling injury"), "bool"),
        Column("stat", _("Stat -1"), "stat"),
        Column("dead", _("Dead"), "bool"),
    ]
    specs["serious_injury"] = TableSpec(
        "serious_injury",
        name["serious_injury"],
        "R25",
        INJURIES + " – Alvorlig skade-tabell",
        "D66",
        [str(c.label) for c in si_cols],
        _record_table("serious_injury", t["serious_injury"], si_cols),
    )
    rv_cols = [
        Column("name", _("Name"), "text"),
        Column("plus", _("Matches out"), "int", 0, 99),
        Column("dice", _("+ dice"), "int", 0, 9),
        Column("die", _("D (sides)"), "int", 0, 20),
        Column("niggling", _("Niggling injury"), "bool"),
        Column("stat", _("Stat -1"), "stat"),
    ]
    specs["revival"] = TableSpec(
        "revival",
        name["revival"],
        "R25",
        INJURIES + " – Gjenoppliving-tabell",
        "D66",
        [str(c.label) for c in rv_cols],
        _record_table("revival", t["revival"], rv_cols),
    )
    specs["development"] = TableSpec(
        "development",
        name["development"],
        "R29",
        AFTER + " – Spillerutviklinger",
        "2D6",
        [str(_("Result"))],
        _record_table(
            "development",
            t["development"],
            [Column("result", _("Result"), "choice", choices=("skill", "MA", "AG", "ST", "AV"))],
        ),
        note=_("A double also allows a trait from the normal categories or a skill from any other (R29)."),
    )
    specs["skill_points"] = TableSpec(
        "skill_points",
        name["skill_points"],
        "R4",
        AFTER + " – Skillpoeng",
        "SPP",
        [str(_("Title")), str(_("Skill points"))],
        _record_table(
            "skill_points",
            t["skill_points"],
            [Column("title", _("Title"), "text"), Column("points", _("Skill points"), "int", 0, 999)],
        ),
    )
    for key, ruling, source in (
        ("spp_awards", "R28", AFTER + " – Spillerutviklinger"),
        ("apothecary_costs", "R26", INJURIES),
    ):
        spec = TableSpec(key, name[key], ruling, source, "", [str(_("Value"))])
        spec.rows = [(k, [_cell(key, (k,), k, str(_("Value")), k, kind="int", min=0, max=99)]) for k in t[key]]
        specs[key] = spec
    fac_cols = [
        Column("price", _("Price"), "int", 0, None),
        Column("price_per_seat", _("Price per seat"), "int", 0, None),
    ]
    spec = TableSpec("facilities", name["facilities"], "R16, R19", FACILITIES, "", [str(c.label) for c in fac_cols])
    spec.rows = [
        (e["name"], [_cell("facilities", (i, c.key), e["name"], c, f"row {i + 1} {c.key}") for c in fac_cols])  # type: ignore[arg-type]
        for i, e in enumerate(t["facilities"])
    ]
    specs["facilities"] = spec
    return specs
