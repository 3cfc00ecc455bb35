"""The choices page's push script in a real browser at phone width: it loads under the Content-Security-Policy
(script from our own static files, nothing inline), asks for the permission and, where the browser cannot
subscribe (headless Chromium has no push service), says so on the page instead of failing silently."""

from playwright.sync_api import expect

from league.notices import devices
from tests import factories
from tests.browser.conftest import log_in
from tests.push_service import push_service


def test_the_push_buttons_run_under_the_csp_and_say_what_happened(new_page, live_server):
    coach = factories.user("kari")
    with push_service() as service:
        devices.subscribe(user=coach, data=service.device().subscription(), user_agent="Firefox/133.0 (Android 14)")
        page = new_page()
        page.set_viewport_size({"width": 390, "height": 844})
        page.context.grant_permissions(["notifications"])
        log_in(page, coach)
        page.goto("/my/notices/settings/")
        expect(page.locator("#push li")).to_contain_text("Firefox, Android")
        page.get_by_role("button", name="Slå på varsler på denne enheten").click()
        expect(page.locator('[data-push="status"]')).not_to_be_empty()
