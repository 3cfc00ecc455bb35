"""The public pages' cache: a visitor's whole page, kept under the league version.

Every committed write to the league's data raises the version (league.lib.writes), so a page kept under
the old one is never shown again. Only visitors share pages, and a visitor's page holds nothing of its
own: the nav is the same for every visitor, there is no CSRF token on it (the language switch needs none,
league.views.language), and a page with a message for its reader is not kept. So a kept page is served
as it was rendered, nothing in it rewritten. A member's page carries his own links and forms and is
rendered each time; its heavy parts are `{% cache %}` fragments keyed by what they show.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from league.models import LeagueVersion

View = Callable[..., HttpResponse]


def league_version() -> str:
    row = LeagueVersion.objects.filter(pk=1).values_list("token", "number").first()
    return "{}-{}".format(*row) if row else "0"


def visitor_key(request: HttpRequest) -> str | None:
    """The key a visitor's page is kept by, or None when this request's page is not to be kept."""
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated:
        return None
    if connection.in_atomic_block:
        return None  # this transaction's own writes may show, which no one else sees yet
    if len(messages.get_messages(request)):
        return None  # a message is for this visitor only
    htmx = (request.headers.get("HX-Request", ""), request.headers.get("HX-Target", ""))
    parts = (league_version(), translation.get_language(), htmx, request.get_full_path())
    return "visitor-page:" + hashlib.md5(repr(parts).encode()).hexdigest()


def kept_for_visitors(view: View) -> View:
    """`@kept_for_visitors` on a public page's view."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        key = visitor_key(request)
        if key is None:
            return view(request, *args, **kwargs)
        kept = cache.get(key)
        if kept is not None:
            content, content_type = kept
            return HttpResponse(content, content_type=content_type)
        response = view(request, *args, **kwargs)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            cache.set(key, (response.content, response["Content-Type"]), settings.PAGE_CACHE_SECONDS)
        return response

    return wrapped
