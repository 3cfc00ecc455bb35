"""A visitor opens a team, a player, the season and the front page of the demo league on a phone and on a
desktop (issue 40): each chart drawn and inside the screen's width, its numbers those the league kept, the
page in Norwegian, and no serious axe violation."""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from league.models import PlayerStats
from matches.models import Match
from teams.models import Player, Team
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility_browser import serious

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def test_the_charts_fit_the_screen_and_pass_axe_at_both_widths(new_page, demo_league):
    # one test for both widths: the demo league takes longer to build than the pages to check
    career = PlayerStats.objects.filter(season__isnull=True).order_by("-spp", "player_id").first()
    player = Player.objects.get(pk=career.player_id)
    team = Team.objects.get(pk=player.team_id)
    played = Match.objects.for_team(team).confirmed().count()
    pages = {
        "team": (team.get_absolute_url(), "svg.chart", 2),  # TR and fan factor: a visitor sees no treasury
        "player": (player.get_absolute_url(), "svg.chart", 1),
        "season": (demo_league.get_absolute_url(), "svg.chart--race", demo_league.divisions.count()),
        "home": ("/", ".form-guide .form-strip", Team.objects.filter(season_entries__season=demo_league).count()),
    }
    axe = Axe()
    for width, size in WIDTHS.items():
        page = new_page()
        page.set_viewport_size(size)
        for name, (url, selector, count) in pages.items():
            page.goto(url)
            assert page.locator("html").get_attribute("lang") == "nb"
            charts = page.locator(selector)
            expect(charts).to_have_count(count)
            for n in range(count):
                expect(charts.nth(n)).to_be_visible()
                box = charts.nth(n).bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (name, n, box)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
            assert serious(axe, page) == [], (width, name)
            screenshot(page, f"charts-{name}-{width}")
        page.goto(team.get_absolute_url())  # its numbers: a row a confirmed match, the strip its last five
        expect(page.locator("table.team-progress tbody tr")).to_have_count(played)
        expect(page.locator(".team-charts .form-strip li")).to_have_count(min(played, 5))
        page.goto(player.get_absolute_url())
        page.get_by_text("SPP i tall").click()
        totals = page.locator("table.spp-progress tbody tr td:nth-child(4)")
        expect(totals).to_have_count(career.matches)
        expect(totals.last).to_have_text(str(career.spp))
