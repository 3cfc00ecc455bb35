"""The rulebook's tables as frozen dataclasses, loaded from plain data and validated.

A broken table is a RulesetError naming the table and the cell, never a wrong number later.
No Django here: the admin validates an edited version by calling `parse_ruleset_data`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import pairwise
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from league.rules.messages import N_, Msg

T = TypeVar("T")

TABLE_NAMES: dict[str, str] = {
    "fan_factor_modifier": "Fan Factor-modifier",
    "winnings": "Kampbonus",
    "vandalism": "Vandalisering",
    "handicap_count": "Handicap tabell 1",
    "handicap_results": "Handicap tabell 2",
    "skill_points": "Skillpoeng",
    "spp_awards": "Star Player Points",
    "development": "Utvikling",
    "mutations": "Mutasjon",
    "tzeentch_mutations": "Tzeentch mutasjonstabell",
    "mutation_positions": "Tzeentch mutasjoner (posisjoner)",
    "injury": "IR",
    "serious_injury": "Alvorlig skade-tabell",
    "revival": "Gjenoppliving-tabell",
    "apothecary_costs": "Healing (Lege)",
    "weather": "Vær",
    "roof_cancels_weather": "Tak (vær)",
    "kickoff": "Kick-Off",
    "facilities": "Stadion-fasiliteter",
    "fan_factor_change": "Fan Factor endring",
    "settings": "Innstillinger",
}

D66_CODES: tuple[int, ...] = tuple(10 * a + b for a in range(1, 7) for b in range(1, 7))
TWO_D6: tuple[int, ...] = tuple(range(2, 13))
STATS = ("MA", "ST", "AG", "AV")


class RulesetError(ValueError):
    """A table or setting that cannot be used, with where it is wrong."""

    def __init__(self, table: str, message: str, cell: str | None = None) -> None:
        self.table = table
        self.cell = cell
        self.message = message
        label = TABLE_NAMES.get(table, table)
        where = f"{label} ({table})" + (f", {cell}" if cell else "")
        super().__init__(f"{where}: {message}")


def fmt_int(value: int) -> str:
    return f"{value:,}"


@dataclass(frozen=True)
class Range:
    """Inclusive bounds; None is open-ended."""

    min: int | None
    max: int | None

    def contains(self, value: int) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def label(self) -> str:
        """ "40,001–60,000", "≤99", "26+": a `Msg`, so its numbers are written in the reader's language."""
        if self.min is None and self.max is None:
            return Msg(N_("all"))
        if self.min is None:
            return Msg(N_("≤%(max)s"), max=self.max)
        if self.max is None:
            return Msg(N_("%(min)s+"), min=self.min)
        if self.min == self.max:
            return Msg(N_("%(number)s"), number=self.min)
        return Msg(N_("%(min)s–%(max)s"), min=self.min, max=self.max)


@dataclass(frozen=True)
class Band(Generic[T]):
    range: Range
    value: T


@dataclass(frozen=True)
class BandTable(Generic[T]):
    """Rows keyed by an inclusive range of a number (SPP, overflow, a 2D6 or D66 result)."""

    key: str
    bands: tuple[Band[T], ...]

    def lookup(self, number: int) -> Band[T]:
        for band in self.bands:
            if band.range.contains(number):
                return band
        raise ValueError(f"{TABLE_NAMES.get(self.key, self.key)}: no row for {number}")


@dataclass(frozen=True)
class Grid:
    """A two-way table: row ranges × column ranges → integer cells (Kampbonus)."""

    key: str
    rows: tuple[Range, ...]
    columns: tuple[Range, ...]
    cells: tuple[tuple[int, ...], ...]

    def row_index(self, value: int) -> int:
        return next(i for i, r in enumerate(self.rows) if r.contains(value))

    def column_index(self, value: int) -> int:
        return next(i for i, c in enumerate(self.columns) if c.contains(value))


@dataclass(frozen=True)
class FanFactorGrid:
    """The FFM table: home gate (thousands, multiples of 5) down, away gate across."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    cells: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class HandicapColumn:
    tr: Range
    bands: tuple[Range, ...]  # index = number of rolls on table 2


@dataclass(frozen=True)
class HandicapResult:
    key: str
    name: str
    effect: str
    d66: Range


@dataclass(frozen=True)
class SeriousInjury:
    name: str
    name_en: str
    miss_matches: int
    niggling: bool
    stat: str | None
    dead: bool
    d66: Range

    @property
    def badly_hurt_only(self) -> bool:
        return not (self.miss_matches or self.niggling or self.stat or self.dead)


@dataclass(frozen=True)
class Revival:
    """A revived player's injury: out `plus` + `dice`d`die` matches."""

    name: str
    dice: int
    die: int
    plus: int
    niggling: bool
    stat: str | None
    d66: Range

    def miss_matches(self, rolls: Sequence[int]) -> int:
        if len(rolls) != self.dice:
            raise ValueError(f"{self.name}: {self.dice} dice of D{self.die} needed, got {len(rolls)}")
        for roll in rolls:
            if not 1 <= roll <= self.die:
                raise ValueError(f"{self.name}: a D{self.die} shows 1–{self.die}, not {roll}")
        return self.plus + sum(rolls)

    def formula(self) -> str:
        if not self.dice:
            return str(self.plus)
        return f"{self.dice}D{self.die} + {self.plus}"


@dataclass(frozen=True)
class Named:
    key: str
    name: str
    effect: str = ""


@dataclass(frozen=True)
class Facility:
    key: str
    name: str
    price: int
    price_per_seat: int
    effect: str


@dataclass(frozen=True)
class FanFactorChangeSettings:
    win: int
    draw: int
    loss: int
    touchdowns_needed: int
    touchdowns_bonus: int
    casualties_needed: int
    casualties_bonus: int
    crowd_casualty_bonus: int
    per_fan_factor: int
    per_fan_factor_modifier: int
    down_below: int
    up_above: int


@dataclass(frozen=True)
class Settings:
    """Every number RULINGS.md calls a setting; the board changes them per ruleset version."""

    tr_divisor: int
    max_squad: int
    starting_treasury: int
    min_players_creation: int
    max_players: int
    max_rerolls: int
    fan_factor_price: int
    fan_factor_value: int
    max_fan_factor_creation: int
    apothecary_price: int
    apothecary_value: int
    assistant_coach_price: int
    cheerleader_step: int
    big_guy_limit: int
    reroll_percent: Mapping[str, int]
    gate_unit: int
    home_gate_modifier: int
    away_gate_modifier: int
    ticket_gate_modifier: Mapping[str, int]
    ticket_winnings_row_shift: Mapping[str, int]
    division_dice: Mapping[str, int]
    neutral_capacity: int
    overcrowding_percent: int
    start_capacity: int
    start_capacity_first_division: int
    expansion_step: int
    expansion_rounding: int
    roof_price_per_new_seat: int
    roof_price_per_seat: int
    caretakers_repair: int
    seats_destroyed_percent: int
    home_team_rerolls: int
    winnings_unit: int
    winnings_win_bonus: int
    winnings_home_bonus: int
    vip_lounge_bonus: int
    vip_lounge_threshold: int
    kiosk_target: int
    kiosk_income: int
    tv_station_fan_factor_bonus: int
    mvp_limit: int
    points: Mapping[str, int]
    tiebreakers: tuple[str, ...]
    promotion_count: int
    promotion_fan_factor: int
    trophy_rerolls: int
    prizes: Mapping[str, tuple[int, ...]]
    apothecary_ap: int
    apothecary_target: int
    bandage_crew_fee: int
    bandage_crew_targets: tuple[int, ...]
    apprentice_fee: int
    apprentice_target: int
    apprentice_players: int
    familiar_players: int
    regeneration_target: int
    niggling_fails_on: int
    niggling_kept_between_seasons: int
    master_chef_die_price: int
    stat_limit: int
    retire_gives_assistant_coach: bool
    forfeit_fan_factor_loss: int
    forfeit_score: tuple[int, ...]
    fan_factor_change: FanFactorChangeSettings


@dataclass(frozen=True)
class Tables:
    fan_factor_modifier: FanFactorGrid
    winnings: Grid
    vandalism: BandTable[int | None]
    handicap_count: tuple[HandicapColumn, ...]
    handicap_results: BandTable[HandicapResult]
    skill_points: BandTable[tuple[int, str]]
    spp_awards: Mapping[str, int]
    development: BandTable[str]
    mutations: Mapping[str, tuple[str, ...]]
    tzeentch_mutations: BandTable[str]
    mutation_positions: tuple[str, ...]
    injury: BandTable[Named]
    serious_injury: BandTable[SeriousInjury]
    revival: BandTable[Revival]
    apothecary_costs: Mapping[str, int]
    weather: BandTable[Named]
    roof_cancels_weather: tuple[str, ...]
    kickoff: BandTable[Named]
    facilities: tuple[Facility, ...]


@dataclass(frozen=True)
class RulesetData:
    name: str
    settings: Settings
    tables: Tables
    raw: Mapping[str, Any] = field(repr=False, compare=False, hash=False, default_factory=dict)


def to_text(value: Any) -> str:
    """A table as editable structured text (JSON): one grid row or one small entry per line."""
    text = json.dumps(value, indent=1, ensure_ascii=False)

    def fold(match: re.Match[str]) -> str:
        folded = re.sub(r"\s+", " ", match.group(0))
        folded = folded.replace("[ ", "[").replace(" ]", "]").replace("{ ", "{").replace(" }", "}")
        return folded if len(folded) < 240 else match.group(0)

    for _ in range(2):
        text = re.sub(r"\[[^\[\]{}]*\]", fold, text)
        text = re.sub(r"\{[^\[\]{}]*\}", fold, text)
    return text


# --- parsing helpers ---------------------------------------------------------------------------


def _int(table: str, cell: str, value: Any, *, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(table, f"{value!r} is not a whole number", cell)
    return value


def _str(table: str, cell: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RulesetError(table, f"{value!r} is not a text", cell)
    return value


def _list(table: str, cell: str | None, value: Any) -> list:
    if not isinstance(value, list):
        raise RulesetError(table, f"expected a list, got {type(value).__name__}", cell)
    return value


def _dict(table: str, cell: str | None, value: Any) -> dict:
    if not isinstance(value, dict):
        raise RulesetError(table, f"expected an object, got {type(value).__name__}", cell)
    return value


def _range(table: str, cell: str, entry: Mapping[str, Any]) -> Range:
    lo = _int(table, f"{cell} min", entry.get("min"), nullable=True)
    hi = _int(table, f"{cell} max", entry.get("max"), nullable=True)
    if lo is not None and hi is not None and lo > hi:
        raise RulesetError(table, f"min {lo} is above max {hi}", cell)
    return Range(lo, hi)


def _contiguous(table: str, ranges: Sequence[Range], *, start: int | None, what: str = "row") -> None:
    """No gaps, no overlaps, open at the top; `start` is the required first minimum."""
    if not ranges:
        raise RulesetError(table, "the table is empty")
    if ranges[0].min != start and not (start is None and ranges[0].min is None):
        raise RulesetError(table, f"must start at {start}, starts at {ranges[0].min}", f"{what} 1")
    for i, (a, b) in enumerate(pairwise(ranges), start=2):
        if a.max is None:
            raise RulesetError(table, "an open-ended range must be the last", f"{what} {i - 1}")
        if b.min is None or b.min != a.max + 1:
            kind = "gap" if b.min is not None and b.min > a.max + 1 else "overlap"
            raise RulesetError(table, f"{kind} between {a.label()} and {b.label()}", f"{what} {i}")
    if ranges[-1].max is not None:
        raise RulesetError(table, f"the last {what} must be open-ended ({ranges[-1].label()})", f"{what} {len(ranges)}")


def _covers(table: str, ranges: Sequence[Range], codes: Sequence[int], *, dice: str) -> None:
    """Each possible result of the dice is in exactly one row (2D6: 2–12, D66: 11–66)."""
    seen: dict[int, int] = {}
    for i, r in enumerate(ranges, start=1):
        if r.min not in codes or r.max not in codes:
            raise RulesetError(table, f"{r.label()} is not a range of {dice} results", f"row {i}")
        for code in codes:
            if r.contains(code):
                if code in seen:
                    raise RulesetError(table, f"{dice} {code} is in rows {seen[code]} and {i}", f"row {i}")
                seen[code] = i
    missing = [c for c in codes if c not in seen]
    if missing:
        raise RulesetError(table, f"no row for {dice} {', '.join(map(str, missing))}")


def _band_rows(table: str, data: Any) -> list[tuple[Range, dict]]:
    rows = []
    for i, entry in enumerate(_list(table, None, data), start=1):
        entry = _dict(table, f"row {i}", entry)
        rows.append((_range(table, f"row {i}", entry), entry))
    return rows


def _stat(table: str, cell: str, value: Any) -> str | None:
    if value is None:
        return None
    if value not in STATS:
        raise RulesetError(table, f"{value!r} is not one of {', '.join(STATS)} or null", cell)
    return value


def _bool(table: str, cell: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesetError(table, f"{value!r} is not true or false", cell)
    return value


# --- tables ------------------------------------------------------------------------------------


def _ffm(data: Any) -> FanFactorGrid:
    t = "fan_factor_modifier"
    data = _dict(t, None, data)
    rows = [_int(t, f"row label {i}", v) for i, v in enumerate(_list(t, "rows", data.get("rows")), start=1)]
    cols = [_int(t, f"column label {i}", v) for i, v in enumerate(_list(t, "columns", data.get("columns")), start=1)]
    for name, labels in (("row", rows), ("column", cols)):
        expected = list(range(5, 5 * len(labels) + 1, 5))
        if labels != expected or not labels:
            raise RulesetError(t, f"{name} labels must be 5, 10, 15, … in steps of 5 (R15)")
    cells = _list(t, "cells", data.get("cells"))
    if len(cells) != len(rows):
        raise RulesetError(t, f"{len(cells)} rows of cells for {len(rows)} row labels")
    out = []
    for r, row in zip(rows, cells, strict=True):
        row = _list(t, f"row {r}", row)
        if len(row) != len(cols):
            raise RulesetError(t, f"{len(row)} cells for {len(cols)} columns", f"row {r}")
        out.append(tuple(_int(t, f"row {r}, column {c}", v) for c, v in zip(cols, row, strict=True)))
    return FanFactorGrid(tuple(rows), tuple(cols), tuple(out))  # type: ignore[arg-type]


def _winnings(data: Any) -> Grid:
    t = "winnings"
    data = _dict(t, None, data)
    rows = [_range(t, f"row {i}", _dict(t, f"row {i}", e)) for i, e in enumerate(_list(t, "rows", data.get("rows")), 1)]
    cols = [
        _range(t, f"column {i}", _dict(t, f"column {i}", e))
        for i, e in enumerate(_list(t, "columns", data.get("columns")), 1)
    ]
    _contiguous(t, rows, start=0, what="row")
    _contiguous(t, cols, start=None, what="column")
    cells = _list(t, "cells", data.get("cells"))
    if len(cells) != len(rows):
        raise RulesetError(t, f"{len(cells)} rows of cells for {len(rows)} attendance rows")
    out = []
    for r, row in zip(rows, cells, strict=True):
        row = _list(t, f"row {r.label()}", row)
        if len(row) != len(cols):
            raise RulesetError(t, f"{len(row)} cells for {len(cols)} columns", f"row {r.label()}")
        out.append(tuple(_int(t, f"row {r.label()}, column {c.label()}", v) for c, v in zip(cols, row, strict=True)))
    return Grid(t, tuple(rows), tuple(cols), tuple(out))  # type: ignore[arg-type]


def _vandalism(data: Any) -> BandTable[int | None]:
    t = "vandalism"
    rows = _band_rows(t, data)
    _contiguous(t, [r for r, _ in rows], start=0)
    bands = []
    for i, (r, entry) in enumerate(rows, start=1):
        target = _int(t, f"row {i} target", entry.get("target"), nullable=True)
        if target is not None and not 2 <= target <= 7:
            raise RulesetError(t, f"target {target} is not 2–6 (a D6) or 7 (automatic)", f"row {i}")
        bands.append(Band(r, target))
    return BandTable(t, tuple(bands))


def _handicap_count(data: Any) -> tuple[HandicapColumn, ...]:
    t = "handicap_count"
    columns = []
    for i, entry in enumerate(_list(t, None, data), start=1):
        entry = _dict(t, f"column {i}", entry)
        tr = _range(t, f"column {i}", entry)
        bands = []
        for j, band in enumerate(_list(t, f"column {tr.label()} bands", entry.get("bands")), start=0):
            band = _list(t, f"column {tr.label()}, {j} rolls", band)
            if len(band) != 2:
                raise RulesetError(t, "a band is [min, max]", f"column {tr.label()}, {j} rolls")
            lo = _int(t, f"column {tr.label()}, {j} rolls min", band[0])
            hi = _int(t, f"column {tr.label()}, {j} rolls max", band[1], nullable=True)
            bands.append(Range(lo, hi))
        _contiguous(t, bands, start=0, what=f"column {tr.label()}, band")
        columns.append(HandicapColumn(tr, tuple(bands)))
    _contiguous(t, [c.tr for c in columns], start=None, what="column")
    return tuple(columns)


def _handicap_results(data: Any) -> BandTable[HandicapResult]:
    t = "handicap_results"
    rows = _band_rows(t, data)
    _covers(t, [r for r, _ in rows], D66_CODES, dice="D66")
    bands = [
        Band(
            r,
            HandicapResult(
                key=_str(t, f"row {r.label()} key", e.get("key")),
                name=_str(t, f"row {r.label()} name", e.get("name")),
                effect=_str(t, f"row {r.label()} effect", e.get("effect")),
                d66=r,
            ),
        )
        for r, e in rows
    ]
    return BandTable(t, tuple(bands))


def _skill_points(data: Any) -> BandTable[tuple[int, str]]:
    t = "skill_points"
    rows = _band_rows(t, data)
    _contiguous(t, [r for r, _ in rows], start=0)
    return BandTable(
        t,
        tuple(
            Band(r, (_int(t, f"row {r.label()} points", e.get("points")), _str(t, f"row {r.label()}", e.get("title"))))
            for r, e in rows
        ),  # type: ignore[arg-type]
    )


def _int_map(table: str, data: Any, keys: Iterable[str]) -> Mapping[str, int]:
    data = _dict(table, None, data)
    missing = [k for k in keys if k not in data]
    if missing:
        raise RulesetError(table, f"missing {', '.join(missing)}")
    return MappingProxyType({k: _int(table, k, v) for k, v in data.items()})  # type: ignore[misc]


def _two_d6_results(t: str, data: Any, allowed: Iterable[str] | None = None) -> BandTable[str]:
    rows = _band_rows(t, data)
    _covers(t, [r for r, _ in rows], TWO_D6, dice="2D6")
    allowed = set(allowed) if allowed is not None else None
    bands = []
    for r, e in rows:
        result = _str(t, f"row {r.label()} result", e.get("result"))
        if allowed is not None and result not in allowed:
            raise RulesetError(t, f"{result!r} is not one of {', '.join(sorted(allowed))}", f"row {r.label()}")
        bands.append(Band(r, result))
    return BandTable(t, tuple(bands))


def _named_2d6(t: str, data: Any) -> BandTable[Named]:
    rows = _band_rows(t, data)
    _covers(t, [r for r, _ in rows], TWO_D6, dice="2D6")
    return BandTable(
        t,
        tuple(
            Band(
                r,
                Named(
                    key=_str(t, f"row {r.label()} key", e.get("key", e.get("result"))),
                    name=_str(t, f"row {r.label()} name", e.get("name")),
                    effect=str(e.get("effect", "")),
                ),
            )
            for r, e in rows
        ),
    )


def _serious_injury(data: Any) -> BandTable[SeriousInjury]:
    t = "serious_injury"
    rows = _band_rows(t, data)
    _covers(t, [r for r, _ in rows], D66_CODES, dice="D66")
    bands = []
    for r, e in rows:
        c = f"row {r.label()}"
        miss = _int(t, f"{c} miss", e.get("miss"))
        if miss < 0:  # type: ignore[operator]
            raise RulesetError(t, "matches to miss cannot be negative", c)
        bands.append(
            Band(
                r,
                SeriousInjury(
                    name=_str(t, f"{c} name", e.get("name")),
                    name_en=_str(t, f"{c} name_en", e.get("name_en", e.get("name"))),
                    miss_matches=miss,  # type: ignore[arg-type]
                    niggling=_bool(t, f"{c} niggling", e.get("niggling")),
                    stat=_stat(t, f"{c} stat", e.get("stat")),
                    dead=_bool(t, f"{c} dead", e.get("dead")),
                    d66=r,
                ),
            )
        )
    return BandTable(t, tuple(bands))


def _revival(data: Any) -> BandTable[Revival]:
    t = "revival"
    rows = _band_rows(t, data)
    _covers(t, [r for r, _ in rows], D66_CODES, dice="D66")
    bands = []
    for r, e in rows:
        c = f"row {r.label()}"
        dice = _int(t, f"{c} dice", e.get("dice"))
        die = _int(t, f"{c} die", e.get("die"))
        if dice < 0 or (dice and die < 2):  # type: ignore[operator]
            raise RulesetError(t, "the matches to miss need a number of dice and a die of 2 sides or more", c)
        bands.append(
            Band(
                r,
                Revival(
                    name=_str(t, f"{c} name", e.get("name")),
                    dice=dice,  # type: ignore[arg-type]
                    die=die,  # type: ignore[arg-type]
                    plus=_int(t, f"{c} plus", e.get("plus")),  # type: ignore[arg-type]
                    niggling=_bool(t, f"{c} niggling", e.get("niggling")),
                    stat=_stat(t, f"{c} stat", e.get("stat")),
                    d66=r,
                ),
            )
        )
    return BandTable(t, tuple(bands))


def _mutations(data: Any) -> Mapping[str, tuple[str, ...]]:
    t = "mutations"
    data = _dict(t, None, data)
    out = {}
    for category, results in data.items():
        results = _list(t, category, results)
        if len(results) != 4:
            raise RulesetError(t, f"a D4 table needs 4 results, has {len(results)}", category)
        out[category] = tuple(_str(t, f"{category}, D4 {i}", v) for i, v in enumerate(results, start=1))
    if not out:
        raise RulesetError(t, "the table is empty")
    return MappingProxyType(out)


def _str_list(t: str, data: Any) -> tuple[str, ...]:
    return tuple(_str(t, f"item {i}", v) for i, v in enumerate(_list(t, None, data), start=1))


def _facilities(data: Any) -> tuple[Facility, ...]:
    t = "facilities"
    out = []
    for i, e in enumerate(_list(t, None, data), start=1):
        e = _dict(t, f"row {i}", e)
        out.append(
            Facility(
                key=_str(t, f"row {i} key", e.get("key")),
                name=_str(t, f"row {i} name", e.get("name")),
                price=_int(t, f"row {i} price", e.get("price")),  # type: ignore[arg-type]
                price_per_seat=_int(t, f"row {i} price_per_seat", e.get("price_per_seat", 0)),  # type: ignore[arg-type]
                effect=str(e.get("effect", "")),
            )
        )
    return tuple(out)


def _settings(data: Any) -> Settings:
    t = "settings"
    data = _dict(t, None, data)
    values: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name not in data:
            raise RulesetError(t, "missing", f.name)
        v = data[f.name]
        kind = str(f.type)
        if kind == "int":
            values[f.name] = _int(t, f.name, v)
        elif kind == "bool":
            values[f.name] = _bool(t, f.name, v)
        elif kind == "Mapping[str, int]":
            values[f.name] = MappingProxyType({k: _int(t, f"{f.name}.{k}", x) for k, x in _dict(t, f.name, v).items()})
        elif kind == "Mapping[str, tuple[int, ...]]":
            values[f.name] = MappingProxyType(
                {
                    k: tuple(_int(t, f"{f.name}.{k}[{i}]", x) for i, x in enumerate(_list(t, f"{f.name}.{k}", xs)))
                    for k, xs in _dict(t, f.name, v).items()
                }
            )
        elif kind == "tuple[int, ...]":
            values[f.name] = tuple(_int(t, f"{f.name}[{i}]", x) for i, x in enumerate(_list(t, f.name, v)))
        elif kind == "tuple[str, ...]":
            values[f.name] = tuple(_str(t, f"{f.name}[{i}]", x) for i, x in enumerate(_list(t, f.name, v)))
        elif kind == "FanFactorChangeSettings":
            sub = _dict(t, f.name, v)
            kw = {}
            for g in fields(FanFactorChangeSettings):
                if g.name not in sub:
                    raise RulesetError(t, "missing", f"{f.name}.{g.name}")
                kw[g.name] = _int(t, f"{f.name}.{g.name}", sub[g.name])
            values[f.name] = FanFactorChangeSettings(**kw)
        else:  # pragma: no cover - a new field type must be taught here
            raise TypeError(f"unsupported setting type {kind}")
    s = Settings(**values)
    for phase in ("creation", "season", "offseason"):
        if phase not in s.reroll_percent:
            raise RulesetError(t, f"missing the {phase} price", "reroll_percent")
    for ticket in ("cheap", "ordinary", "expensive"):
        for name in ("ticket_gate_modifier", "ticket_winnings_row_shift"):
            if ticket not in getattr(s, name):
                raise RulesetError(t, f"missing {ticket}", name)
    for result in ("win", "draw", "loss"):
        if result not in s.points:
            raise RulesetError(t, f"missing {result}", "points")
    for name in ("tr_divisor", "gate_unit", "winnings_unit", "expansion_step", "expansion_rounding"):
        if getattr(s, name) <= 0:
            raise RulesetError(t, "must be above 0", name)
    for die in s.division_dice.values():
        if die < 2:
            raise RulesetError(t, f"a D{die} is not a die", "division_dice")
    if not s.bandage_crew_targets:
        raise RulesetError(t, "at least one attempt", "bandage_crew_targets")
    return s


TABLE_PARSERS = {
    "fan_factor_modifier": _ffm,
    "winnings": _winnings,
    "vandalism": _vandalism,
    "handicap_count": _handicap_count,
    "handicap_results": _handicap_results,
    "skill_points": _skill_points,
    "spp_awards": lambda d: _int_map(
        "spp_awards", d, ("completion", "casualty", "foul", "interception", "touchdown", "mvp")
    ),
    "development": lambda d: _two_d6_results("development", d, allowed=("skill", "MA", "ST", "AG", "AV")),
    "mutations": _mutations,
    "tzeentch_mutations": lambda d: _two_d6_results("tzeentch_mutations", d),
    "mutation_positions": lambda d: _str_list("mutation_positions", d),
    "injury": lambda d: _named_2d6("injury", d),
    "serious_injury": _serious_injury,
    "revival": _revival,
    "apothecary_costs": lambda d: _int_map(
        "apothecary_costs", d, ("heal_dead", "heal_serious_injury", "heal_badly_hurt", "niggling_check", "revive_dead")
    ),
    "weather": lambda d: _named_2d6("weather", d),
    "roof_cancels_weather": lambda d: _str_list("roof_cancels_weather", d),
    "kickoff": lambda d: _named_2d6("kickoff", d),
    "facilities": _facilities,
}


def parse_table(key: str, data: Any) -> Any:
    """Parse and validate one table; used by the admin to check a single edited table."""
    if key == "settings":
        return _settings(data)
    if key not in TABLE_PARSERS:
        raise RulesetError(key, "not a table of the rulebook")
    return TABLE_PARSERS[key](data)


def parse_ruleset_data(data: Mapping[str, Any]) -> RulesetData:
    """Validate a whole ruleset (settings and every table) and build its frozen form."""
    if not isinstance(data, Mapping):
        raise RulesetError("ruleset", "expected an object with name, settings and tables")
    tables = data.get("tables")
    if not isinstance(tables, Mapping):
        raise RulesetError("ruleset", "missing the tables")
    missing = [k for k in TABLE_PARSERS if k not in tables]
    if missing:
        raise RulesetError(missing[0], "the table is missing")
    unknown = [k for k in tables if k not in TABLE_PARSERS]
    if unknown:
        raise RulesetError(unknown[0], "not a table of the rulebook")
    parsed = Tables(**{k: TABLE_PARSERS[k](tables[k]) for k in TABLE_PARSERS})
    name = data.get("name") or "unnamed"
    return RulesetData(name=str(name), settings=_settings(data.get("settings")), tables=parsed, raw=data)
