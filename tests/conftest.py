"""Shared fixtures: named users for the permission matrix, the factories, the database check, and
`setUpTestData` for classes of pytest tests."""

import contextlib
import os
import unittest
from unittest import mock

import pytest
from django.db import transaction
from django.db.models.signals import post_migrate
from django.test.testcases import TestData
from django.utils import translation

from league.models import Season
from tests import demo_league as demo
from tests import factories, reference_data
from tests.factories import PASSWORD  # noqa: F401 - the tests import it from here
from tests.once_per_run import once_per_run


def pytest_configure(config):
    # CI must test on PostgreSQL: never let a missing DATABASE_URL fall back to SQLite silently.
    if os.environ.get("CI") and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("CI runs the suite on PostgreSQL: DATABASE_URL must point at it.")


# The tests that take tens of seconds each (a browser, a demo league, a served gunicorn, league years) run
# first of their kind: pytest-xdist hands tests out in order, and one of them last kept a worker busy for
# minutes after the other had finished (issue 25). With `--dist worksteal` (Makefile) an idle worker takes
# the rest. Sorted before pytest-django sorts (tryfirst), whose stable sort then keeps the tests that empty
# the database (transaction=True: the browser's) after those that need its reference data.
SLOW_FIRST = (
    "tests/browser/",
    "tests/seasons/test_seed_demo.py",
    "tests/seasons/test_league_year.py",
    "tests/foundation/test_norwegian_pages.py",
    "tests/rules/test_every_setting_used.py",
    "tests/foundation/test_gunicorn.py",
    "tests/foundation/test_proxy.py",
    "tests/foundation/test_slow_clients.py",
    "tests/foundation/test_connection_pool.py",
    "tests/foundation/test_database_away.py",
)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: not item.nodeid.startswith(SLOW_FIRST))  # stable: the order within each part


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database as pytest-django makes it, on PostgreSQL without waiting for each commit to reach
    the disk (`synchronous_commit = off`, for every connection to it: the live server's, the threads' and a
    served gunicorn's too). A crash could lose the last commits, which a test database never needs; what
    each connection sees is unchanged. The transactional tests commit often and their teardown empties
    every table: a third of that time was the wait for the disk (issue 25)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            name = connection.ops.quote_name(connection.settings_dict["NAME"])
            cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
            cursor.execute("SET synchronous_commit = off")  # this connection, opened before
    # The board's permissions are granted again after each flush by ensure_reference_data (the teardown
    # hook below), once; post_migrate, which each flush sends once for every app, granted them a dozen
    # times more (half a second a transactional test). The migrations above have granted them already.
    post_migrate.disconnect(dispatch_uid="league.grant_board_permissions")
    with django_db_blocker.unblock():
        reference_data.keep()


@pytest.fixture(scope="session", autouse=True)
def flush_by_delete():
    """A transactional test's teardown empties every table with Django's flush, on PostgreSQL one
    TRUNCATE of them all: it makes new files for each table and index, about a second a test on two
    cores, for tables that hold a few hundred rows. A DELETE a table empties them in a twentieth of that,
    with the same result (sequences are not reset either way: the tests flush with reset_sequences
    False). The foreign keys are deferred (Django makes them so on PostgreSQL), and the flush runs its
    statements in one transaction, so the order of the tables does not matter."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    with mock.patch.object(DatabaseOperations, "sql_flush", sql_flush):
        yield


@pytest.fixture(scope="session", autouse=True)
def fast_password_hasher():
    """Users are made by the hundred: hash their passwords with a cheap hasher (Django's advice for test
    suites). PBKDF2's million rounds cost ~0.4 s of CPU a user and were most of the suite's time; what is
    tested is who may do what, not the hasher. The production hashers stay listed, so a password hashed
    by them (a subprocess's database) still checks."""
    from django.conf import settings
    from django.test import override_settings

    hashers = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


_db_blocker: list = []  # pytest-django's django_db_blocker, for the hook below (a hook has no fixtures)


@pytest.fixture(scope="session", autouse=True)
def keep_db_blocker(django_db_blocker):
    _db_blocker.append(django_db_blocker)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """A transactional test's teardown empties every table (pytest-django's flush): the reference data is
    put back at once, after it, the one place that does, so every test finds the catalogue the migrations
    loaded (pytest-django runs such tests after the others, but pytest-xdist's worksteal may give a worker
    that ran one some of the other tests later)."""
    yield
    marker = item.get_closest_marker("django_db")
    emptied = (marker is not None and marker.kwargs.get("transaction")) or {"transactional_db", "live_server"} & set(
        getattr(item, "fixturenames", ())
    )
    if emptied and nextitem is not None:  # after the last, the test database itself is gone
        from tests.reference_data import ensure_reference_data

        with _db_blocker[0].unblock():
            ensure_reference_data()


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the league's language: a request in English (the language cookie) leaves English
    active on its thread, and Django does not reset it between tests, so a later test calling a view or a
    form directly would speak English by the order the tests ran in."""
    translation.activate("nb")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_page_cache():
    """Each test starts with an empty page cache: a test's rolled-back writes can bring the league
    version back to a number an earlier test cached pages under (issue 16's cache is per version).
    And with no ruleset parsed: a page reads a ruleset's tables once per process, so without this a
    test's query count would depend on the tests before it."""
    from django.core.cache import cache

    from league import models

    cache.clear()
    models._PARSED.clear()


@pytest.fixture(scope="class", autouse=True)
def set_up_test_data(request):
    """Django's `TestCase.setUpTestData` for a class of pytest tests (issue 25). A class that defines
    a `setUpTestData` classmethod has it run once, before its first test, in a transaction that is
    rolled back after its last test; each test runs in its own savepoint inside it (pytest-django's
    `db`) and reads what setUpTestData set on the class as deep copies of its own (Django's `TestData`,
    as in a TestCase), so what a test writes, in the database or on the objects, never reaches the
    next. Only for tests that pytest-django runs in a transaction (`db`): not `transaction=True` nor a
    live server, whose writes are committed. What setUpTestData writes passes the league-writes guard
    as a test's writes do, and is written in the language the tests run in."""
    cls = request.cls
    if cls is None or not hasattr(cls, "setUpTestData") or issubclass(cls, unittest.TestCase):
        yield  # (a Django TestCase runs its setUpTestData itself)
        return
    request.getfixturevalue("django_db_setup")
    blocker = request.getfixturevalue("django_db_blocker")
    with blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
    # In the language its tests run in: the apps' folders set English (tests/*/conftest.py, `english`).
    language = translation.override("en") if "english" in request.fixturenames else contextlib.nullcontext()
    before = dict(vars(cls))
    try:
        with blocker.unblock(), language:
            cls.setUpTestData()
        for name, value in list(vars(cls).items()):
            if before.get(name) is not value:
                setattr(cls, name, TestData(name, value))
        yield
    finally:
        for name in [name for name, value in vars(cls).items() if before.get(name) is not value]:
            if name in before:
                setattr(cls, name, before[name])
            else:
                delattr(cls, name)
        with blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def make_user(db):
    """factories.user: a coach, or with board=True a board member."""
    return factories.user


@pytest.fixture
def board_member(db):
    return factories.user("styret", board=True, coach=False)


@pytest.fixture
def coach(db):
    return factories.user("trener")


@pytest.fixture
def other_coach(db):
    return factories.user("annen_trener")


def has_amount(html: str, amount: int) -> bool:
    """An amount as a page shows it in either language: 1,000,000 / 1 000 000 (non-breaking spaces)."""
    import re

    plain = re.sub(r"(?<=\d)[,\s\u00a0\u202f.](?=\d{3}\b)", "", html)
    return re.search(rf"(?<![\d]){amount}(?![\d])", plain) is not None


@pytest.fixture
def make_teams(db):
    """factories.teams: n Human teams, each with its own coach."""
    return factories.teams


@pytest.fixture
def season_with(db):
    """factories.season_with: a season of two divisions of new teams."""
    return factories.season_with


@pytest.fixture
def media_root(settings, tmp_path):
    """Uploaded files (the referee sheet's photos) under a folder of the test's own, removed after it:
    default_storage follows MEDIA_ROOT when the setting changes."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(scope="session")
def demo_league_rows() -> dict:
    """The run's demo league as its rows: built by the first worker that needs it, in its database, and
    read by the others (tests/demo_league.py, tests/once_per_run.py)."""
    return {}


@pytest.fixture
def demo_league(transactional_db, demo_league_rows, tmp_path_factory):
    """The demo league (13 teams of varied races, long names, a cup, two rounds played), with passwords
    set, its season running. Built once per run through seed_demo; each test gets the same rows back, ids
    and all (tests/demo_league.py). For tests whose writes are committed (the browser's)."""
    if not demo_league_rows:
        demo_league_rows.update(demo.load(once_per_run(tmp_path_factory, "demo-league.pickle", demo.save)))
    demo.restore(demo_league_rows)
    return Season.objects.get(status=Season.Status.RUNNING)
