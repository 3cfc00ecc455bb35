"""The installable app in Chromium: the manifest read, the service worker active and in control, "Mitt lag" read
offline from its kept copy under the banner, a form on it saying it needs the network, and nothing of the
coach's kept after the log-out."""

import re

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import REPORT_VIOLATIONS, is_csp_violation, log_in, screenshot

PHONE = {"width": 390, "height": 844}

ACTIVATED = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (worker.state !== "activated") {
    await new Promise((done) => worker.addEventListener("statechange", () => worker.state === "activated" && done()));
  }
  return worker.state;
}"""

# Every request kept in any of the site's caches, as paths.
KEPT = """async () => {
  const paths = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
  }
  return paths;
}"""

WAIT_KEPT = """async (path) => {
  for (let i = 0; i < 100; i++) {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      if ((await cache.keys()).some((r) => new URL(r.url).pathname === path)) return true;
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  return false;
}"""


@pytest.fixture
def phone(browser, live_server, csp_violations):
    """A phone-wide page in Norwegian whose context lets service workers run (they need a secure context:
    the live server's http://localhost is one)."""
    context = browser.new_context(
        base_url=live_server.url, locale="nb-NO", viewport=PHONE, service_workers="allow", is_mobile=False
    )
    context.set_default_timeout(10_000)
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    page.on("console", lambda msg: is_csp_violation(msg.text) and csp_violations.append(f"{page.url}: {msg.text}"))
    yield page
    context.close()


def test_my_team_installable_and_read_offline_then_forgotten_at_log_out(phone):
    match = factories.league_match()
    coach = match.home.coach
    log_in(phone, coach)
    phone.goto("/my/")

    manifest = phone.evaluate(
        """async () => {
          const link = document.querySelector('link[rel=manifest]');
          const manifest = await (await fetch(link.href)).json();
          const icons = await Promise.all(manifest.icons.map(async (i) => (await fetch(i.src)).status));
          return {manifest, icons};
        }"""
    )
    assert manifest["manifest"]["name"] == "Torshov Touchdown"
    assert manifest["manifest"]["start_url"] == "/my/"
    assert manifest["icons"] == [200, 200, 200]

    assert phone.evaluate(ACTIVATED) == "activated"
    phone.reload()
    assert phone.evaluate("() => navigator.serviceWorker.controller !== null")
    assert phone.evaluate(WAIT_KEPT, "/my/")
    # Chromium's own verdict on the manifest and on installing (its DevTools protocol)
    cdp = phone.context.new_cdp_session(phone)
    assert cdp.send("Page.getAppManifest")["errors"] == []
    installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a Playwright context is off the record, where Chromium installs nothing; that is its only objection
    assert [e["errorId"] for e in installability if e["errorId"] != "in-incognito"] == []
    # no install offer or iPhone help in a browser that asked for neither
    expect(phone.locator("[data-install]")).to_be_hidden()
    expect(phone.locator("[data-install-ios]")).to_be_hidden()
    expect(phone.locator("#offline-banner")).to_be_hidden()

    phone.context.set_offline(True)
    phone.reload()
    banner = phone.locator("#offline-banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_text(re.compile(r"^Frakoblet – sist oppdatert kl\. \d\d:\d\d$"))
    expect(phone.get_by_role("heading", name="Mitt lag", level=1)).to_be_visible()
    expect(banner).to_have_css("background-color", "rgb(122, 90, 0)")  # the stylesheet kept too (--accent-ink)
    screenshot(phone, "pwa-offline-banner")

    propose = phone.locator("form.propose-form")
    propose.get_by_role("button", name="Foreslå").click()
    expect(phone.locator(".offline-note")).to_have_text("Du er frakoblet: dette krever nett.")
    assert phone.url.endswith("/my/")

    # a page read online, then the network gone while the browser still thinks it is online: the plain form
    # (the language switch) never reaches the server, and the page stays, saying so
    phone.context.set_offline(False)
    phone.reload()
    expect(phone.locator("#offline-banner")).to_be_hidden()
    phone.context.set_offline(True)
    phone.evaluate("() => Object.defineProperty(navigator, 'onLine', {get: () => true})")
    phone.locator(".language-switch").get_by_role("button", name="EN").click()
    expect(phone.locator(".offline-note")).to_have_text("Du er frakoblet: dette krever nett.")
    assert phone.url.endswith("/my/")
    expect(phone.get_by_role("heading", name="Mitt lag", level=1)).to_be_visible()

    # the coach's roster, read once online, opens offline too
    phone.context.set_offline(False)
    phone.goto(f"/teams/{match.home_id}/")
    assert phone.evaluate(WAIT_KEPT, f"/teams/{match.home_id}/")
    phone.context.set_offline(True)
    phone.goto("/my/")
    phone.goto(f"/teams/{match.home_id}/")
    expect(phone.locator("#offline-banner")).to_be_visible()
    expect(phone.get_by_role("heading", name=match.home.name, level=1)).to_be_visible()

    phone.context.set_offline(False)
    phone.reload()
    phone.locator(".site-header form[data-forget-offline] button").click()
    expect(phone.get_by_role("link", name="Logg inn")).to_be_visible()
    kept = phone.evaluate(KEPT)
    assert not [path for path in kept if not path.startswith("/static/")], kept


def test_install_offer_asks_through_the_browsers_prompt(phone):
    """Chromium fires beforeinstallprompt when the app can be installed; headless never does, so the event
    is made here: the offer shows, its button calls prompt(), and the offer goes."""
    coach = factories.user("trener")
    factories.human_team(coach)
    log_in(phone, coach)
    phone.goto("/my/")
    offer = phone.locator("[data-install]")
    expect(offer).to_be_hidden()
    phone.evaluate(
        """() => {
          const event = new Event("beforeinstallprompt", {cancelable: true});
          event.prompt = () => { window.prompted = true; };
          event.userChoice = Promise.resolve({outcome: "accepted"});
          window.dispatchEvent(event);
        }"""
    )
    expect(offer).to_be_visible()
    offer.get_by_role("button", name="Installer appen").click()
    expect(offer).to_be_hidden()
    assert phone.evaluate("() => window.prompted === true")


def test_iphone_help_only_on_ios_safari(browser, live_server):
    """iOS Safari has no install prompt: the help for its Share menu shows there, in Norwegian."""
    iphone = (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        "Version/17.5 Mobile/15E148 Safari/604.1"
    )
    context = browser.new_context(base_url=live_server.url, locale="nb-NO", viewport=PHONE, user_agent=iphone)
    try:
        page = context.new_page()
        coach = factories.user("trener")
        factories.human_team(coach)
        log_in(page, coach)
        page.goto("/my/")
        expect(page.locator("[data-install-ios]")).to_have_text(re.compile(r"Del → Legg til på Hjem-skjerm"))
        expect(page.locator("[data-install]")).to_be_hidden()
    finally:
        context.close()
