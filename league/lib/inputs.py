"""The bounds of what a form or a query string may carry, so bad input gets a message, never a 500.

Numbers are bounded by their column (a PositiveSmallIntegerField holds 32,767) or by the rulebook
where it is narrower; dates by the years a league could play in (a later date would overflow when
fixtures are spread over rounds); ids in query strings are plain ASCII digits or nothing.
"""

from __future__ import annotations

import datetime
import json
import math
from functools import partial
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from league.lib.numbers import money

# A number pad on a phone, for dice, scores and shirt numbers typed beside the pitch.
WHOLE_NUMBER = forms.NumberInput(attrs={"inputmode": "numeric"})

SMALL_MAX = 32_767  # PositiveSmallIntegerField, SmallIntegerField
INT_MAX = 2_147_483_647  # PositiveIntegerField, IntegerField
# Gold a form may name at once (a treasury when registered, a cup prize): far above anything the
# rulebook pays, and low enough that a ledger balance (an IntegerField) cannot overflow from it.
MONEY_MAX = 10_000_000
# Shirt numbers are 1–99, so no roster holds more than 99 players of a position.
PLAYERS_MAX = 99
NAME_MAX = 80  # Team, Player, Season and Cup names
EARLIEST_DATE = datetime.date(2000, 1, 1)
LATEST_DATE = datetime.date(2199, 12, 31)
ID_DIGITS = 18  # a bigint has 19 digits; longer "ids" are not ids


def query_id(value: str | None) -> int | None:
    """An id from a query string or a POST list: ASCII digits only (a superscript two is not), else None."""
    if value and len(value) <= ID_DIGITS and value.isascii() and value.isdigit():
        return int(value)
    return None


class LeagueDateField(forms.DateField):
    """A date the league could play on: years 2000–2199."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.validators += [
            MinValueValidator(EARLIEST_DATE, _("Choose a date from %(limit_value)s.")),
            MaxValueValidator(LATEST_DATE, _("Choose a date until %(limit_value)s.")),
        ]


def json_depth(text: str, limit: int) -> bool:
    """True when the JSON text nests objects and arrays no deeper than `limit` (checked before parsing,
    so a hostile file never reaches the parser's recursion)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return False
        elif char in "]}":
            depth -= 1
    return True


def parse_json(text: str, *, depth: int, largest: int = INT_MAX) -> Any:
    """Structured text (JSON) a person sent, or a ValidationError saying what in it cannot be kept: lists and
    objects nested deeper than `depth` (the parser would run out of recursion), a number past `largest` (a
    database column's; Python will not even read an integer of over 4,300 digits), NaN or Infinity and the
    NUL character (PostgreSQL's jsonb holds neither). Text that is no JSON raises json.JSONDecodeError, for
    the caller's own message."""
    if not json_depth(text, depth):
        raise forms.ValidationError(
            _("The structured text nests lists and objects more than %(n)s levels deep."), params={"n": depth}
        )
    data = json.loads(
        text,
        parse_int=partial(_whole, largest=largest),
        parse_float=partial(_real, largest=largest),
        parse_constant=_not_a_number,
    )
    if _holds_nul(data):
        raise forms.ValidationError(_("The structured text holds a NUL character (code 0), which cannot be kept."))
    return data


def _whole(literal: str, *, largest: int) -> int:
    # by its length first: int() refuses a literal of over 4,300 digits
    if len(literal.lstrip("-")) > len(str(largest)) or abs(int(literal)) > largest:
        _too_large(literal, largest)
    return int(literal)


def _real(literal: str, *, largest: int) -> float:
    value = float(literal)  # 1e999 is infinity
    if not math.isfinite(value) or abs(value) > largest:
        _too_large(literal, largest)
    return value


def _too_large(literal: str, largest: int) -> None:
    shown = literal if len(literal) <= 20 else literal[:20] + "…"
    raise forms.ValidationError(
        _("The structured text holds a number too large to keep: %(number)s (at most %(largest)s)."),
        params={"number": shown, "largest": money(largest)},
    )


def _not_a_number(literal: str) -> float:
    raise forms.ValidationError(
        _("The structured text holds %(value)s, which is no number that can be kept."), params={"value": literal}
    )


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_nul(v) for v in value)
    return False


def _refuse_non_ids(field: forms.ModelChoiceField, values: list, code: str) -> None:
    # SQLite raises OverflowError on an integer past 64 bits in a lookup (PostgreSQL finds nothing).
    for value in values:
        if value not in field.empty_values and query_id(str(value)) is None:
            raise forms.ValidationError(field.error_messages[code], code=code, params={"value": value, "pk": value})


class IdModelChoiceField(forms.ModelChoiceField):
    """A ModelChoiceField that refuses a posted value that is not an id before it reaches the database."""

    def to_python(self, value):
        _refuse_non_ids(self, [value], "invalid_choice")
        return super().to_python(value)


class IdModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A ModelMultipleChoiceField that refuses posted values that are not ids before they reach the database."""

    def _check_values(self, value):
        try:
            values = list(value)
        except TypeError:
            values = [value]
        _refuse_non_ids(self, values, "invalid_pk_value")
        return super()._check_values(value)
