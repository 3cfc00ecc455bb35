"""Writes to the league's data, and the league version they raise.

Public pages are cached per league version (league.lib.pagecache). Every write to the league's data runs
in `league_writes()` (or a function decorated `@league_write`): a transaction that, once it has
committed, raises the version by one in a statement of its own. So the next request renders afresh,
and no visitor sees a page older than the last committed write. The version row is never locked
inside a writing transaction (it is updated after the COMMIT), so it adds no lock to any write and
cannot deadlock one. A crash between the COMMIT and the raise would leave cached pages up to
PAGE_CACHE_SECONDS old: the raise is a single UPDATE run straight after the COMMIT, in the same
request, and the window is that small.

The services, the admin's saves (league.lib.admin_site) and the commands that write use it; a test-only
guard (tests/conftest.py) fails any test whose app code writes league rows outside it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from league.models import LeagueVersion

P = ParamSpec("P")
R = TypeVar("R")

_depth: ContextVar[int] = ContextVar("league_write_depth", default=0)


def raise_league_version() -> None:
    """One more league version: in autocommit, after the writing transaction has committed."""
    now = timezone.now()
    if not LeagueVersion.objects.filter(pk=1).update(number=F("number") + 1, changed_at=now):
        LeagueVersion.objects.get_or_create(pk=1, defaults={"number": 1, "changed_at": now})


@contextmanager
def league_writes() -> Iterator[None]:
    """A transaction (or a savepoint in one) whose commit raises the league version."""
    outermost = _depth.get() == 0
    token = _depth.set(_depth.get() + 1)
    try:
        with transaction.atomic():
            if outermost:  # one raise for a service that calls others
                transaction.on_commit(raise_league_version)
            yield
    finally:
        _depth.reset(token)


def league_write(func: Callable[P, R]) -> Callable[P, R]:
    """`@league_write` on a service: it runs in `league_writes()`, as `@transaction.atomic` would run it."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with league_writes():
            return func(*args, **kwargs)

    return wrapper
