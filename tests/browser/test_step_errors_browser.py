"""Issue 10: a die that cannot be is answered beside its field, what was typed kept, with JavaScript on
(htmx swaps the fragment) and off (the plain form post gets the page back); then a good die moves on.
Issue 25: both answer 422, the one status of a form shown again (league.lib.responses.INVALID), which
htmx swaps (templates/base.html's htmx-config): the Norwegian error is on the screen where the coach
clicked. The report's refusal likewise, at the top of the page it comes back to."""

import re

import pytest
from playwright.sync_api import expect

from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match
from matches.playthrough import walk_prematch
from matches.prematch.opening import pick_squad
from tests.browser.conftest import screenshot
from tests.browser.test_postmatch_browser import log_in
from tests.matches.test_postmatch import played  # noqa: F401 - the fixture


@pytest.fixture
def squads_picked(season_with):
    """A 1st-division match with both squads picked: the weather is next."""
    season, _teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    match = Match.objects.filter(division=division).order_by("round", "pk").first()
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
    return match


# The plain form post's answer is tested through Django's test client; in a browser in `make test-long`.
JS_OFF = pytest.param(False, marks=pytest.mark.long)


def open_page(browser, live_server, javascript: bool, width: int = 1280):
    context = browser.new_context(
        base_url=live_server.url,
        locale="nb-NO",
        java_script_enabled=javascript,
        viewport={"width": width, "height": 900},
    )
    context.set_default_timeout(10_000)
    return context, context.new_page()


@pytest.mark.parametrize("javascript", [True, JS_OFF], ids=["js-on", "js-off"])
def test_an_impossible_weather_die_is_shown_beside_the_field(browser, live_server, squads_picked, javascript):
    match = squads_picked
    context, page = open_page(browser, live_server, javascript)
    try:
        log_in(page, match.home.coach)
        page.goto(f"/matches/{match.pk}/prematch/")
        weather = page.locator("#step-weather input[name=weather]")
        for typed, message in (("7 1", "En D6 viser 1–6, ikke 7"), ("x", "Skriv terningene som tall")):
            weather.fill(typed)
            with page.expect_response(lambda r: r.request.method == "POST") as answer:
                page.locator("#step-weather").get_by_role("button", name="Kast / lagre").click()
            assert answer.value.status == 422
            errors = page.locator("#step-weather .errorlist")
            expect(errors).to_contain_text(message)
            expect(errors).to_be_in_viewport()
            expect(page.locator("#step-weather input[name=weather]")).to_have_value(typed)
            expect(page.locator("#step-weather input[name=weather]")).to_have_attribute("aria-invalid", "true")
        page.locator("#step-weather input[name=weather]").fill("3 4")
        page.locator("#step-weather").get_by_role("button", name="Kast / lagre").click()
        expect(page.locator("#step-weather")).to_contain_text("Fint vær")  # 7 on the weather table
        expect(page.locator("#step-weather .errorlist")).to_have_count(0)
    finally:
        context.close()


@pytest.mark.parametrize("javascript", [True, JS_OFF], ids=["js-on", "js-off"])
def test_an_impossible_winnings_die_is_shown_beside_the_field(browser, live_server, played, javascript):  # noqa: F811
    match, home, *_ = played
    context, page = open_page(browser, live_server, javascript)
    try:
        log_in(page, home.coach)
        page.goto(f"/matches/{match.pk}/after/{home.pk}/")
        section = page.locator("#step-winnings")
        section.locator("input[name=roll]").fill("7")
        section.locator("input[name=kiosk]").fill("3")
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            section.get_by_role("button", name="Kast / lagre").click()
        assert answer.value.status == 422
        expect(page.locator("#step-winnings .errorlist")).to_contain_text("En D6 viser 1–6, ikke 7")
        expect(page.locator("#step-winnings .errorlist")).to_be_in_viewport()
        expect(page.locator("#step-winnings input[name=roll]")).to_have_value("7")
        expect(page.locator("#step-winnings input[name=kiosk]")).to_have_value("3")
        page.locator("#step-winnings input[name=roll]").fill("4")
        page.locator("#step-winnings").get_by_role("button", name="Kast / lagre").click()
        expect(page.locator("#step-winnings")).to_have_class("card step done")
        expect(page.locator("#step-winnings")).to_contain_text(re.compile(r"70\s000"))  # 4 + win + home + 1 (R20)
    finally:
        context.close()


def test_the_error_on_a_phone(browser, live_server, squads_picked):
    match = squads_picked
    context, page = open_page(browser, live_server, True, width=390)
    try:
        log_in(page, match.home.coach)
        page.goto(f"/matches/{match.pk}/prematch/")
        page.locator("#step-weather input[name=weather]").fill("7 1")
        page.locator("#step-weather").get_by_role("button", name="Kast / lagre").click()
        expect(page.locator("#step-weather .errorlist")).to_be_visible()
        box = page.locator("#step-weather .errorlist").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # on the screen, not off to the side
        page.locator("#step-weather").scroll_into_view_if_needed()
        screenshot(page, "prematch-error-390")
    finally:
        context.close()


@pytest.mark.parametrize("javascript", [True, JS_OFF], ids=["js-on", "js-off"])
def test_a_report_that_does_not_add_up_is_refused_at_the_top(browser, live_server, squads_picked, javascript):
    match = squads_picked
    walk_prematch(match)
    context, page = open_page(browser, live_server, javascript)
    try:
        log_in(page, match.home.coach)
        page.goto(f"/matches/{match.pk}/report/")
        page.fill("#home_score", "1")
        page.fill("#away_score", "0")
        scorer = match.home.players.order_by("number").first()
        page.locator(f"[name=p{scorer.pk}_touchdowns]").fill("2")  # two touchdowns for a score of one
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            page.get_by_role("button", name="Lever rapporten").click()
        assert answer.value.status == 422
        refusal = page.get_by_role("alert")
        expect(refusal).to_contain_text("Rapporten er ikke levert")
        expect(refusal).to_contain_text(f"2 touchdowns er ført på spillere i {match.home.name}, men laget scoret 1")
        expect(refusal).to_be_in_viewport()
        expect(page.locator(f"[name=p{scorer.pk}_touchdowns]")).to_have_value("2")  # what was typed is kept
        assert Match.objects.get(pk=match.pk).status == Match.Status.SCHEDULED
    finally:
        context.close()
