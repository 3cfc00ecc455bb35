"""Public pages served from a cache that every write invalidates (issues 16, 25).

The key holds the league version (league.lib.writes raises it after every league write commits), the
language, htmx or not, and the path: a write changes the version, so the next request renders
afresh, and no one sees a table older than the last confirmed report. Only anonymous visitors share
cached pages (a logged-in page names its user and his links); their CSRF token is put back per
request. Everyone gets an ETag and Last-Modified on the same version, and a 304 when his copy is
current; a logged-in member's page is his own and rendered each time. The version
is read on every request, so every process serves a page of the current version whatever cache it keeps
pages in.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from league.lib.plain_sql import aware, fetch_rows
from league.models import LeagueVersion

# The public pages: the same for every visitor of a role, changed only by league writes.
CACHED_PAGES = frozenset({"home", "standings", "cup", "team", "player", "leaders", "rules", "season"})
CSRF_MARK = "__CSRF_TOKEN__"
_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{32,})"')


_VERSION_SQL = f"SELECT token, number, changed_at FROM {LeagueVersion._meta.db_table} WHERE id = 1"


def league_version() -> tuple[str, int, Any] | None:
    """(token, number, changed_at) as committed (league.lib.writes raises it after every league write), or
    None inside a transaction, whose reads may see its own writes that no one else sees yet."""
    if connection.in_atomic_block:
        return None
    # Read on every request, cached pages included: one plain statement, not a queryset, since the
    # ORM's building of it cost a third of a cached page's time (issue 25: cached pages under 1 ms).
    rows = fetch_rows(_VERSION_SQL)
    if not rows:
        return None
    token, number, changed_at = rows[0]
    return token, number, aware(changed_at)


_MEMO: dict[Any, Any] = {}


def per_version(request: HttpRequest, key: Any, compute: Callable[[], Any]) -> Any:
    """`compute()` once per league version in this process (e.g. catalogue data a page shows): any
    league write gives a new version, so it is never older than the page around it. Without a
    version (this connection's own writes pending) it is computed each time."""
    version = getattr(request, "league_version", None)
    if version is None:
        return compute()
    memo_key = (version[0], version[1], key)
    if memo_key not in _MEMO:
        if len(_MEMO) > 5000:
            _MEMO.clear()
        _MEMO[memo_key] = compute()
    return _MEMO[memo_key]


class PageCacheMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        store = getattr(request, "_page_cache", None)
        if store is not None:
            self._store(request, response, *store)
        return response

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> HttpResponse | None:
        match = request.resolver_match
        if request.method not in ("GET", "HEAD") or match is None or match.url_name not in CACHED_PAGES:
            return None
        if len(getattr(request, "_messages", ())):
            return None  # a message waits to be shown once
        if request.user.is_authenticated:
            return None  # a member's page is his own: his nav, his to-dos and notices, rendered each time
        version = league_version()
        if version is None:
            return None
        token, number, changed_at = version
        request.league_version = version
        htmx = request.headers.get("HX-Request") == "true"
        etag = f'"{token}-{number}-{get_language()}-{int(htmx)}"'
        # The ETag decides: Last-Modified is sent, but its whole seconds cannot tell two writes in
        # the same second apart, so If-Modified-Since alone never earns a 304.
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return self._headers(not_modified, etag, changed_at)
        path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:32]
        key = f"page:{token}:{number}:{get_language()}:{int(htmx)}:{path}"
        cached = cache.get(key)
        if cached is None:
            request._page_cache = (key, etag, changed_at)
            return None
        status, content_type, body = cached
        response = HttpResponse(body.replace(CSRF_MARK, get_token(request)), status=status, content_type=content_type)
        response["X-Page-Cache"] = "hit"
        return self._headers(response, etag, changed_at)

    def _store(self, request: HttpRequest, response: HttpResponse, key: str | None, etag: str, changed_at) -> None:
        if response.status_code != 200 or response.streaming or response.cookies:
            return
        self._headers(response, etag, changed_at)
        if request.user.is_authenticated:
            return
        body = response.content.decode(response.charset)
        tokens = set(_CSRF_INPUT.findall(body))
        for token in tokens:
            body = body.replace(token, CSRF_MARK)
        if len(tokens) > 1 or (CSRF_MARK not in body and "csrfmiddlewaretoken" in body):
            return  # a page this cannot make anonymous again is not stored
        cache.set(key, (response.status_code, response["Content-Type"], body), settings.PAGE_CACHE_SECONDS)

    @staticmethod
    def _headers(response: HttpResponse, etag: str, changed_at) -> HttpResponse:
        response["ETag"] = etag
        if changed_at:
            response["Last-Modified"] = http_date(changed_at.timestamp())
        response["Cache-Control"] = "no-cache"  # the browser keeps it, and asks each time whether it is current
        patch_vary_headers(response, ("Cookie", "HX-Request"))
        return response
