"""The notices' reads: the inbox and its unread count (issue 27)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest

from league.models import NoticePreference, Notification
from league.notices import texts


def unread_count(request: HttpRequest) -> int:
    """The logged-in user's unread notifications, read once per request (the nav and the page cache's ETag
    ask it both): one query, along the partial index of unread rows. 0 for a visitor, with no query."""
    if not request.user.is_authenticated:
        return 0
    if not hasattr(request, "_unread_notices"):
        request._unread_notices = Notification.objects.filter(recipient=request.user, read_at__isnull=True).count()
    return request._unread_notices


@dataclass(frozen=True)
class Notice:
    pk: int
    kind: str
    sentence: str
    details: str
    url: str
    created_at: datetime
    unread: bool


def inbox(user: AbstractBaseUser | AnonymousUser, *, limit: int = 50) -> list[Notice]:
    """The newest notifications, worded in the active language."""
    rows = Notification.objects.filter(recipient=user).values_list(
        "pk", "kind", "params", "url", "created_at", "read_at"
    )
    return [
        Notice(pk, kind, texts.sentence(kind, params), texts.details(kind, params), url, created_at, read_at is None)
        for pk, kind, params, url, created_at, read_at in rows[:limit]
    ]


def email_kinds(user: AbstractBaseUser) -> set[str]:
    """The kinds the user gets by e-mail (all, but those he turned off)."""
    off = set(NoticePreference.objects.filter(user=user, email=False).values_list("kind", flat=True))
    return set(Notification.Kind.values) - off
