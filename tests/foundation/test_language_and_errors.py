"""Norwegian by default and error pages in the site's layout and language (issue 12)."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views import defaults

pytestmark = pytest.mark.django_db


def test_a_browser_asking_for_english_still_gets_norwegian(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert 'lang="nb"' in html and "Logg inn" in html


def test_english_only_when_chosen_and_it_sticks(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/"}, HTTP_ACCEPT_LANGUAGE="nb")
    html = client.get(reverse("standings"), HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert 'lang="en"' in html and "Log in" in html
    client.post(reverse("set_language"), {"language": "nb", "next": "/"})
    assert 'lang="nb"' in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_an_unknown_language_cookie_falls_back_to_norwegian(client):
    client.cookies["django_language"] = "de"
    assert 'lang="nb"' in client.get("/").content.decode()


def test_404_in_the_layout_and_in_norwegian(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Fant ikke siden" in html and 'class="site-nav"' in html and 'lang="nb"' in html


def test_403_in_the_layout_and_in_norwegian(client, make_teams, other_coach):
    [team] = make_teams(1)
    client.force_login(other_coach)
    response = client.get(reverse("team_manage", args=[team.pk]))
    html = response.content.decode()
    assert response.status_code == 403
    assert "Ikke tillatt" in html and 'class="site-nav"' in html


def test_403_offers_log_in_to_the_anonymous():
    request = RequestFactory().get("/teams/1/manage/")
    request.user = AnonymousUser()
    with translation.override("nb"):
        response = defaults.permission_denied(request, PermissionDenied())
    assert response.status_code == 403 and "Logg inn" in response.content.decode()


def test_405_in_the_layout_with_its_allow_header(client):
    response = client.get(reverse("match_confirm", args=[1]))  # require_POST answers before the match is read
    html = response.content.decode()
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert "Ikke mulig her" in html and 'class="site-nav"' in html


def test_405_in_english_when_chosen(client):
    client.cookies["django_language"] = "en"
    assert "Not possible here" in client.get(reverse("match_confirm", args=[1])).content.decode()


def test_500_in_the_layout_and_in_norwegian_without_a_request_context():
    request = RequestFactory().get("/")
    with translation.override("nb"):
        response = defaults.server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert "Noe gikk galt" in html and 'class="site-nav"' in html


def test_the_health_check_keeps_its_plain_405(client):
    response = client.post("/healthz")
    assert response.status_code == 405 and response.content == b""
