"""The password reset, "Glemt passord?" (league.views.password_reset): the whole way through the e-mail's
link, in the site's Norwegian and the recipient's language, the same answer for an address the league does
not know, nothing for an inactive account, and a few links an hour per address and per network."""

import re

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from league.accounts import RESET_PER_ADDRESS, RESET_PER_NETWORK
from league.models import NoticeSettings
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "Blodbolle-Torshov-1987"
LINK = re.compile(re.escape(settings.SITE_URL) + r"(/accounts/reset/[^/\s]+/[^/\s]+/)")


@pytest.fixture
def kari(make_user):
    return make_user("kari", email="kari@example.org", first_name="Kari", last_name="Nordmann")


def ask(client, email, ip="10.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


def logs_in(client, username, password) -> bool:
    client.post(reverse("login"), {"username": username, "password": password})
    logged_in = "_auth_user_id" in client.session
    client.logout()
    return logged_in


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def main(response) -> str:
    """The page's own part (the header holds a CSRF token of its own per request)."""
    return text(response).split('<main id="main"', 1)[1]


def test_the_log_in_page_links_to_it(client):
    html = client.get(reverse("login")).content.decode()
    assert f'<a href="{reverse("password_reset")}">Glemt passord?</a>' in html


def test_the_page_says_the_limit_in_norwegian(client):
    page = text(client.get(reverse("password_reset")))
    assert "Glemt passord?" in page and "E-postadresse" in page
    assert f"{RESET_PER_ADDRESS} ganger i timen for én adresse, og {RESET_PER_NETWORK} ganger fra ett nettverk" in page


def test_the_link_sets_a_new_password_once(client, kari):
    response = ask(client, "KARI@example.org")  # as typed: the address is matched whatever its case
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert "Sjekk e-posten din" in text(client.get(response["Location"]))

    [message] = mail.outbox
    assert message.to == ["kari@example.org"]
    assert message.subject == "Torshov Touchdown: velg et nytt passord"
    assert "Hei, Kari Nordmann." in message.body and "Brukernavnet ditt er kari." in message.body
    link = LINK.search(message.body).group(1)

    form_page = client.get(link)  # Django moves the token into the session, out of the address
    assert form_page.status_code == 302
    assert "Velg et nytt passord" in text(client.get(form_page["Location"]))
    done = client.post(form_page["Location"], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert "Passordet ditt er endret" in text(client.get(done["Location"]))

    assert logs_in(client, "kari", NEW)
    assert not logs_in(client, "kari", PASSWORD)
    again = client.get(link)
    assert again.status_code == 200 and "Lenken virker ikke lenger" in text(again)


def test_a_weak_password_is_refused_on_the_form(client, kari):
    ask(client, "kari@example.org")
    form_page = client.get(LINK.search(mail.outbox[0].body).group(1))
    response = client.post(form_page["Location"], {"new_password1": "123", "new_password2": "123"})
    assert response.status_code == 422 and "errorlist" in response.content.decode()
    assert logs_in(client, "kari", PASSWORD)


def test_the_mail_is_in_the_recipients_language(client, kari):
    NoticeSettings.objects.create(user=kari, language="en")
    ask(client, "kari@example.org")  # asked on the Norwegian page
    [message] = mail.outbox
    assert message.subject == "Torshov Touchdown: choose a new password"
    assert "Your username is kari. The link works once, within 3 days." in message.body


@pytest.mark.parametrize("address", ["nobody@example.org", "inactive@example.org"])
def test_an_address_with_no_active_account_is_answered_as_a_known_one(client, kari, make_user, address):
    make_user("inactive", email="inactive@example.org", is_active=False)
    known = ask(client, "kari@example.org")
    known_page = main(client.get(known["Location"]))
    mail.outbox.clear()
    other = ask(client, address)
    assert (other.status_code, other["Location"]) == (known.status_code, known["Location"])
    assert main(client.get(other["Location"])) == known_page
    assert mail.outbox == []


def test_a_few_links_an_hour_per_address(client, kari):
    for _ in range(RESET_PER_ADDRESS):
        assert ask(client, "kari@example.org").status_code == 302
    refused = ask(client, "Kari@Example.org")
    assert refused.status_code == 429
    assert "Det er bedt om for mange lenker for denne adressen eller fra dette nettverket" in text(refused)
    assert len(mail.outbox) == RESET_PER_ADDRESS
    # an unknown address is refused the same way, after as many
    for _ in range(RESET_PER_ADDRESS):
        assert ask(client, "nobody@example.org", ip="10.0.0.2").status_code == 302
    assert ask(client, "nobody@example.org", ip="10.0.0.2").status_code == 429
    # another address from the first network is still answered
    assert ask(client, "someone@example.org").status_code == 302


def test_a_few_links_an_hour_per_network(client, kari):
    for n in range(RESET_PER_NETWORK):
        assert ask(client, f"coach{n}@example.org").status_code == 302
    assert ask(client, "kari@example.org").status_code == 429 and mail.outbox == []
    assert ask(client, "kari@example.org", ip="10.0.0.9").status_code == 302 and len(mail.outbox) == 1


@pytest.mark.parametrize("path", ["/accounts/reset/x/y/", "/accounts/reset/OTk5OTk5OTk5OTk5OTk5OTk5OTk5/x-y/"])
def test_a_made_up_link_is_the_no_longer_works_page(client, path):
    response = client.get(path)
    assert response.status_code == 200 and "Lenken virker ikke lenger" in text(response)


def test_a_new_password_ends_a_lock_out(client, kari):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "kari", "password": "wrong"})
    assert not logs_in(client, "kari", PASSWORD)  # locked out
    ask(client, "kari@example.org")
    form_page = client.get(LINK.search(mail.outbox[0].body).group(1))
    client.post(form_page["Location"], {"new_password1": NEW, "new_password2": NEW})
    assert logs_in(client, "kari", NEW)
