"""The notices' reads: the inbox, a coach's e-mail and push choices, the devices (the unread count:
league.seasons.waiting)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from league.models import NoticePreference, Notification, PushSubscription
from league.notices import texts


@dataclass(frozen=True)
class Notice:
    pk: int
    kind: str
    sentence: str
    details: str
    url: str
    created_at: datetime
    unread: bool
    done: bool = False  # it asked for an action that is no longer waiting (taken by anyone)


def inbox(
    user: AbstractBaseUser | AnonymousUser, open_actions: Collection[str], *, limit: int = 50, news: bool = False
) -> list[Notice]:
    """The newest notifications, worded in the active language. `open_actions`: the keys of what waits for
    the reader (league.seasons.waiting); a notice whose action is done is no longer unread. `news`: only
    those that ask for nothing that still waits."""
    rows = Notification.objects.filter(recipient=user)
    if news:
        rows = rows.exclude(action__in=list(open_actions))
    found = []
    for pk, kind, params, url, created_at, read_at, action in rows.values_list(
        "pk", "kind", "params", "url", "created_at", "read_at", "action"
    )[:limit]:
        done = bool(action) and action not in open_actions
        sentence, more = texts.sentence(kind, params), texts.details(kind, params)
        found.append(Notice(pk, kind, sentence, more, url, created_at, read_at is None and not done, done))
    return found


def email_kinds(user: AbstractBaseUser) -> set[str]:
    """The kinds the user gets by e-mail (all, but those he turned off)."""
    off = set(NoticePreference.objects.filter(user=user, email=False).values_list("kind", flat=True))
    return set(Notification.Kind.values) - off


def push_kinds(user: AbstractBaseUser) -> set[str]:
    """The kinds pushed to the user's devices (all, but those turned off)."""
    off = set(NoticePreference.objects.filter(user=user, push=False).values_list("kind", flat=True))
    return set(Notification.Kind.values) - off


def devices(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The user's devices for the choices page: label and when added, oldest first."""
    return list(PushSubscription.objects.filter(user=user).values("pk", "label", "created_at"))
