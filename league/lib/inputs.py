"""The bounds of what a form or a query string may carry, so bad input gets a message, never a 500.

Numbers are bounded by their column (a PositiveSmallIntegerField holds 32,767) or by the rulebook
where it is narrower; dates by the years a league could play in (a later date would overflow when
fixtures are spread over rounds); ids in query strings are plain ASCII digits or nothing.
"""

from __future__ import annotations

import datetime

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

# A number pad on a phone, for dice, scores and shirt numbers typed beside the pitch (issues 12, 26).
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
