"""Every setting is described once in league.rules, as the rules page and the editor show it: a label, a
unit (or none: a bare amount or modifier), the rulebook's ruling and section, and bounds that hold the
default version's value. No database."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from league import rules
from league.rules.tables import SETTING_GROUPS, TABLE_PARSERS, TIEBREAKERS

DEFAULT = rules.default_data()["settings"]
SPECS = [s for group in SETTING_GROUPS for s in group.settings]


def _leaves(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _leaves(inner, (*path, key))
    else:
        yield path


def _value(path: tuple[str, ...]) -> Any:
    value = DEFAULT
    for key in path:
        value = value[key]
    return value


def test_every_setting_of_the_default_version_is_described_once():
    assert sorted(s.path for s in SPECS) == sorted(_leaves(DEFAULT))


def test_every_editable_table_is_in_one_group():
    tables = [t for group in SETTING_GROUPS for t in group.tables]
    assert len(tables) == len(set(tables)) and set(tables) <= set(TABLE_PARSERS)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: ".".join(s.path))
def test_each_setting_has_a_label_a_unit_and_bounds_that_hold_its_default(spec):
    assert spec.label.strip() and spec.ruling.startswith("R") and spec.source.strip()
    # a unit is a singular and plural pair of formats of the number; none is a bare number
    assert spec.unit is None or (len(spec.unit) == 2 and all("%(n)s" in form for form in spec.unit))
    assert "gp" not in " ".join(spec.unit or ())  # amounts as the book writes them: 60 000
    value = _value(spec.path)
    if spec.kind == "bool":
        assert isinstance(value, bool) and spec.unit is None and (spec.min, spec.max) == (None, None)
    elif spec.kind == "words":
        assert value and set(value) <= set(TIEBREAKERS) and (spec.min, spec.max) == (None, None)
    else:
        numbers = value if spec.kind == "ints" else [value]
        assert spec.kind in ("int", "ints") and spec.min is not None
        assert spec.max is None or spec.min <= spec.max
        for n in numbers:
            assert spec.min <= n and (spec.max is None or n <= spec.max), (spec.path, n)


def test_each_tiebreaker_has_a_label():
    assert all(label.strip() and "_" not in label for label in TIEBREAKERS.values())
