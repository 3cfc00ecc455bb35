"""The differences between two versions, labelled as the editor labels each setting and cell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from league import rules
from league.rules.tables import SETTING_GROUPS
from league.views.ruleset_editor.cells import cell_where, get_path, setting_text, show
from league.views.ruleset_editor.tables import Path, table_specs


@dataclass(frozen=True)
class Change:
    section: str
    label: str
    old: str
    new: str


def _flatten(value: Any, prefix: Path = ()) -> dict[Path, Any]:
    if isinstance(value, dict):
        out: dict[Path, Any] = {}
        for k, v in value.items():
            out.update(_flatten(v, (*prefix, k)))
        return out
    if isinstance(value, list) and value and all(isinstance(v, dict | list) for v in value):
        out = {}
        for i, v in enumerate(value):
            out.update(_flatten(v, (*prefix, i)))
        return out
    return {prefix: value}


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Every setting and table cell that differs, labelled as the editor labels it (label, old → new)."""
    changes: list[Change] = []
    known: set[Path] = set()
    for group in SETTING_GROUPS:
        for s in group.settings:
            path = ("settings", *s.path)
            known.add(path)
            a, b = get_path(old, path), get_path(new, path)
            if a != b:
                changes.append(Change(gettext(group.title), gettext(s.label), setting_text(s, a), setting_text(s, b)))
    for key, spec in table_specs(new).items():
        for c in spec.cells():
            path = ("tables", key, *c.path)
            known.add(path)
            a, b = get_path(old, path), get_path(new, path)
            if c.kind == "range" and a is None and b is None:
                continue
            if a != b:
                label = cell_where(c)
                changes.append(Change(spec.title, label, show(a, c.kind), show(b, c.kind)))
    # Everything else (the tables only the advanced view edits), by its place in the data.
    flat_old, flat_new = _flatten(old), _flatten(new)
    for path in sorted(set(flat_old) | set(flat_new), key=lambda p: [str(x) for x in p]):
        if path[:1] == ("name",) or any(path[: len(k)] == k or k[: len(path)] == path for k in known):
            continue
        if path[:2] == ("tables", "handicap_count"):
            continue  # compared cell by cell above
        a, b = flat_old.get(path), flat_new.get(path)
        if a != b:
            section = rules.TABLE_NAMES.get(str(path[1]), str(path[1])) if len(path) > 1 else str(path[0])
            changes.append(Change(section, " > ".join(str(p) for p in path[2:]) or section, show(a), show(b)))
    return changes
