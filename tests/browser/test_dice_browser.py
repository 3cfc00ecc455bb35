"""A visitor follows the season page to its dice on a phone: the charts drawn, the sentences said, in
Norwegian, nothing wider than 390 px and no serious axe violation."""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from matches.models import DiceRoll
from tests import factories
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility_browser import serious

PHONE = {"width": 390, "height": 844}


def test_a_visitor_reads_the_seasons_dice_on_a_phone(page):
    match = factories.league_match()
    faces = [face for face in range(1, 7) for _ in range(8)]
    rows = [
        DiceRoll(match=match, purpose=f"fan_factor:{i}", step="fan_factor", sides=6, values=[face], team=match.home)
        for i, face in enumerate(faces)
    ]
    rows += [
        DiceRoll(
            match=match,
            purpose=f"development:{i}",
            step="development",
            sides=6,
            count=2,
            values=[a, b],
            team=match.away,
        )
        for i, (a, b) in enumerate([(3, 4), (6, 6), (1, 2), (5, 2)])
    ]
    rows.append(DiceRoll(match=match, purpose="weather", step="weather", sides=6, count=2, values=[2, 2], entered=True))
    DiceRoll.objects.bulk_create(rows)

    page.set_viewport_size(PHONE)
    page.goto(match.season.get_absolute_url())
    page.get_by_role("link", name="terningene").click()
    expect(page.locator("h1")).to_have_text(f"Terningene i {match.season.name}")
    expect(page.get_by_text("Terningene har falt som forventet.")).to_be_visible()
    expect(page.get_by_text("For få kast til å si noe (minst 5 forventet per side trengs).").first).to_be_visible()
    expect(page.locator("svg.dice-chart")).to_have_count(3)  # D6 and 2D6 rolled, the weather's 2D6 typed
    expect(page.locator("svg.dice-chart").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious(Axe(), page) == []
    screenshot(page, "dice-season-phone")
