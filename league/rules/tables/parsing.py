"""Each table read from plain data and validated, and a whole ruleset: settings and every table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from league.rules.tables.cells import (
    _band_rows,
    _bool,
    _contiguous,
    _covers,
    _dict,
    _int,
    _list,
    _optional_str,
    _range,
    _stat,
    _str,
)
from league.rules.tables.settings import Settings, _settings
from league.rules.tables.shapes import (
    D66_CODES,
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
)


@dataclass(frozen=True)
class RulesetData:
    name: str
    settings: Settings
    tables: Tables
    raw: Mapping[str, Any] = field(repr=False, compare=False, hash=False, default_factory=dict)


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
                effect_en=_optional_str(t, f"row {r.label()} effect_en", e.get("effect_en")),
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
                    effect_en=_optional_str(t, f"row {r.label()} effect_en", e.get("effect_en")),
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
                effect_en=_optional_str(t, f"row {i} effect_en", e.get("effect_en")),
            )
        )
    return tuple(out)


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
