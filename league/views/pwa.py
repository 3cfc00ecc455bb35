"""The installable app: its manifest and its service worker, both at the site's root (docs/pwa.md)."""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# the site's colours (static/css/league.css: --pitch, --chalk)
THEME_COLOUR = "#1f5d2e"
BACKGROUND_COLOUR = "#f7f5ef"
SERVICE_WORKER = "js/sw.js"


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest. In Norwegian whatever the language switch says: the browser fetches it without
    cookies, and the app on the home screen is the league's, named as the league names itself."""
    with translation.override("nb"):
        data = {
            "id": "/",
            "name": "Torshov Touchdown",
            "short_name": "Torshov",
            "description": _("The Torshov League's Blood Bowl: your team, your matches and the rules, at the table."),
            "lang": "nb",
            "dir": "ltr",
            "start_url": reverse("coach_home"),
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOUR,
            "background_color": BACKGROUND_COLOUR,
            "icons": [
                {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
                {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
                {
                    "src": static("img/icon-maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
            ],
        }
    response = JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js from the site's root: a worker controls only the paths under its own address. Never
    stale (no-cache): the browser asks again on each visit, so the first visit after a deploy gets a new one."""
    found = finders.find(SERVICE_WORKER)
    if not found:
        raise Http404
    response = HttpResponse(Path(found).read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
