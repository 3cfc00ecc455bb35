"""Notifications end to end (issue 27): coach A files a report in his browser; coach B's e-mail, read back
from a real SMTP server, links to it; B opens the link (logged out, JavaScript off), logs in, lands on
the match and confirms; A's inbox shows the confirmation, with the unread count in the nav."""

import re

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from league.models import Notification
from matches.models import Match
from tests import factories
from tests.browser.conftest import screenshot
from tests.conftest import PASSWORD
from tests.smtp import body, smtp_server, subject


def log_in(page, user):
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Logg inn").click()
    expect(page.locator(".site-nav")).to_contain_text(user.username)


@pytest.mark.long  # the notices' e-mails and links are tested through Django's test client
def test_a_report_filed_reaches_the_other_coach_by_email_and_his_confirmation_the_filer(new_page, browser, live_server):
    match = factories.ready_match()
    home, away = match.home, match.away
    kari, ola = home.coach, away.coach
    ola.email = "ola@example.org"
    ola.save(update_fields=["email"])

    with smtp_server() as server, override_settings(SITE_URL=live_server.url):
        # A files the report (JavaScript on).
        a = new_page()
        a.goto("/accounts/login/")
        log_in(a, kari)
        a.goto(f"/matches/{match.pk}/report/")
        a.fill("#home_score", "2")
        a.fill("#away_score", "1")
        a.locator(f"#id_p{home.players.order_by('number').first().pk}_touchdowns").fill("2")
        a.locator(f"#id_p{away.players.order_by('number').first().pk}_touchdowns").fill("1")
        a.get_by_role("button", name="Lever rapporten").click()
        expect(a.locator(".messages")).to_contain_text("Rapporten er levert")

        # B's e-mail, as the SMTP server received it, in Norwegian, with its links.
        [message] = server.wait(1)
        assert message["To"] == "ola@example.org"
        assert subject(message) == (
            f"Torshov Touchdown: {home.name} har levert rapporten for {match} (2–1): bekreft eller bestrid den."
        )
        text = body(message)
        link = re.search(rf"{re.escape(live_server.url)}/my/notices/\d+/", text).group(0)
        assert f"{live_server.url}/notices/unsubscribe/" in message["List-Unsubscribe"]

        # B opens the link with JavaScript off, logs in, and lands on the match.
        context = browser.new_context(base_url=live_server.url, locale="nb-NO", java_script_enabled=False)
        context.set_default_timeout(10_000)
        try:
            b = context.new_page()
            b.goto(link)
            expect(b.locator("h1")).to_contain_text("Logg inn")
            log_in(b, ola)
            expect(b).to_have_url(f"{live_server.url}/matches/{match.pk}/")
            b.get_by_role("button", name="Bekreft rapporten").click()
            expect(b.locator(".messages")).to_contain_text("Rapporten er bekreftet")
        finally:
            context.close()
        assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
        assert Notification.objects.get(recipient=ola).read_at is not None  # opened by its link

        # A's inbox: the confirmation, unread, counted in the nav; no e-mail, he has no address.
        a.goto("/my/")
        expect(a.locator(".nav-notices .nav-count")).to_contain_text("1")
        a.locator(".nav-notices").click()
        notice = a.locator(".notice--unread")
        expect(notice).to_contain_text(f"Rapporten din for {match} (2–1) er bekreftet.")
        screenshot(a, "notices-inbox")
        notice.get_by_role("link").click()
        expect(a).to_have_url(f"{live_server.url}/matches/{match.pk}/")
        expect(a.locator(".nav-notices .nav-count")).to_have_count(0)
        assert len(server.messages) == 1
