"""Reading a table's cells from plain data, each refused as a RulesetError naming the table and the
cell; and a table written back as editable text."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from league.rules.tables.shapes import STATS, Range, RulesetError


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


def _optional_str(table: str, cell: str, value: Any) -> str:
    """An optional text (a row's English effect): missing or blank is ""."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RulesetError(table, f"{value!r} is not a text", cell)
    return value if value.strip() else ""


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
