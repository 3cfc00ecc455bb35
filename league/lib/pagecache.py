"""The public pages' cache: Django's `{% cache %}` fragments keyed by the league version.

Every committed write to the league's data raises the version (league.lib.writes), so a fragment kept
under the old one is never shown again. Only visitors share fragments: a member's page carries his own
links and forms and is rendered each time, and the nav, the messages and every form stay outside the
fragments, so nothing kept holds a person's CSRF token. A view hands the template its reads as `lazy`
values: a kept fragment reads nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from league.models import LeagueVersion


@dataclass(frozen=True)
class PageCache:
    """What a template's `{% cache page_cache.seconds name page_cache.version … %}` reads."""

    version: str
    seconds: int


NOT_KEPT = PageCache("none", 0)  # a timeout of 0 stores nothing


def page_cache(request: HttpRequest) -> PageCache:
    if request.user.is_authenticated:
        return NOT_KEPT
    if connection.in_atomic_block:
        return NOT_KEPT  # this transaction's own writes may show, which no one else sees yet
    row = LeagueVersion.objects.filter(pk=1).values_list("token", "number").first()
    return PageCache("{}-{}".format(*row) if row else "0", settings.PAGE_CACHE_SECONDS)


def lazy(compute: Callable[[], Any]) -> Any:
    """`compute()`, run the first time the template reads it: not at all when the fragment is kept."""
    return SimpleLazyObject(compute)
