"""The password reset, "Glemt passord?", in the browser: a coach who forgot his password asks for a link
from the log-in page, opens the link from his e-mail, chooses a new password and logs in with it."""

import re

import pytest
from django.core import mail
from django.test import override_settings
from playwright.sync_api import expect

from tests import factories

NEW = "Blodbolle-Torshov-1987"


@pytest.mark.long  # plain forms: tests/league/test_password_reset.py through Django's test client
def test_a_coach_chooses_a_new_password_through_the_emails_link(page, live_server):
    factories.user("kari", email="kari@example.org", first_name="Kari")
    with override_settings(SITE_URL=live_server.url):
        page.goto("/accounts/login/")
        page.get_by_role("link", name="Glemt passord?").click()
        expect(page.locator("main")).to_contain_text("3 ganger i timen for én adresse")
        page.get_by_label("E-postadresse").fill("kari@example.org")
        page.get_by_role("button", name="Send lenken").click()
        expect(page.locator("h1")).to_have_text("Sjekk e-posten din")

        [message] = mail.outbox
        link = re.search(rf"{re.escape(live_server.url)}/accounts/reset/\S+/", message.body).group(0)
        page.goto(link)
        expect(page.locator("h1")).to_have_text("Velg et nytt passord")
        page.get_by_label("Nytt passord").fill(NEW)
        page.get_by_label("Det nye passordet en gang til").fill(NEW)
        page.get_by_role("button", name="Lagre det nye passordet").click()
        expect(page.locator("h1")).to_have_text("Passordet ditt er endret")

        page.get_by_role("main").get_by_role("link", name="Logg inn").click()
        page.fill("#id_username", "kari")
        page.fill("#id_password", NEW)
        page.locator("main").get_by_role("button", name="Logg inn").click()
        expect(page.locator(".site-nav")).to_contain_text("kari")

        page.goto(link)  # once only
        expect(page.locator("h1")).to_have_text("Lenken virker ikke lenger")
