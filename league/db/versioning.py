"""The league version (issue 16): raised in the same transaction as every write to the league's data.

Why here, in the database connection, and not in each service or a middleware: every path that
writes — the services, the admin, a management command, a shell — commits through this connection,
so no write can forget it. The connection notes a write to a league table (an INSERT, UPDATE or
DELETE on a table of league, matches or teams, or a user) and, when that transaction commits, raises
the version as its last statement before COMMIT. So a reader sees the new version exactly when it
sees the new data (never a new page stored under an old number, never an old page under a new one),
a crash between the write and the bump is impossible (they commit together), and the version row is
locked only for the instant before COMMIT, after every other lock the transaction takes, so it adds
no deadlock. A connection with league writes not yet committed is "dirty": its own reads bypass the
page cache (league.pagecache), as they see data no one else does yet.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.utils import timezone

VERSION_TABLE = "league_leagueversion"
_WRITE = re.compile(
    r'^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?((?:league|matches|teams)_\w+|auth_user)"?', re.IGNORECASE
)


def is_league_write(sql: Any) -> bool:
    if not isinstance(sql, str):
        return False
    match = _WRITE.match(sql)
    return bool(match) and match.group(1).lower() != VERSION_TABLE


class VersioningMixin:
    """Mixed into the PostgreSQL and SQLite DatabaseWrapper (ENGINE league.db.postgresql / .sqlite3)."""

    bump_sql: str  # the backend's INSERT … ON CONFLICT with its placeholders
    exists_sql: str  # whether the version table exists yet (the migrations create it)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.league_dirty = False
        self.execute_wrappers.append(self._note_league_write)

    def _note_league_write(self, execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if is_league_write(sql):
            if self.in_atomic_block or not self.get_autocommit():
                self.league_dirty = True
            else:  # a single statement in autocommit has committed already: raise the version at once
                self._bump()
        return result

    def _bump(self) -> None:
        if not self._version_table_exists():
            return  # the migrations are still building the database
        cursor = self.connection.cursor()  # the driver's own (sqlite3's is no context manager)
        try:
            cursor.execute(self.bump_sql, [secrets.token_hex(8), self._now()])
        finally:
            cursor.close()

    def _version_table_exists(self) -> bool:
        if not getattr(self, "_version_table_seen", False):
            cursor = self.connection.cursor()
            try:
                cursor.execute(self.exists_sql, [VERSION_TABLE])
                self._version_table_seen = bool(cursor.fetchone()[0])
            finally:
                cursor.close()
        return self._version_table_seen

    def _now(self) -> Any:
        return timezone.now()

    def _commit(self) -> None:
        if self.league_dirty and self.connection is not None:
            with self.wrap_database_errors:
                self._bump()
        self.league_dirty = False
        return super()._commit()

    def _rollback(self) -> None:
        self.league_dirty = False
        return super()._rollback()

    def _close(self) -> None:
        self.league_dirty = False
        return super()._close()
