import re
import uuid
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.shortcuts import render
from django.utils import translation
from psycopg import Error as PsycopgError

from league.lib import logs

HEALTH_PATH = "/healthz"


# /healthz's own wait for the database: a load balancer's check (often 1-2 s) must see the 503, not time out.
HEALTH_DATABASE_TIMEOUT = 0.5


def database_answers() -> bool:
    """SELECT 1 answered; with the pool, a connection waited for HEALTH_DATABASE_TIMEOUT seconds at most
    (a request's own wait, DB_POOL_TIMEOUT, may be longer)."""
    pool = getattr(connection, "pool", None)
    try:
        if pool is None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
            return True
        pool.open()  # as Django's first connection would
        with pool.connection(timeout=HEALTH_DATABASE_TIMEOUT) as conn:
            conn.execute("SELECT 1")
    except (DatabaseError, PsycopgError):  # the pool's timeout is psycopg's own error
        return False
    return True


class HealthCheckMiddleware:
    """Answers /healthz before host validation and the HTTPS redirect.

    The container's HEALTHCHECK and load balancers call it by IP over plain HTTP,
    which ALLOWED_HOSTS and SECURE_SSL_REDIRECT would otherwise refuse.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
        ok = database_answers()
        response = JsonResponse({"status": "ok" if ok else "unavailable", "database": ok}, status=200 if ok else 503)
        response["Cache-Control"] = "no-store"
        return response


class PermissionsPolicyMiddleware:
    """Sends settings.PERMISSIONS_POLICY on every response; Django has no setting for it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


class RequestIdMiddleware:
    """Gives each request an id (a proxy's X-Request-ID if sane, else a new one): on every log line
    written while it is served, and in the response's X-Request-ID header, so a report of an error
    can be matched with its traceback."""

    HEADER = "X-Request-ID"
    SANE = re.compile(r"[A-Za-z0-9._:-]{1,64}")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(self.HEADER, "")
        request.id = given if self.SANE.fullmatch(given) else uuid.uuid4().hex
        # Kept until the request is finished (league.lib.logs.forget_request_id): Django logs a 404
        # after the middleware has returned.
        logs.request_id.set(request.id)
        response = self.get_response(request)
        response[self.HEADER] = request.id
        return response


class LeagueLanguageMiddleware(LocaleMiddleware):
    """Norwegian whatever the browser asks; English only when chosen with the language switch (its cookie).

    Django's LocaleMiddleware follows Accept-Language, so a browser set to English got the whole site in
    English on the first visit, although the league speaks Norwegian.
    """

    def process_request(self, request: HttpRequest) -> None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


class NotAllowedPageMiddleware:
    """A 405 in the site's layout and language: Django has no handler405, and require_POST answers a blank page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if isinstance(response, HttpResponseNotAllowed) and not response.content:
            page = render(request, "405.html", status=405)
            page["Allow"] = response["Allow"]
            return page
        return response
