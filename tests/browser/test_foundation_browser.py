"""A person opens the site, switches language and the board logs into the admin (issue 2)."""

from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.conftest import PASSWORD


def test_home_page_renders_in_norwegian(page):
    page.goto("/")
    expect(page.locator(".site-title")).to_contain_text("Torshov Touchdown")
    expect(page.locator(".site-nav").get_by_role("link", name="Tabeller")).to_be_visible()
    expect(page.locator(".site-nav").get_by_role("link", name="Logg inn")).to_be_visible()
    screenshot(page, "home-nb")


def test_language_switch_changes_the_interface_and_sticks(page):
    page.goto("/")
    page.get_by_role("button", name="EN").click()
    expect(page.locator(".site-nav").get_by_role("link", name="Standings")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto("/teams/")
    expect(page.locator(".site-nav").get_by_role("link", name="Log in")).to_be_visible()
    page.get_by_role("button", name="NB").click()
    expect(page.locator(".site-nav").get_by_role("link", name="Tabeller")).to_be_visible()


def test_board_logs_into_the_admin(page, board_member):
    page.goto("/admin/")
    page.fill("#id_username", board_member.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Logg inn").click()
    expect(page.locator("#site-name")).to_contain_text("Torshov Touchdown")
    expect(page.locator("#content").get_by_role("link", name="Brukere")).to_be_visible()
    screenshot(page, "admin-board")


def test_phone_width_keeps_navigation_reachable(new_page):
    page = new_page()
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto("/")
    expect(page.locator(".site-nav").get_by_role("link", name="Regler")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
