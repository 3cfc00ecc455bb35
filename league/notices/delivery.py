"""A notification's e-mail, sent at most once and never lost.

`notify` queues a task per e-mail once the write commits (Django's tasks: the django-tasks backport; at
once in development, the database queue and `manage.py db_worker` in production). The task, `deliver`,
locks the notification's row (a second worker skips a locked row), sends nothing unless it is still to
send, sends through Django's mail API and marks it sent in the same transaction. A failed send records
the attempt and is tried again later (`email_next_at`, backing off: 1, 5, 25, 125 minutes), re-queued
when the queue can wait (the database backend) and in any case picked up by `manage.py send_notices`,
which also sends any e-mail whose task was lost, until NOTICE_EMAIL_ATTEMPTS attempts have failed.

Once only: the row lock and the state read under it. An e-mail that reached the mail server just before
its transaction failed to commit would be sent again: the mail server's acceptance and our COMMIT cannot
be one act, and a notification lost is worse than one sent twice in that rare case."""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django_tasks import task
from django_tasks.base import Task
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from league.models import NoticePreference, NoticeSettings, Notification
from league.notices import texts, tokens

logger = logging.getLogger(__name__)
Email = Notification.Email
# The e-mail queued at commit is the task's; the sweep leaves it that long before sending it itself.
SWEEP_GRACE = timedelta(minutes=5)
# A task RUNNING this long has lost its worker (killed, or cut off by the database going away): sending an
# e-mail takes seconds, EMAIL_TIMEOUT (30 s) at most.
ABANDONED_AFTER = timedelta(minutes=15)


def backoff(attempts: int) -> timedelta:
    """How long after the attempts-th failure to try again: 1, 5, 25, 125 minutes."""
    return timedelta(minutes=5 ** max(0, attempts - 1))


def enqueue(notification_ids: list[int]) -> None:
    """After the commit: one task per e-mail."""
    queue(send_notice, notification_ids, "notification")


def queue(task_: Task, ids: list[int], what: str) -> None:
    """One task per row (an e-mail, a push, a chat's post). A queue that fails loses nothing: the row stays
    to send, and `send_notices` sends it."""
    for pk in ids:
        try:
            task_.enqueue(pk)
        except Exception:
            logger.exception("%s %s: not queued; manage.py send_notices will send it", what, pk)


def pending_due(rows: QuerySet, now: datetime) -> list[int]:
    """Of the rows still to send (a push's or a post's delivery), those to send now: a retry whose time has
    come, and one whose task never ran."""
    return list(
        rows.filter(Q(next_at__lte=now) | Q(next_at__isnull=True, created_at__lte=now - SWEEP_GRACE))
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:1000]
    )


@task()
def send_notice(notification_id: int) -> str:
    """The queued task: deliver, and when the send failed and may be tried again, queue the next try."""
    state, next_at = deliver(notification_id)
    queue_next_try(send_notice, notification_id, next_at)
    return state


def queue_next_try(task_: Task, pk: int, next_at: datetime | None) -> None:
    """The row's next try queued for its time, when there is one and the queue can wait (the database
    backend); otherwise the sweep (`send_notices`) takes it when it is due."""
    if next_at is not None and task_.get_backend().supports_defer:
        task_.using(run_after=next_at).enqueue(pk)


def language_of(user_id: int) -> str:
    return NoticeSettings.objects.filter(user_id=user_id).values_list("language", flat=True).first() or "nb"


def message(notification: Notification) -> EmailMessage:
    """The e-mail in its recipient's language: the sentence, the link to act on, the unsubscribe link."""
    user = notification.recipient
    unsubscribe = settings.SITE_URL + reverse("notice_unsubscribe", args=[tokens.make(user.pk, notification.kind)])
    with translation.override(language_of(user.pk)):
        title = texts.sentence(notification.kind, notification.params)
        body = render_to_string(
            "notices/email.txt",
            {
                "title": title,
                "details": texts.details(notification.kind, notification.params),
                "open_url": settings.SITE_URL + reverse("notice_open", args=[notification.pk]),
                "settings_url": settings.SITE_URL + reverse("notice_settings"),
                "unsubscribe_url": unsubscribe,
                "kind": Notification.Kind(notification.kind).label,
            },
        )
    subject = " ".join(f"Torshov Touchdown: {title}".split())[:180]
    return EmailMessage(
        subject,
        body,
        to=[user.email],
        headers={
            # RFC 2369 and RFC 8058: a mail client's own unsubscribe button posts to the link.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )


def _still_wanted(notification: Notification) -> bool:
    user = notification.recipient
    if not (user.email and user.is_active):
        return False
    return not NoticePreference.objects.filter(user=user, kind=notification.kind, email=False).exists()


def deliver(notification_id: int, *, now: datetime | None = None) -> tuple[str, datetime | None]:
    """Send the notification's e-mail if it is still to send: (its state after, when to try again)."""
    now = now or timezone.now()
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("recipient")
            .filter(pk=notification_id)
            .first()
        )
        if notification is None:
            return "busy", None  # another worker holds it (or it is gone)
        if notification.email_state != Email.PENDING:
            return notification.email_state, None
        if notification.email_next_at is not None and notification.email_next_at > now:
            # a retry not yet due (a second task, or the sweep run by hand): the backoff keeps its pace
            return notification.email_state, None
        if not _still_wanted(notification):
            notification.email_state = Email.SKIPPED
            notification.save(update_fields=["email_state"])
            return notification.email_state, None
        notification.email_attempts += 1
        try:
            message(notification).send()
        except Exception as exc:
            attempt = notification.email_attempts
            logger.warning("notification %s: e-mail attempt %s failed: %s", notification.pk, attempt, exc)
            notification.email_error = f"{type(exc).__name__}: {exc}"[:300]
            if notification.email_attempts >= settings.NOTICE_EMAIL_ATTEMPTS:
                notification.email_state, notification.email_next_at = Email.FAILED, None
            else:
                notification.email_next_at = now + backoff(notification.email_attempts)
        else:
            notification.email_state, notification.emailed_at, notification.email_next_at = Email.SENT, now, None
        notification.save(update_fields=["email_state", "email_attempts", "email_error", "email_next_at", "emailed_at"])
        return notification.email_state, notification.email_next_at


def due(now: datetime) -> list[int]:
    """E-mails to send now: a failed one whose next attempt has come, and one whose task never ran."""
    return list(
        Notification.objects.filter(email_state=Email.PENDING)
        .filter(Q(email_next_at__lte=now) | Q(email_next_at__isnull=True, created_at__lte=now - SWEEP_GRACE))
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:1000]
    )


def send_due(*, now: datetime | None = None) -> Counter:
    """`manage.py send_notices`: deliver what is due, here and now. Returns how many ended in each state."""
    now = now or timezone.now()
    return Counter(deliver(pk, now=now)[0] for pk in due(now))


def finish_abandoned_tasks(*, now: datetime | None = None) -> int:
    """Tasks whose worker died while running them are marked failed, so no row stays RUNNING for ever.
    Their e-mails are not lost: a notice still pending is the sweep's to send (`due`). Returns how many."""
    now = now or timezone.now()
    return (
        DBTaskResult.objects.running()
        .filter(started_at__lt=now - ABANDONED_AFTER)
        .update(
            status=TaskResultStatus.FAILED,
            finished_at=now,
            exception_class_path="league.notices.delivery.WorkerLost",
            traceback=f"The worker stopped before it finished: still running after {ABANDONED_AFTER}.",
        )
    )


def enqueue_confirmation(user_id: int, email: str) -> None:
    """After the commit that kept the address waiting: its link, sent by the task queue as the notices are
    (the request does not wait for the mail server). A queue that fails sends it at once."""
    try:
        send_confirmation.enqueue(user_id, email)
    except Exception:
        logger.exception("user %s: the confirmation's task not queued; sent at once", user_id)
        send_confirmation.call(user_id, email)


@task()
def send_confirmation(user_id: int, email: str) -> bool:
    """The link that confirms a new address, sent to that address in its coach's language. A failed send is
    logged: the coach's page offers to send it again."""
    with translation.override(language_of(user_id)):
        url = settings.SITE_URL + reverse("notice_confirm", args=[tokens.make_confirmation(user_id, email)])
        body = render_to_string(
            "notices/confirm_email.txt", {"email": email, "confirm_url": url, "days": tokens.CONFIRM_DAYS}
        )
        subject = translation.gettext("Torshov Touchdown: confirm your e-mail address")
    try:
        EmailMessage(subject, body, to=[email], headers={"Auto-Submitted": "auto-generated"}).send()
    except Exception:
        logger.exception("user %s: the confirmation of a new address was not sent", user_id)
        return False
    return True
