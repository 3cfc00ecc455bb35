"""A visitor follows the leaders page to the demo league's records, and the season page to the season's, at
390 and 1280 px in Norwegian: each match record's number and match, worked out here from the confirmed
matches, on the page; nothing wider than the screen and no serious axe violation."""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility_browser import WIDTHS, english_words, serious
from tests.browser.test_phone_browser import too_wide
from tests.seasons.test_records import expected_match_records

MATCH_RECORDS = ("biggest_win", "team_match_touchdowns", "team_match_casualties")
PLAYER_RECORDS = ("player_match_touchdowns", "player_match_casualties")


def test_a_visitor_reads_the_records_on_a_phone_and_a_desktop(new_page, demo_league):
    season = demo_league
    page = new_page()
    axe = Axe()
    for width, size in WIDTHS.items():
        page.set_viewport_size(size)
        for scope in (None, season):
            if scope is None:
                page.goto("/leaders/")
                page.locator("#main").get_by_role("link", name="Rekorder", exact=True).click()  # the footer has one too
                expect(page.locator("h1")).to_have_text("Rekorder: alle tider")
            else:
                page.goto(f"/seasons/{season.pk}/")
                page.get_by_role("link", name="sesongens rekorder").click()
                expect(page.locator("h1")).to_have_text(f"Rekorder: {season.name}")
            expected = expected_match_records(scope)
            assert all(expected[key] for key in (*MATCH_RECORDS, *PLAYER_RECORDS)), expected
            for key in (*MATCH_RECORDS, *PLAYER_RECORDS):
                row = page.locator(f"tr#{key}")
                value, holder = expected[key]
                assert row.locator(".record-value").inner_text() == str(value), key
                match_pk = holder if key in MATCH_RECORDS else holder[1]
                assert row.locator("a.record-match").get_attribute("href") == f"/matches/{match_pk}/", key
                if key in PLAYER_RECORDS:
                    assert row.locator("a").first.get_attribute("href") == f"/players/{holder[0]}/", key
            expect(page.locator("tr#biggest_win th")).to_have_text("Største seier")
            expect(page.locator("tr#unbeaten_run th")).to_have_text("Lengste ubeseirede rekke")
            assert english_words(page) == []
            assert too_wide(page, size["width"]) == []
            assert serious(axe, page) == []
            screenshot(page, f"records-{'all-time' if scope is None else 'season'}-{width}")
