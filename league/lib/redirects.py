"""Where a form's `next` may send the person: a page of this site, or the page's own default.

Every `next` (or like) parameter that chooses a redirect goes through here, so a hostile or garbled one
(`https://evil.example/`, `//evil.example`, `javascript:…`, or `x`, which `redirect()` would read as a
view's name and fail on) leads to the default, never off the site and never to a server error."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest
from django.shortcuts import resolve_url
from django.utils.http import url_has_allowed_host_and_scheme


def next_url(request: HttpRequest, field: str = "next") -> str | None:
    """The request's `field` (POST, else the query string) when it is a page of this site, else None.

    `url_has_allowed_host_and_scheme` keeps other hosts and schemes out; of what it lets through, a relative
    address (`x`, `../x`) is no page the form knew: a path ("/…") or this site's own address, as a page's
    Referer gives it (the language switch of a form shown again), is."""
    url = request.POST.get(field) or request.GET.get(field) or ""
    if not url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return None
    if not (url.startswith("/") or urlsplit(url).netloc):
        return None
    return url


def safe_next(request: HttpRequest, default: object, field: str = "next") -> str:
    """`next_url`, or the page's default (a URL, a view's name or a model with get_absolute_url)."""
    return next_url(request, field) or resolve_url(default)
