"""Two coaches agree a date on their phones (issue 27): coach A proposes dates on the match page, coach B
accepts one, and the team's calendar feed, fetched over HTTP and parsed with icalendar, has the match at
that time. With JavaScript (htmx swaps the box, B answers from Mitt lag) and without (plain forms)."""

import datetime
import urllib.request

import icalendar
import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests import factories
from tests.browser.test_confirm_browser import log_in

PHONE = {"width": 390, "height": 844}


def day(days: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=days)


def feed_start(live_server, team_id: int, match_id: int) -> datetime.datetime:
    with urllib.request.urlopen(f"{live_server.url}/teams/{team_id}/calendar.ics", timeout=10) as response:
        calendar = icalendar.Calendar.from_ical(response.read())
    event = next(e for e in calendar.walk("VEVENT") if str(e["UID"]) == f"match-{match_id}@torshov-league")
    return event.decoded("DTSTART")


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def propose(page, match, *options):
    details = page.locator(f"#schedule-{match.pk} details.propose")
    if details.get_attribute("open") is None:  # folded once dates are proposed: a native <details>, no script
        details.locator("summary").click()
    for n, (when, at) in enumerate(options, start=1):
        page.fill(f"#propose-{match.pk}-date_{n}", when.isoformat())
        page.fill(f"#propose-{match.pk}-time_{n}", at)
    page.locator(f"#schedule-{match.pk}").get_by_role("button", name="Foreslå", exact=True).click()


def test_two_coaches_agree_a_date_with_javascript(new_page, live_server):
    match = factories.league_match()
    home, away = new_page(), new_page()
    home.set_viewport_size(PHONE)
    away.set_viewport_size(PHONE)

    log_in(home, match.home.coach)
    home.goto(f"/matches/{match.pk}/")
    expect(home.locator(f"#schedule-{match.pk}")).to_contain_text("Ingen dato avtalt ennå.")
    propose(home, match, (day(3), "19:00"), (day(5), "18:30"))
    box = home.locator(f"#schedule-{match.pk}")
    expect(box).to_contain_text("2 datoer foreslått")  # swapped in place, no page load
    expect(box).to_contain_text("Dine forslag, venter på den andre treneren")
    assert home.url.endswith(f"/matches/{match.pk}/") and fits_the_phone(home)

    log_in(away, match.away.coach)  # lands on Mitt lag, his next match's proposals under it
    away.goto("/my/")
    box = away.locator(f"#schedule-{match.pk}")
    expect(box).to_contain_text("Foreslått av den andre treneren: velg én")
    assert fits_the_phone(away)
    box.locator("li", has_text="18:30").get_by_role("button", name="Godta").click()
    expect(away.locator(f"#schedule-{match.pk}")).to_contain_text("Datoen er avtalt")
    assert away.url.endswith("/my/")

    expected = timezone.make_aware(datetime.datetime.combine(day(5), datetime.time(18, 30)))
    assert feed_start(live_server, match.home_id, match.pk) == expected
    home.goto(f"/matches/{match.pk}/")
    expect(home.locator(".match-date")).to_contain_text("kl. 18:30")
    expect(home.locator("#google-calendar")).to_be_visible()


@pytest.mark.long  # plain forms: the scheduling views are tested through Django's test client
def test_two_coaches_agree_a_date_without_javascript(browser, live_server):
    match = factories.league_match()
    contexts = [
        browser.new_context(base_url=live_server.url, locale="nb-NO", java_script_enabled=False, viewport=PHONE)
        for _ in range(2)
    ]
    try:
        home, away = (c.new_page() for c in contexts)
        for page in (home, away):
            page.set_default_timeout(10_000)
        log_in(home, match.home.coach)
        home.goto(f"/matches/{match.pk}/")
        propose(home, match, (day(4), "20:00"))
        expect(home.locator(".messages")).to_contain_text("1 dato foreslått")  # the redirect back, with its message
        assert home.url.endswith(f"/matches/{match.pk}/")

        # a date in the past is refused on the page, nothing proposed
        yesterday = timezone.localdate() - datetime.timedelta(days=1)
        propose(home, match, (yesterday, "20:00"))
        expect(home.locator(f"#schedule-{match.pk} .errorlist")).to_contain_text("er passert")

        log_in(away, match.away.coach)
        away.goto(f"/matches/{match.pk}/")
        away.locator(f"#schedule-{match.pk}").get_by_role("button", name="Godta").click()
        expect(away.locator(".messages")).to_contain_text("Datoen er avtalt")
        assert away.url.endswith(f"/matches/{match.pk}/") and fits_the_phone(away)
    finally:
        for context in contexts:
            context.close()

    expected = timezone.make_aware(datetime.datetime.combine(day(4), datetime.time(20, 0)))
    assert feed_start(live_server, match.away_id, match.pk) == expected
