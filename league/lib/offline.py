"""Which pages the service worker (static/js/sw.js) may keep for reading offline.

A page says so with `X-Offline: keep`; the service worker keeps nothing else. `keep_offline` is called by the
few views a coach reads at the table (Mitt lag, the team's roster, its matches, the rules); the middleware takes
the mark off again whatever the view said when the answer must not be kept (docs/pwa.md).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

OFFLINE_HEADER = "X-Offline"
KEEP = "keep"
# this answer is not kept, but a copy kept before of the same page stays: the person and the page are the same,
# only the moment is not (a flash message read, a cookie renewed)
SKIP = "skip"


def keep_offline(request: HttpRequest, response: HttpResponse, *, when: bool = True) -> HttpResponse:
    """`response`, marked as a page the logged-in person's phone may keep: a GET's 200, never an htmx
    fragment (only whole pages are shown offline), never for an anonymous visitor."""
    if (
        when
        and request.method == "GET"
        and response.status_code == 200
        and request.user.is_authenticated
        and not request.headers.get("HX-Request")
    ):
        response[OFFLINE_HEADER] = KEEP
    return response


def sets_a_cookie(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether the answer sets a cookie other than the CSRF cookie sent again unchanged. Django sends that
    one on every page with a form, to renew its expiry; a new session, a new CSRF token (a log-in) or a
    message read (the messages cookie) is a page of its moment, never kept."""
    for name, morsel in response.cookies.items():
        if name != settings.CSRF_COOKIE_NAME or morsel.value != request.COOKIES.get(name):
            return True
    return False


class OfflineCopyMiddleware:
    """Takes `X-Offline: keep` off the admin's answers, and turns it into `skip` on one that sets a cookie.
    Placed above the session and CSRF middleware, so it sees the cookies they set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.get(OFFLINE_HEADER) != KEEP:
            return response
        if request.path.startswith("/admin/"):
            del response[OFFLINE_HEADER]
        elif sets_a_cookie(request, response):
            response[OFFLINE_HEADER] = SKIP
        return response
