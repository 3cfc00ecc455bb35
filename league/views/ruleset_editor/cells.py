"""Reading and writing one cell of a version: paths into the data, numbers as people type them,
and each cell's error named in the interface's language."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from league import rules
from league.lib.numbers import money
from league.rules.tables import SETTING_GROUPS, TIEBREAKERS, SettingSpec
from league.views.ruleset_editor.tables import CellSpec, Path


def get_path(data: Any, path: Path) -> Any:
    for p in path:
        try:
            data = data[p]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def set_path(data: Any, path: Path, value: Any) -> None:
    for p in path[:-1]:
        data = data[p]
    data[path[-1]] = value


def parse_number(text: str) -> int | None:
    """A whole number as people type it: 10 000, 10.000, 10,000, +2, \u22121. None if it is not one."""
    s = text.strip().replace("\u2212", "-").replace("\u2013", "-")
    s = re.sub(r"[\s\u00a0\u202f]", "", s)
    if re.fullmatch(r"[+-]?\d{1,3}([.,]\d{3})+", s):
        s = re.sub(r"[.,]", "", s)
    if not re.fullmatch(r"[+-]?\d+", s):
        return None
    return int(s)


def show(value: Any, kind: str = "int") -> str:
    """A raw value as the editor and the diff show it."""
    if value is None:
        return ""
    if kind == "range" and isinstance(value, list):
        lo, hi = value
        return f"{lo}+" if hi is None else f"{lo}–{hi}"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return ", ".join(show(v) for v in value)
    return str(value)


def setting_name(spec: SettingSpec) -> str:
    """The setting's field in the editor's form."""
    return "s-" + "-".join(spec.path)


def setting_text(spec: SettingSpec, value: Any) -> str:
    """A setting's value as the rules page and the list of changes show it: "60 000", "1 re-roll",
    the tie-breakers in words."""
    if value is None or (spec.kind == "int" and not isinstance(value, int)):
        return show(value)
    if spec.kind == "bool":
        return show(bool(value))
    if spec.kind == "words":
        return ", ".join(gettext(TIEBREAKERS.get(w, w)) for w in value)
    if spec.kind == "ints":
        number, count = ", ".join(money(v) for v in value), len(value)
    else:
        number, count = money(value), abs(value)
    return ngettext(*spec.unit, count) % {"n": number} if spec.unit else number


def unit_around(spec: SettingSpec, value: Any) -> tuple[str, str]:
    """The unit's words before and after the editor's input ("D" before a die's sides, "players" after)."""
    if not spec.unit:
        return "", ""
    count = len(value) if isinstance(value, list) else abs(value) if isinstance(value, int) else 2
    before, _n, after = (ngettext(*spec.unit, count) % {"n": "\0"}).partition("\0")
    return before.strip(), after.strip()


def tiebreaker_words() -> str:
    return ", ".join(gettext(label) for label in TIEBREAKERS.values())


def settings_rows(data: dict[str, Any]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """A version's settings for reading: grouped as the rulebook is, each as its label, value and ruling."""
    return [
        (
            gettext(group.title),
            [(gettext(s.label), setting_text(s, get_path(data["settings"], s.path)), s.ruling) for s in group.settings],
        )
        for group in SETTING_GROUPS
        if group.settings
    ]


class CellError(ValueError):
    pass


def convert(spec: CellSpec | SettingSpec, text: Any, where: str) -> Any:
    """The form's text for one cell as the raw value, or a CellError in Norwegian naming the cell."""
    kind = spec.kind
    if kind == "bool":
        return bool(text)
    text = "" if text is None else str(text).strip()
    if kind in ("text", "long"):
        if not text:
            raise CellError(gettext("%(where)s: write a text.") % {"where": where})
        return text
    if kind == "long_optional":
        return text  # "" when left empty: the page shows the Norwegian text instead
    if kind in ("stat", "choice"):
        return text or None
    if kind == "words":
        # The tie-breakers as the page writes them, in either language, or by their keys.
        known = {k: k for k in TIEBREAKERS} | {
            w.lower(): k for k, label in TIEBREAKERS.items() for w in (label, gettext(label))
        }
        words = [known.get(w.strip().lower()) for w in text.split(",") if w.strip()]
        if None in words or not words:
            raise CellError(
                gettext("%(where)s: use these words, separated by commas: %(words)s.")
                % {"where": where, "words": tiebreaker_words()}
            )
        return words
    if kind == "ints":
        parts = [p for p in re.split(r"[;/]|,\s*(?!\d{3}\b)", text) if p.strip()] if text else []
        return [_number(spec, p, where) for p in parts]
    if kind == "target" and not text:
        return None
    if kind == "range":
        if not text:
            return None
        m = re.fullmatch(r"\s*(\S+?)\s*(?:[-\u2013\u2212]\s*(\S+)|(\+))\s*", text)
        if not m:
            raise CellError(
                gettext("%(where)s: “%(value)s” is not a range like 26–50 or 121+.") % {"where": where, "value": text}
            )
        lo = _number(spec, m.group(1), where)
        hi = None if m.group(3) else _number(spec, m.group(2), where)
        return [lo, hi]
    if not text:
        raise CellError(gettext("%(where)s: a number is needed.") % {"where": where})
    return _number(spec, text, where)


def _number(spec: CellSpec | SettingSpec, text: str, where: str) -> int:
    n = parse_number(text)
    if n is None:
        raise CellError(
            gettext("%(where)s: “%(value)s” is not a whole number.") % {"where": where, "value": text.strip()}
        )
    if spec.min is not None and n < spec.min:
        raise CellError(
            gettext("%(where)s: %(value)s is below the lowest allowed, %(min)s.")
            % {"where": where, "value": n, "min": spec.min}
        )
    if spec.max is not None and n > spec.max:
        raise CellError(
            gettext("%(where)s: %(value)s is above the highest allowed, %(max)s.")
            % {"where": where, "value": n, "max": spec.max}
        )
    return n


def cell_where(spec: CellSpec) -> str:
    title = rules.TABLE_NAMES.get(spec.table, spec.table)
    if spec.column and spec.column != spec.row:
        return gettext("%(table)s, row %(row)s, column %(column)s") % {
            "table": title,
            "row": spec.row,
            "column": spec.column,
        }
    return gettext("%(table)s, row %(row)s") % {"table": title, "row": spec.row}


# league.rules' checks of a whole table, in the interface's language (the package stays English).
RULES_MESSAGES: tuple[tuple[str, str], ...] = (
    (r"^gap between (.+) and (.+)$", gettext_noop("gap between %s and %s")),
    (r"^overlap between (.+) and (.+)$", gettext_noop("overlap between %s and %s")),
    (r"^must start at (.+), starts at (.+)$", gettext_noop("must start at %s, starts at %s")),
    (r"^an open-ended range must be the last$", gettext_noop("an open-ended range must be the last")),
    (r"^the last .+ must be open-ended \((.+)\)$", gettext_noop("the last must be open-ended (%s)")),
    (r"^must be above 0$", gettext_noop("must be above 0")),
    (r"^min (.+) is above max (.+)$", gettext_noop("min %s is above max %s")),
)


def rules_message(message: str) -> str:
    for pattern, template in RULES_MESSAGES:
        m = re.match(pattern, message)
        if m:
            return gettext(template) % m.groups()
    return message
