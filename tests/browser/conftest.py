"""Playwright against pytest-django's live_server, driving Debian's Chromium."""

import copy
import os
import random
from pathlib import Path
from unittest import mock

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction

from league.models import Season
from tests.conftest import PASSWORD

# Playwright's sync API runs an event loop in this thread; the ORM calls made by the
# test itself (fixtures, assertions) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture(autouse=True)
def reference_data(request):
    """live_server flushes the database after each test: load the reference data again first."""
    if request.node.get_closest_marker("browser"):
        from tests.reference_data import ensure_reference_data

        request.getfixturevalue("transactional_db")
        ensure_reference_data()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run scripts/ensure-test-tools")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


# Reports every Content-Security-Policy violation to the console; Playwright's init scripts run
# outside the page's policy, so the watcher itself is not blocked.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${where}`);
});
"""


def is_csp_violation(text: str) -> bool:
    return "CSP violation" in text or "Content Security Policy" in text


@pytest.fixture
def csp_violations():
    """Every policy violation the pages of a test saw; the test fails on any (issue 14)."""
    seen: list[str] = []
    yield seen
    if seen:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(seen))


@pytest.fixture
def new_page(browser, live_server, csp_violations):
    """A factory of pages, each in its own browser context (its own cookies: a second coach)."""
    contexts = []

    def make(locale: str = "nb-NO"):
        context = browser.new_context(base_url=live_server.url, locale=locale, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(10_000)
        context.add_init_script(REPORT_VIOLATIONS)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda msg: is_csp_violation(msg.text) and csp_violations.append(f"{page.url}: {msg.text}"))
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    return new_page()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture(scope="session")
def demo_league_rows() -> dict:
    """This worker's demo league, kept as its rows once built (issue 25: a build plays a dozen matches
    through every service, about 25 s; putting its rows back takes under a second)."""
    return {}


@pytest.fixture
def demo_league(django_user_model, demo_league_rows):
    """The demo league (13 teams of varied races, long names, a cup, two rounds played), with passwords set.
    Built once per worker through seed_demo; each later test gets the same rows back: the database
    emptied (reference data, content types and permissions too), every row inserted as it was, ids and
    all, and the sequences moved past them, as loaddata does."""
    if demo_league_rows:
        restore(demo_league_rows)
        return Season.objects.get(status=Season.Status.RUNNING)
    # the server's dice seeded too: seed_demo picks a level-up without looking at the one already taken, and
    # some dice give a player two rolls with the same first choice
    with mock.patch("matches.dice.secrets.randbelow", random.Random(2006).randrange):
        call_command("seed_demo", "--rounds", "2")
    for user in django_user_model.objects.all():
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    for model in apps.get_models(include_auto_created=True):  # the m2m tables too
        if model._meta.managed and not model._meta.proxy:
            demo_league_rows[model] = list(model._base_manager.all())
    return Season.objects.get(status=Season.Status.RUNNING)


def restore(rows: dict) -> None:
    """The database emptied and filled with `rows` (each model's instances), in one transaction: the
    foreign keys are checked at its commit, so the order of the tables and models does not matter.
    Emptied with a DELETE a table: the test's teardown has just truncated them all (pytest-django's
    flush), so only the reference data put back since has rows, and a second TRUNCATE of every table
    cost half a second (issue 25)."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            for table in connection.introspection.django_table_names(only_existing=True, include_views=False):
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
        for model, objects in rows.items():
            model._base_manager.bulk_create([copy.copy(obj) for obj in objects])
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), list(rows)):
                cursor.execute(sql)
