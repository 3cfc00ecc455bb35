"""The installable app (league.views.pwa, league.lib.offline): the manifest, /sw.js, which pages the service worker
may keep (`X-Offline: keep`) and the log-out that tells the browser to forget them. The worker itself runs in
tests/browser/test_pwa_browser.py."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template import loader
from django.test import Client, RequestFactory
from django.urls import resolve, reverse
from PIL import Image

from league.lib.offline import OFFLINE_HEADER, OfflineCopyMiddleware
from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match
from tests import factories

pytestmark = pytest.mark.django_db


def _static_file(url: str) -> str | None:
    """The file behind a static URL, found as collectstatic would find it."""
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    assert url.startswith(prefix), url
    return finders.find(url.removeprefix(prefix))


class TestManifest:
    def test_is_json_in_norwegian_with_the_sites_colours(self, client):
        response = client.get("/manifest.webmanifest")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/manifest+json"
        manifest = json.loads(response.content)
        assert manifest["name"] == "Torshov Touchdown"
        assert manifest["short_name"] == "Torshov"
        assert manifest["lang"] == "nb"
        assert manifest["description"].startswith("Torshov-ligaens Blood Bowl")
        assert manifest["display"] == "standalone"
        assert manifest["scope"] == "/"
        css = Path(finders.find("css/league.css")).read_text()
        assert f"--pitch: {manifest['theme_color']};" in css
        assert f"--chalk: {manifest['background_color']};" in css

    def test_is_norwegian_whatever_the_language_switch_says(self, client):
        client.post(reverse("set_language"), {"language": "en", "next": "/"})
        manifest = json.loads(client.get("/manifest.webmanifest").content)
        assert manifest["description"].startswith("Torshov-ligaens Blood Bowl")

    def test_starts_at_my_team(self, client):
        start_url = json.loads(client.get("/manifest.webmanifest").content)["start_url"]
        assert resolve(start_url).url_name == "coach_home"

    def test_icons_exist_at_the_sizes_they_say(self, client):
        icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
        found = {}
        for icon in icons:
            path = _static_file(icon["src"])
            assert path, icon["src"]
            width, height = Image.open(path).size
            assert icon["sizes"] == f"{width}x{height}"
            assert icon["type"] == "image/png"
            found[(icon["sizes"], icon["purpose"])] = path
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(found)

    def test_every_page_links_it_with_its_colour_and_the_apple_icon(self, client):
        html = client.get(reverse("standings")).content.decode()
        assert f'<link rel="manifest" href="{reverse("manifest")}">' in html
        assert '<meta name="theme-color" content="#1f5d2e">' in html
        apple = html.split('<link rel="apple-touch-icon" href="', 1)[1].split('"', 1)[0]
        assert Image.open(_static_file(apple)).size == (180, 180)
        assert f'data-sw="{reverse("service_worker")}"' in html


class TestServiceWorker:
    def test_served_from_the_root_never_stale(self, client):
        response = client.get("/sw.js")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/javascript")
        assert response["Service-Worker-Allowed"] == "/"
        assert response["Cache-Control"] == "no-cache"
        assert response.content == Path(finders.find("js/sw.js")).read_bytes()

    def test_handles_pages_static_files_and_pushes(self, client):
        script = client.get("/sw.js").content.decode()
        for handler in ("fetch", "push", "notificationclick", "activate"):
            assert f'addEventListener("{handler}"' in script
        assert "/static/img/icon-192.png" in script and finders.find("img/icon-192.png")

    def test_answers_get_only(self, client):
        assert client.post("/sw.js").status_code == 405


class TestOfflineMark:
    """`X-Offline: keep` on the four pages a coach reads at the table, for that coach; on nothing else."""

    @classmethod
    def setUpTestData(cls):
        cls.match = factories.league_match()
        cls.coach = cls.match.home.coach
        generate_fixtures(cls.match.season.divisions.get(level=2))  # a match of two other teams
        cls.other_match = Match.objects.exclude(division=cls.match.division).first()
        cls.other_team = cls.other_match.home

    def _client(self, user=None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
            # the first page sets the CSRF cookie, and a page that sets a new cookie is never kept
            client.get(reverse("standings"))
        return client

    def _kept(self, client, url, **headers) -> bool:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, url
        return response.get(OFFLINE_HEADER) == "keep"

    def _his_pages(self):
        return [
            reverse("coach_home"),
            reverse("team", args=[self.match.home_id]),
            reverse("match", args=[self.match.pk]),
            reverse("rules"),
        ]

    def test_the_coachs_four_pages_are_kept(self):
        client = self._client(self.coach)
        for url in self._his_pages():
            assert self._kept(client, url), url

    def test_other_pages_are_not(self):
        client = self._client(self.coach)
        for url in [
            reverse("standings"),
            reverse("home"),
            reverse("team", args=[self.other_team.pk]),
            reverse("match", args=[self.other_match.pk]),
            reverse("notices"),
            reverse("team_ledger", args=[self.match.home_id]),  # the coach's own, but not for the table
        ]:
            assert not self._kept(client, url), url

    def test_nothing_for_an_anonymous_visitor(self):
        client = self._client()
        assert client.get(reverse("coach_home"))["Location"].startswith(reverse("login"))
        for url in self._his_pages()[1:]:
            assert not self._kept(client, url), url

    def test_not_an_htmx_fragment(self):
        client = self._client(self.coach)
        assert not self._kept(client, reverse("match", args=[self.match.pk]), HX_Request="true")

    def test_not_a_page_that_sets_a_new_cookie(self):
        client = Client()
        client.force_login(self.coach)
        first = client.get(reverse("coach_home"))  # a new CSRF cookie: a page of its moment
        assert settings.CSRF_COOKIE_NAME in first.cookies
        assert first[OFFLINE_HEADER] == "skip"  # not kept; a copy kept before stays
        again = client.get(reverse("coach_home"))  # the same cookie sent again to renew it: kept
        assert again.cookies[settings.CSRF_COOKIE_NAME].value == first.cookies[settings.CSRF_COOKIE_NAME].value
        assert again[OFFLINE_HEADER] == "keep"

    def test_never_the_admins(self):
        def marked(request):
            return HttpResponse(headers={OFFLINE_HEADER: "keep"})

        middleware = OfflineCopyMiddleware(marked)
        assert OFFLINE_HEADER not in middleware(RequestFactory().get("/admin/teams/team/"))
        assert middleware(RequestFactory().get("/rules/"))[OFFLINE_HEADER] == "keep"

    def test_a_new_session_cookie_skips_the_answer(self):
        def new_session(request):
            response = HttpResponse(headers={OFFLINE_HEADER: "keep"})
            response.set_cookie(settings.SESSION_COOKIE_NAME, "new")
            return response

        assert OfflineCopyMiddleware(new_session)(RequestFactory().get("/my/"))[OFFLINE_HEADER] == "skip"


class TestLogout:
    def test_tells_the_browser_to_forget_the_kept_pages(self, coach):
        client = Client()
        client.force_login(coach)
        response = client.post(reverse("logout"))
        assert response.status_code == 302
        assert response["Clear-Site-Data"] == '"cache", "storage"'
        assert "_auth_user_id" not in client.session

    def test_pages_say_who_is_anonymous_to_the_script(self, client, coach):
        assert b"data-anonymous" in client.get(reverse("standings")).content
        client.force_login(coach)
        html = client.get(reverse("standings")).content.decode()
        assert "data-anonymous" not in html
        assert f'action="{reverse("logout")}" class="inline-form" data-forget-offline' in html

    def test_an_error_page_without_a_user_forgets_nothing(self):
        """The 503 page (the database away) knows no user: the coach's kept pages are what the phone needs then."""
        assert "data-anonymous" not in loader.get_template("503.html").render()

    def test_the_log_in_form_forgets_too(self, client):
        assert b"data-forget-offline" in client.get(reverse("login")).content
