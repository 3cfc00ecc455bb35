"""Every HTML page carries the Content-Security-Policy, Permissions-Policy and Referrer-Policy headers,
and no page has the inline script, handler or style the policy would block (issue 14)."""

import re
from collections import deque

import pytest
from django.urls import reverse

from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import start_season
from tests.sizes import size

pytestmark = pytest.mark.django_db
POLICY = {
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
}
LINK = re.compile(r'href="(/[^"#]*)"')
CRAWL_PAGES = size("CRAWL_PAGES", 40, 1000)  # the policy is every response's: a sample of pages in `make test`
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)
STYLE = re.compile(r"<style\b|<[^>]+\sstyle\s*=", re.IGNORECASE)


@pytest.fixture
def league(season_with):
    season, teams = season_with(4, 3)
    for division in season.divisions.all():
        generate_fixtures(division)
    start_season(season)
    return season, teams


def policy(response) -> set[str]:
    return {part.strip() for part in response["Content-Security-Policy"].split(";")}


def assert_secure_html(url, response):
    assert policy(response) == POLICY, url
    assert "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"], url
    assert response["Referrer-Policy"] == "same-origin", url
    html = response.content.decode()
    assert not INLINE_SCRIPT.search(html), f"inline script on {url}"
    assert not HANDLER.search(html), f"inline handler on {url}: {HANDLER.search(html).group(0)}"
    assert not STYLE.search(html), f"inline style on {url}: {STYLE.search(html).group(0)}"


def crawl(client, start, limit=150, skip=("/static/", "/admin/", "/accounts/logout/", "/i18n/")):
    """Every page reachable by links from start (breadth first, up to limit pages; the first 40 of them in
    `make test`: CRAWL_PAGES, tests/sizes.py)."""
    seen, queue, pages = {start}, deque([start]), 0
    limit = min(limit, CRAWL_PAGES)
    while queue and pages < limit:
        url = queue.popleft()
        response = client.get(url)
        if not response["Content-Type"].startswith("text/html"):
            continue
        pages += 1
        assert response.status_code == 200, url
        assert_secure_html(url, response)
        for link in LINK.findall(response.content.decode()):
            link = link.replace("&amp;", "&")
            if link not in seen and not link.startswith(skip):
                seen.add(link)
                queue.append(link)
    return pages


def test_every_page_an_anonymous_visitor_reaches_carries_the_policy(client, league):
    assert crawl(client, "/", limit=80) > 20


def test_every_page_a_coach_and_the_board_reach_carry_the_policy(client, league, board_member):
    _, teams = league
    client.force_login(teams[0].coach)
    assert crawl(client, "/", limit=40) > 20
    client.force_login(board_member)
    assert crawl(client, "/", limit=40) > 20


@pytest.mark.parametrize("url", ["/accounts/login/", "/no-such-page/"])
def test_log_in_and_error_pages_carry_the_policy(client, url):
    response = client.get(url)
    assert policy(response) == POLICY
    assert "microphone=()" in response["Permissions-Policy"]


def test_the_admin_runs_under_the_same_policy(client, board_member, league):
    client.force_login(board_member)
    for url in (
        reverse("admin:index"),
        reverse("admin:teams_team_changelist"),
        reverse("admin:teams_team_change", args=[league[1][0].pk]),
        reverse("admin:league_ruleset_add"),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert policy(response) == POLICY
        assert not INLINE_SCRIPT.search(response.content.decode()), url
        assert not HANDLER.search(response.content.decode()), url
