"""The base pages, health check, accounts and languages (issue 2)."""

from unittest import mock

import pytest
from django.contrib.auth.models import Group
from django.db import OperationalError
from django.urls import reverse

from league.accounts import BOARD_GROUP, COACH_GROUP, is_board

pytestmark = pytest.mark.django_db


def test_home_has_league_name_navigation_and_csrf_header_for_htmx(client, board_member):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Torshov Touchdown" in html
    for name in ("standings", "matches", "teams", "rules", "login"):
        assert f'href="{reverse(name)}' in html
    assert "X-CSRFToken" not in html  # a visitor's page holds no token: it is kept whole (league.lib.pagecache)
    client.force_login(board_member)
    html = client.get("/").content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in html  # a member's htmx requests carry his
    assert "/static/django_htmx/htmx-2.min.js" in html  # django-htmx's own copy, served by us (no CDN)
    assert 'lang="nb"' in html


@pytest.mark.parametrize("name", ["standings", "matches", "teams", "rules"])
def test_navigation_pages_render(client, name):
    assert client.get(reverse(name)).status_code == 200


def test_interface_is_norwegian_by_default_and_english_on_request(client):
    assert "Logg inn" in client.get("/").content.decode()
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert "Log in" in html and 'lang="en"' in html


def test_healthz_answers_200_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True}


def test_healthz_answers_503_when_the_database_does_not(client):
    with mock.patch("league.lib.middleware.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] is False


def test_healthz_ignores_unknown_hosts(client):
    # The container health check calls it by IP, which ALLOWED_HOSTS does not list in production.
    assert client.get("/healthz", HTTP_HOST="10.1.2.3:8000").status_code == 200


def test_board_and_coach_groups_exist_and_board_has_league_permissions():
    board = Group.objects.get(name=BOARD_GROUP)
    assert Group.objects.filter(name=COACH_GROUP).exists()
    assert board.permissions.filter(content_type__app_label="auth", codename="change_user").exists()


def test_login_and_logout(client, coach):
    response = client.post(reverse("login"), {"username": "trener", "password": "correct-horse-battery-staple"})
    assert response.status_code == 302
    assert "Logg ut (trener)" in client.get("/").content.decode()
    client.post(reverse("logout"))
    assert "Logg inn" in client.get("/").content.decode()


def test_wrong_password_is_refused_with_a_message(client, coach):
    response = client.post(reverse("login"), {"username": "trener", "password": "nope"})
    assert response.status_code == 200
    assert "errors" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated


def test_board_roles(board_member, coach):
    assert is_board(board_member)
    assert not is_board(coach)


def test_board_member_command_gives_admin_access(client, django_user_model):
    from django.core.management import call_command

    call_command("board_member", "kasserer")
    user = django_user_model.objects.get(username="kasserer")
    user.set_password("pw-for-test-1234")
    user.save()
    assert is_board(user) and user.is_staff
    client.force_login(user)
    assert client.get("/admin/").status_code == 200


def test_htmx_requests_are_detected(client):
    assert client.get("/", HTTP_HX_REQUEST="true").wsgi_request.htmx
    assert not client.get("/").wsgi_request.htmx


def test_favicon_ico_is_the_leagues_ball_not_a_404(client):
    """Issue 26: browsers ask for /favicon.ico on pages that name no icon (the admin, the error pages)."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].startswith("/static/img/favicon") and response["Location"].endswith(".svg")
