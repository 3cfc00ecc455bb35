"""Every `next` (or `back`) that chooses a redirect is checked (league.lib.redirects): a hostile or garbled one
leads to the page's default, with the write done, never off the site and never to a server error."""

import datetime

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from league.lib.redirects import next_url, safe_next
from matches.models import DateProposal
from teams.models import Player
from tests import factories
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# `x` is what the fuzzer found: Django's redirect() reads it as a view's name and fails on it.
HOSTILE = [
    "x",
    "../x",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "https://evil.example/phish",
    "http://testserver@evil.example/",
    "javascript:alert(1)",
    " //evil.example",
    "\x00",
    "x" * 3000,
]


@pytest.mark.parametrize("url", HOSTILE)
def test_a_hostile_next_is_not_taken(url):
    request = RequestFactory().post("/", {"next": url})
    assert next_url(request) is None
    assert safe_next(request, "home") == "/"


@pytest.mark.parametrize("url", ["/teams/1/manage/", "/my/?page=2"])
def test_a_path_on_the_site_is_taken(url):
    assert next_url(RequestFactory().post("/", {"next": url})) == url
    assert next_url(RequestFactory().get("/", {"next": url})) == url


def test_the_sites_own_address_is_taken():
    """The language switch of a form shown again sends the page's Referer, an absolute address."""
    assert next_url(RequestFactory().post("/", {"next": "http://testserver/my/"})) == "http://testserver/my/"
    assert next_url(RequestFactory().post("/", {"next": "http://testserver.evil.example/my/"})) is None


# --- every page that follows one ------------------------------------------------------------------


@pytest.mark.parametrize("url", HOSTILE)
def test_player_edit_saves_and_goes_to_the_player_whatever_next_says(client, coach, url):
    player = factories.human_team(coach).players.order_by("number").first()
    client.force_login(coach)
    response = client.post(reverse("player_edit", args=[player.pk]), {"name": "Ny", "number": "42", "next": url})
    assert response.status_code == 302 and response["Location"] == player.get_absolute_url()
    saved = Player.objects.get(pk=player.pk)
    assert (saved.name, saved.number) == ("Ny", 42)
    assert "Lagret." in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("url", HOSTILE)
def test_log_in_goes_where_it_would_without_next(client, coach, url):
    plain = client.post(reverse("login"), {"username": coach.username, "password": PASSWORD})
    client.logout()
    response = client.post(reverse("login"), {"username": coach.username, "password": PASSWORD, "next": url})
    assert response.status_code == 302 and response["Location"] == plain["Location"]


def test_log_in_follows_a_next_on_the_site_and_does_not_show_a_hostile_one(client, coach):
    html = client.get(reverse("login"), {"next": "//evil.example"}).content.decode()
    assert '<input type="hidden" name="next" value="">' in html
    next_page = reverse("team_create")
    response = client.post(reverse("login"), {"username": coach.username, "password": PASSWORD, "next": next_page})
    assert response["Location"] == next_page


@pytest.mark.parametrize("url", HOSTILE)
def test_log_out_goes_to_the_front_page(client, coach, url):
    client.force_login(coach)
    response = client.post(reverse("logout"), {"next": url})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("url", HOSTILE)
def test_the_language_switch_sets_the_language_and_goes_to_the_front_page(client, url):
    response = client.post(reverse("set_language"), {"language": "en", "next": url})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_the_language_switch_goes_back_to_the_page_it_was_chosen_on(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/standings/?season=1"})
    assert response["Location"] == "/standings/?season=1"


@pytest.mark.parametrize("back", ["x", "//evil.example", "https://evil.example/", "javascript:alert(1)", "\x00"])
def test_a_date_proposal_with_a_hostile_back_goes_to_the_match(client, back):
    """`back` names a page (Mitt lag, the board's rounds) rather than holding an address: anything else is
    the match page."""
    match = factories.league_match()
    client.force_login(match.home.coach)
    day = timezone.localdate() + datetime.timedelta(days=3)
    data = {"date_1": day.isoformat(), "time_1": "19:00", "back": back}
    response = client.post(reverse("match_propose", args=[match.pk]), data)
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert DateProposal.objects.filter(match=match, status="open").count() == 1
