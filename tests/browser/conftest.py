"""Playwright against pytest-django's live_server, driving Debian's Chromium."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

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


def log_in(page, user) -> None:
    """`user` (or a username) logged in in the page's browser: the session cookie `Client.force_login`
    makes, which the login form would have set (the form itself is walked in test_coach_week_browser and
    test_notices_browser; issue 25: half a second for each of some forty logins). The page goes on from
    where it is: the test opens the page it wants next."""
    if isinstance(user, str):
        user = get_user_model().objects.get(username=user)
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    page.context.add_cookies([{**cookie, "domain": "localhost", "path": "/"}])
