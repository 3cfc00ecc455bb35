"""Shared fixtures: named users for the permission matrix, and the database check."""

import os

import pytest

from league.accounts import BOARD, COACH, role_group
from league.models import Ruleset
from league.seasons import services as league_services
from tests import shared
from tests.shared import shared_fixture

PASSWORD = "correct-horse-battery-staple"


def pytest_configure(config):
    # CI must test on PostgreSQL: never let a missing DATABASE_URL fall back to SQLite silently.
    if os.environ.get("CI") and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("CI runs the suite on PostgreSQL: DATABASE_URL must point at it.")


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


@pytest.fixture(autouse=True)
def fresh_page_cache():
    """Each test starts with an empty page cache: a test's rolled-back writes can bring the league
    version back to a number an earlier test cached pages under (issue 16's cache is per version).
    And with no ruleset parsed: a page reads a ruleset's tables once per process, so without this a
    test's query count would depend on the tests before it."""
    from django.core.cache import cache

    from league import models
    from league.lib import pagecache

    cache.clear()
    pagecache._MEMO.clear()
    models._PARSED.clear()


@pytest.fixture(autouse=True)
def league_writes_raise_the_version(request):
    """Issue 25's guard (tests/league_writes.py): app code writes league rows only in league_writes()."""
    if request.node.get_closest_marker("unguarded"):  # the guard's own test
        yield
        return
    from django.db import connection

    from tests.league_writes import Guard

    guard = Guard()
    with connection.execute_wrapper(guard):
        yield
    if guard.unversioned:
        pytest.fail(
            "league rows written outside league.lib.writes (no new league version):\n"
            + "\n".join(guard.unversioned[:5])
        )


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, *, board: bool = False, coach: bool = True, **extra):
        user = django_user_model.objects.create_user(username=username, password=PASSWORD, **extra)
        if board:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
            user.groups.add(role_group(BOARD))
        if coach:
            user.groups.add(role_group(COACH))
        return user

    return make


@shared_fixture
def board_member(make_user):
    return make_user("styret", board=True, coach=False)


@shared_fixture
def coach(make_user):
    return make_user("trener")


@shared_fixture
def other_coach(make_user):
    return make_user("annen_trener")


def has_amount(html: str, amount: int) -> bool:
    """An amount as a page shows it in either language: 1,000,000 / 1 000 000 (non-breaking spaces)."""
    import re

    plain = re.sub(r"(?<=\d)[,\s\u00a0\u202f.](?=\d{3}\b)", "", html)
    return re.search(rf"(?<![\d]){amount}(?![\d])", plain) is not None


@pytest.fixture
def make_teams(make_user):
    """n Human teams, each with its own coach."""

    def make(n: int, prefix: str = "Team"):
        from teams.models import Position, Race
        from teams.services import create_team

        race = Race.objects.get(name="Human")
        linemen = Position.objects.get(race=race, name="Linemen")
        teams = []
        for i in range(n):
            coach = make_user(f"{prefix.lower()}coach{i}")
            teams.append(create_team(coach=coach, name=f"{prefix} {chr(65 + i)}", race=race, hires={linemen.pk: 11}))
        return teams

    return make


@pytest.fixture
def season_with(make_teams):
    def make(first: int = 4, second: int = 3, name: str = "Season 1"):
        teams = make_teams(first + second)
        season = league_services.create_season(
            name=name,
            ruleset=Ruleset.default(),
            divisions=[
                league_services.DivisionPlan(1, "1st division", 6, teams[:first]),
                league_services.DivisionPlan(2, "2nd division", 5, teams[first:]),
            ],
        )
        return season, teams

    return make


# --- fixtures built once for a group of tests (tests/shared.py) ------------------------------------------


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    shared.order(items)


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef, request):
    if fixturedef.argname == "_django_db_helper":
        shared.before_test(request)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    shared.next_item = nextitem
    return (yield)
