"""A notification pushed to its reader's devices (Web Push: RFC 8030, VAPID RFC 8292, encrypted RFC 8291),
beside its e-mail and the same way: sent at most once per device and never lost.

`notify` makes a PushDelivery per device of each reader who wants the kind pushed, in the write's
transaction; the database refuses a second one of a kind for the same match and device (a busy match
day is one push of each kind, the rest wait in the inbox). Once the write commits, a `send_push` task per
delivery locks its row, sends nothing unless it is still to send, posts the encrypted message to the
device's push service and marks it sent in the same transaction. A push service answering 404 or 410 has
forgotten the device: it is deleted with its deliveries. Other failures are tried again (1, 5, 25, 125
minutes) until NOTICE_EMAIL_ATTEMPTS have failed. In the reader's quiet hours nothing is sent: the delivery
waits for their end. `manage.py send_notices` sends what is due and whatever a lost task left."""

from __future__ import annotations

import json
import logging
from collections import Counter
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django_tasks import task
from pywebpush import WebPushException, webpush

from league.models import NoticePreference, NoticeSettings, Notification, PushDelivery, PushSubscription
from league.notices import texts
from league.notices.delivery import backoff, language_of, pending_due, queue, queue_next_try

logger = logging.getLogger(__name__)
State = PushDelivery.State
# A push service keeps a message this long for a device that is off; later the inbox has it anyway.
TTL_SECONDS = 24 * 60 * 60
GONE = (404, 410)


def enabled() -> bool:
    """Push is on when the league has its VAPID key pair (`manage.py vapid_keys`)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def quiet_until(now: datetime, quiet_from: time | None, quiet_to: time | None) -> datetime | None:
    """When the quiet hours around `now` end (in the league's time zone), or None when `now` is not in them.
    quiet_from after quiet_to spans midnight: 22:00–07:00 is quiet at 23:30 and at 06:59, not at 07:00."""
    if quiet_from is None or quiet_to is None or quiet_from == quiet_to:
        return None
    zone = ZoneInfo(settings.TIME_ZONE)
    local = now.astimezone(zone)
    clock, today = local.time(), local.date()
    if quiet_from < quiet_to:
        quiet = quiet_from <= clock < quiet_to
        ends = today
    else:
        quiet = clock >= quiet_from or clock < quiet_to
        ends = today + timedelta(days=1) if clock >= quiet_from else today
    return datetime.combine(ends, quiet_to, tzinfo=zone) if quiet else None


def plan(notifications: list[Notification]) -> list[int]:
    """In `notify`'s transaction: a delivery per device of each reader who wants the kind pushed, but none of
    a kind already pushed to that device for the same match. Returns the deliveries made."""
    if not enabled() or not notifications:
        return []
    kind = notifications[0].kind
    readers = {n.recipient_id for n in notifications}
    muted = set(
        NoticePreference.objects.filter(user__in=readers, kind=kind, push=False).values_list("user_id", flat=True)
    )
    devices: dict[int, list[int]] = {}
    found = PushSubscription.objects.filter(user__in=readers - muted, user__is_active=True)
    for user_id, pk in found.values_list("user_id", "pk"):
        devices.setdefault(user_id, []).append(pk)
    rows = [
        PushDelivery(notification=n, subscription_id=device, kind=n.kind, match_id=n.match_id)
        for n in notifications
        for device in devices.get(n.recipient_id, [])
    ]
    if not rows:
        return []
    # The constraints decide "once per match" even when two writes race; a refused row is simply not made.
    PushDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    return list(
        PushDelivery.objects.filter(notification__in=notifications, state=State.PENDING).values_list("pk", flat=True)
    )


def enqueue(delivery_ids: list[int]) -> None:
    """After the commit: one task per delivery."""
    queue(send_push, delivery_ids, "push")


@task()
def send_push(delivery_id: int) -> str:
    """The queued task: deliver, and when it must wait (quiet hours, a retry), queue it for then."""
    state, next_at = deliver(delivery_id)
    queue_next_try(send_push, delivery_id, next_at)
    return state


def payload(notification: Notification) -> str:
    """What the service worker shows (`event.data.json()`), in the reader's language."""
    with translation.override(language_of(notification.recipient_id)):
        title = str(Notification.Kind(notification.kind).label)  # short: a phone shows one line of it
        more = texts.details(notification.kind, notification.params)
        body = " ".join(filter(None, [texts.sentence(notification.kind, notification.params), more]))
    url = settings.SITE_URL + (notification.url or "/my/notices/")
    tag = f"{notification.kind}-{notification.match_id or notification.pk}"  # the phone replaces, not stacks
    return json.dumps({"title": title, "body": body[:500], "url": url, "tag": tag}, ensure_ascii=False)


def send(subscription: PushSubscription, data: str) -> None:
    """Post one encrypted message to the device's push service; raises WebPushException when refused."""
    webpush(
        subscription.info(),
        data=data,
        vapid_private_key=settings.VAPID_PRIVATE_KEY,
        vapid_claims={"sub": settings.VAPID_SUBJECT},  # a new dict each time: pywebpush writes aud and exp into it
        ttl=TTL_SECONDS,
        timeout=10,
    )


def _quiet_end(user_id: int, now: datetime) -> datetime | None:
    hours = NoticeSettings.objects.filter(user_id=user_id).values_list("quiet_from", "quiet_to").first()
    return quiet_until(now, *hours) if hours else None


def deliver(delivery_id: int, *, now: datetime | None = None) -> tuple[str, datetime | None]:
    """Push the delivery if it is still to send: (its state after, when to try again)."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (
            PushDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("notification", "subscription__user")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None:
            return "busy", None  # another worker holds it, or its device is gone
        if delivery.state != State.PENDING or (delivery.next_at is not None and delivery.next_at > now):
            return delivery.state, None
        notification, device = delivery.notification, delivery.subscription
        muted = NoticePreference.objects.filter(user_id=device.user_id, kind=delivery.kind, push=False).exists()
        if not enabled() or muted or not device.user.is_active:
            delivery.state = State.SKIPPED
            delivery.save(update_fields=["state"])
            return delivery.state, None
        if (ends := _quiet_end(device.user_id, now)) is not None:
            delivery.next_at = ends  # no attempt spent: it is sent when the quiet hours end
            delivery.save(update_fields=["next_at"])
            return delivery.state, ends
        delivery.attempts += 1
        try:
            send(device, payload(notification))
        except Exception as exc:
            status = getattr(getattr(exc, "response", None), "status_code", None)
            if isinstance(exc, WebPushException) and status in GONE:
                logger.info("push device %s: gone (%s), removed", device.pk, status)
                device.delete()  # its deliveries with it
                return "gone", None
            logger.warning("push %s: attempt %s failed: %s", delivery.pk, delivery.attempts, exc)
            delivery.error = f"{type(exc).__name__}: {exc}"[:300]
            if delivery.attempts >= settings.NOTICE_EMAIL_ATTEMPTS:
                delivery.state, delivery.next_at = State.FAILED, None
            else:
                delivery.next_at = now + backoff(delivery.attempts)
            PushSubscription.objects.filter(pk=device.pk).update(failures=F("failures") + 1)
        else:
            delivery.state, delivery.sent_at, delivery.next_at, delivery.error = State.SENT, now, None, ""
            PushSubscription.objects.filter(pk=device.pk).update(last_success=now, failures=0)
        delivery.save(update_fields=["state", "attempts", "error", "next_at", "sent_at"])
        return delivery.state, delivery.next_at


def due(now: datetime) -> list[int]:
    """Pushes to send now: a retry or the end of quiet hours come, and one whose task never ran."""
    return pending_due(PushDelivery.objects.filter(state=State.PENDING), now)


def send_due(*, now: datetime | None = None) -> Counter:
    """`manage.py send_notices`: push what is due, here and now. Returns how many ended in each state."""
    now = now or timezone.now()
    return Counter(deliver(pk, now=now)[0] for pk in due(now))
