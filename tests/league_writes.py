"""The test-only guard of issue 25: app code that writes the league's rows outside `league.lib.writes`
would leave the cached pages as they were. Each test's database connection is wrapped, and a class's
setUpTestData (tests/conftest.py); a write to a league table (league, matches, teams, or a user) whose
nearest app frame is not inside `league_writes()` fails the test, naming that frame. Writes made by
tests themselves and their factories (no app frame) are test data, not the app's, and pass."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from league.lib import writes

ROOT = Path(__file__).resolve().parents[1]
_APPS = tuple(f"{ROOT / app}/" for app in ("league", "teams", "matches"))
# Frames that are no writer of their own: the models (a save() override runs for its caller), the
# building blocks the services call inside their own transaction (dice, the ledger, the kept stats, the
# cup's advance: a test may call them alone), the middleware a request passes through (Django's log-in
# view stamps last_login), and the migrations, whose loaders the tests run again (tests/reference_data.py).
_NOT_WRITERS = (
    "/models.py",
    "/models/",
    "matches/dice.py",
    "matches/stats.py",
    "matches/cup.py",
    "teams/ledger.py",
    "/migrations/",
    "/middleware.py",
    "/pagecache.py",
    "league/accounts.py",
)
_WRITE = re.compile(
    r'^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?((?:league|matches|teams)_\w+|auth_user)"?', re.IGNORECASE
)


def writing() -> bool:
    """Whether this thread is inside `league_writes()`."""
    return writes._depth.get() > 0


# Tables no public page shows, written without a new league version: the version itself, and the coaches'
# notifications (issue 27: opening the inbox or sending an e-mail must not empty the page cache).
_UNVERSIONED = {"league_leagueversion", "league_notification", "league_noticepreference", "league_noticesettings"}


def is_league_write(sql: object) -> bool:
    if not isinstance(sql, str):
        return False
    match = _WRITE.match(sql)
    return bool(match) and match.group(1).lower() not in _UNVERSIONED


def _writer() -> str | None:
    """The nearest app frame that writes, as "path:line", or None when no app code is on the stack."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(_APPS) and not any(part in name for part in _NOT_WRITERS):
            return f"{Path(name).relative_to(ROOT)}:{frame.f_lineno} ({frame.f_code.co_name})"
        frame = frame.f_back
    return None


class Guard:
    def __init__(self) -> None:
        self.unversioned: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        if is_league_write(sql) and not writing():
            writer = _writer()
            if writer is not None:
                self.unversioned.append(f"{writer}: {sql[:80]}")
        return execute(sql, params, many, context)


@contextmanager
def guarded() -> Iterator[None]:
    """Fail (pytest.fail) if app code wrote league rows outside league_writes() meanwhile."""
    guard = Guard()
    with connection.execute_wrapper(guard):
        yield
    if guard.unversioned:
        pytest.fail(
            "league rows written outside league.lib.writes (no new league version):\n"
            + "\n".join(guard.unversioned[:5])
        )
