"""Log-in throttling with django-axes (issues 14 and 26): ten wrong passwords lock that username from
that address for a while, with a Norwegian message saying until when and a warning of the tries left
before it; the club's other coaches on the same network, and the coach himself elsewhere, still log
in. Fifty failures over any usernames lock the address (password spraying)."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.urls import reverse
from django.utils import timezone

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
LOGIN = reverse("login")


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    # Dozens of log-ins per test: the real hasher's cost is not what is tested here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def log_in(client, username, password, ip="192.0.2.10"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


def fail(client, username, times, ip="192.0.2.10"):
    """The form again with its error, until the tenth failure, which is answered by the lock-out page."""
    for i in range(1, times + 1):
        assert log_in(client, username, "wrong", ip=ip).status_code == (429 if i >= 10 else 200)


def test_ten_wrong_passwords_lock_the_account_and_the_right_one_is_refused_with_the_message(client, coach):
    fail(client, coach.username, 9)
    assert log_in(client, coach.username, PASSWORD).status_code == 302  # nine are forgiven

    client.logout()
    fail(client, coach.username, 10)
    response = log_in(client, coach.username, PASSWORD)
    assert response.status_code == 429
    html = response.content.decode()
    until = timezone.localtime(AccessAttempt.objects.get(username=coach.username).attempt_time + timedelta(minutes=15))
    assert "For mange mislykkede innlogginger for denne kontoen fra dette nettverket." in html
    assert "Andre trenere kan fortsatt logge inn." in html
    assert f"Prøv igjen etter kl. {until:%H:%M}." in html
    assert "site-header" in html  # in the site's layout
    assert "_auth_user_id" not in client.session


def test_the_lock_is_on_the_username_from_that_address_and_lifts_after_the_cool_off(client, coach):
    fail(client, coach.username, 10)
    assert log_in(client, coach.username, PASSWORD).status_code == 429
    # Someone who knows his username cannot lock him out from elsewhere (issue 26).
    assert log_in(client, coach.username, PASSWORD, ip="198.51.100.7").status_code == 302
    client.logout()
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert log_in(client, coach.username, PASSWORD).status_code == 302


def test_a_club_night_one_coachs_typos_lock_no_one_else_on_the_shared_network(client, coach, other_coach):
    fail(client, coach.username, 10, ip="203.0.113.6")
    assert log_in(client, other_coach.username, PASSWORD, ip="203.0.113.6").status_code == 302


def test_the_form_says_how_many_tries_are_left_before_the_lock(client, coach):
    html = log_in(client, coach.username, "wrong").content.decode()
    assert "9 feil passord til, så stenges innlogging som denne brukeren fra dette nettverket en stund." in html
    for _ in range(7):
        log_in(client, coach.username, "wrong")
    html = log_in(client, coach.username, "wrong").content.decode()  # the ninth
    assert "Ett feil passord til, så stenges innlogging" in html
    assert log_in(client, coach.username, "wrong").status_code == 429  # the tenth locks


def test_failures_during_the_lock_do_not_extend_it(client, coach):
    fail(client, coach.username, 10)
    first = AccessAttempt.objects.get().attempt_time
    log_in(client, coach.username, "wrong-again")
    assert AccessAttempt.objects.get().attempt_time == first


def test_an_address_spraying_many_usernames_is_locked_at_its_own_higher_limit(client, coach, other_coach, settings):
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 50
    for i in range(49):
        assert log_in(client, f"guess{i}", "wrong", ip="203.0.113.5").status_code == 200
    assert log_in(client, other_coach.username, PASSWORD, ip="203.0.113.5").status_code == 302  # 49: still open
    client.logout()
    log_in(client, "guess49", "wrong", ip="203.0.113.5")  # the 50th
    response = log_in(client, other_coach.username, PASSWORD, ip="203.0.113.5")
    assert response.status_code == 429
    assert "For mange mislykkede innlogginger fra dette nettverket." in response.content.decode()
    assert log_in(client, coach.username, PASSWORD, ip="192.0.2.99").status_code == 302


def test_the_board_unlocks_in_the_admin(client, coach, board_member):
    fail(client, coach.username, 10)
    attempt = AccessAttempt.objects.get()
    client.force_login(board_member)
    assert client.get(reverse("admin:axes_accessattempt_changelist")).status_code == 200
    response = client.post(reverse("admin:axes_accessattempt_delete", args=[attempt.pk]), {"post": "yes"})
    assert response.status_code == 302
    client.logout()
    assert log_in(client, coach.username, PASSWORD).status_code == 302


def test_the_admin_log_in_is_throttled_too(client, board_member):
    for _ in range(10):
        client.post(reverse("admin:login"), {"username": board_member.username, "password": "wrong"})
    response = client.post(reverse("admin:login"), {"username": board_member.username, "password": PASSWORD})
    assert response.status_code == 429


def test_client_address_behind_proxies_is_the_one_the_nearest_trusted_proxy_saw(rf, settings):
    from league.accounts import client_ip

    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.1", REMOTE_ADDR="10.0.0.1")
    assert client_ip(request) == "10.0.0.1"  # no proxy trusted: a forged header is ignored
    settings.PROXY_COUNT = 1
    assert client_ip(request) == "192.0.2.1"
