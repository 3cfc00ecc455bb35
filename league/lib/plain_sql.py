"""The few reads written out in SQL: public pages' reads sent on every request after a write, where the ORM's
building of the statement cost more than the database's answer (issue 25, item 7, measured in the
benchmark). Each statement is a constant beside the read that sends it, portable to PostgreSQL and SQLite."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.utils import timezone


def fetch_rows(sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None) -> list[tuple]:
    """The statement's rows; without parameters its text is sent as it is (no placeholders looked for)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def fetch_dicts(keys: Sequence[str], sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None) -> list[dict]:
    """The statement's rows as dicts of `keys`, one per column, as `values()` gives them."""
    return [dict(zip(keys, row, strict=True)) for row in fetch_rows(sql, params)]


def aware(value: datetime | None) -> datetime | None:
    """A timestamp as the ORM gives it: SQLite's plain reads give the stored UTC time without its zone."""
    if value is not None and timezone.is_naive(value):
        return timezone.make_aware(value, UTC)
    return value
