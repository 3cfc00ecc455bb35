"""A notification's e-mail is sent once and never lost (issue 27): a failed send is tried again later and
sent once; a lost task is picked up by `send_notices`; two workers at once send it once; and a real SMTP
server receives it with its unsubscribe headers and its link."""

import re
import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone
from django_tasks import task_backends

from league.models import NoticePreference, NoticeSettings, Notification
from league.notices import tokens
from league.notices.delivery import backoff, deliver, send_due, send_notice
from league.notices.services import notify
from tests import factories
from tests.smtp import body, smtp_server, subject

Email = Notification.Email


@pytest.fixture
def pending(db):
    coach = factories.user("kari", email="kari@example.org")
    [notice] = notify([coach], Notification.Kind.BOARD_MESSAGE, params={"subject": "Cup final", "text": "Saturday."})
    assert notice.email_state == Email.PENDING
    return notice


def refreshed(notice):
    notice.refresh_from_db()
    return notice


def test_a_notification_is_emailed_once_however_often_it_is_delivered(pending):
    assert deliver(pending.pk) == (Email.SENT, None)
    assert deliver(pending.pk) == (Email.SENT, None)
    assert len(mail.outbox) == 1
    notice = refreshed(pending)
    assert (notice.email_attempts, notice.emailed_at is not None) == (1, True)


def test_a_failed_send_is_tried_again_later_and_sent_once(pending):
    now = timezone.now()
    with mock.patch.object(EmailMessage, "send", side_effect=ConnectionRefusedError("no server")):
        state, next_at = deliver(pending.pk, now=now)
    assert (state, next_at) == (Email.PENDING, now + timedelta(minutes=1))
    notice = refreshed(pending)
    assert notice.email_attempts == 1 and "no server" in notice.email_error
    assert send_due(now=now + timedelta(seconds=30)) == {}  # not yet
    assert send_due(now=now + timedelta(minutes=1)) == {Email.SENT: 1}
    assert send_due(now=now + timedelta(hours=1)) == {}
    assert len(mail.outbox) == 1
    assert refreshed(pending).email_attempts == 2


@override_settings(NOTICE_EMAIL_ATTEMPTS=3)
def test_after_the_last_attempt_it_is_failed_and_kept_in_the_inbox(pending):
    now = timezone.now()
    with mock.patch.object(EmailMessage, "send", side_effect=OSError("down")):
        for attempt in range(1, 4):
            deliver(pending.pk, now=now)
            now += backoff(attempt)
        assert send_due(now=now + timedelta(days=1)) == {}
    notice = refreshed(pending)
    assert (notice.email_state, notice.email_attempts, notice.read_at) == (Email.FAILED, 3, None)
    assert mail.outbox == []


def test_a_retry_run_before_its_time_waits_and_uses_no_attempt(pending):
    """A second task (or the sweep by hand) before the backoff's time sends nothing and spends no attempt."""
    now = timezone.now()
    with mock.patch.object(EmailMessage, "send", side_effect=OSError("down")):
        deliver(pending.pk, now=now)
    assert deliver(pending.pk, now=now + timedelta(seconds=10)) == (Email.PENDING, None)
    assert refreshed(pending).email_attempts == 1 and mail.outbox == []
    assert deliver(pending.pk, now=now + timedelta(minutes=1)) == (Email.SENT, None)


def test_the_backoff_grows():
    assert [backoff(n) for n in (1, 2, 3, 4)] == [timedelta(minutes=m) for m in (1, 5, 25, 125)]


def test_a_lost_task_is_sent_by_send_notices(pending):
    """The row stays to send when its task never ran (a queue down at the commit): the sweep sends it, after
    leaving the task its few minutes."""
    assert send_due() == {}
    Notification.objects.filter(pk=pending.pk).update(created_at=timezone.now() - timedelta(minutes=10))
    call_command("send_notices", stdout=mock.MagicMock())
    assert refreshed(pending).email_state == Email.SENT
    assert len(mail.outbox) == 1


def test_an_unsubscribe_before_its_turn_skips_the_email(pending):
    NoticePreference.objects.create(user=pending.recipient, kind=pending.kind, email=False)
    assert deliver(pending.pk)[0] == Email.SKIPPED
    assert mail.outbox == []


@override_settings(TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}})
def test_the_task_queues_its_retry_for_later_when_the_queue_can_wait(pending):
    backend = task_backends["default"]
    with mock.patch.object(EmailMessage, "send", side_effect=OSError("down")):
        result = send_notice.enqueue(pending.pk)
        assert [r.task.run_after for r in backend.results] == [None]
        send_notice.call(pending.pk)  # the worker runs it
    assert result is not None
    retry = backend.results[-1]
    assert retry.args == [pending.pk] and retry.task.run_after == refreshed(pending).email_next_at


def test_the_email_speaks_its_recipients_language_with_its_links(pending):
    deliver(pending.pk)
    [message] = mail.outbox
    assert message.subject == "Torshov Touchdown: Styret: Cup final"
    assert "Saturday." in message.body and f"/my/notices/{pending.pk}/" in message.body
    # the signed token carries its time (to the second): read it back rather than make another to compare
    link = re.fullmatch(
        r"<http://127\.0\.0\.1:8000/notices/unsubscribe/([^/]+)/>", message.extra_headers["List-Unsubscribe"]
    )
    assert tokens.read(link.group(1)) == (pending.recipient_id, pending.kind)
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "Ingen flere e-poster av denne typen" in message.body

    other = factories.user("ola", email="ola@example.org")
    NoticeSettings.objects.create(user=other, language="en")
    [notice] = notify([other], Notification.Kind.BOARD_MESSAGE, params={"subject": "Cup final", "text": "Saturday."})
    deliver(notice.pk)
    assert mail.outbox[1].subject == "Torshov Touchdown: The board: Cup final"


def test_a_real_smtp_server_receives_it(pending):
    with smtp_server() as server:
        assert deliver(pending.pk)[0] == Email.SENT
        [message] = server.wait(1)
    assert message["To"] == "kari@example.org"
    assert message["From"] == "Torshov Touchdown <liga@localhost>"
    assert subject(message) == "Torshov Touchdown: Styret: Cup final"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/notices/unsubscribe/" in message["List-Unsubscribe"]
    assert f"http://127.0.0.1:8000/my/notices/{pending.pk}/" in body(message)


def test_a_smtp_server_that_refuses_leaves_it_to_send_again(pending):
    with smtp_server():
        pass  # started and stopped: nothing listens on its port any more
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_PORT=1, EMAIL_TIMEOUT=2):
        assert deliver(pending.pk)[0] == Email.PENDING
    assert refreshed(pending).email_attempts == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
def test_two_workers_at_once_send_it_once():
    """Worker A holds the row while its mail server is slow; worker B, at the same moment, skips the
    locked row; once A has committed, the e-mail is sent, once."""
    coach = factories.user("kari", email="kari@example.org")
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}):
        [notice] = notify([coach], Notification.Kind.BOARD_MESSAGE, params={"subject": "s", "text": "t"})  # queued
    sending, release = threading.Event(), threading.Event()
    sent = []

    def slow_send(message, fail_silently=False):
        sending.set()
        release.wait(10)
        sent.append(1)
        return 1

    outcomes = {}

    def worker(name):
        try:
            outcomes[name] = deliver(notice.pk)[0]
        finally:
            connection.close()

    with mock.patch.object(EmailMessage, "send", slow_send):
        a = threading.Thread(target=worker, args=("a",))
        a.start()
        assert sending.wait(10)
        b = threading.Thread(target=worker, args=("b",))
        b.start()
        b.join(10)
        release.set()
        a.join(10)
    assert outcomes == {"a": Email.SENT, "b": "busy"}
    assert sent == [1]
    assert deliver(notice.pk)[0] == Email.SENT  # and a third, later, sends nothing
    assert sent == [1]


@pytest.mark.django_db(transaction=True)  # the worker closes its connection between tasks
@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
def test_in_production_the_database_queue_and_its_worker_send_it():
    """The production path: the task is a row in the database after the commit; `db_worker` sends it."""
    from django_tasks_db.models import DBTaskResult

    coach = factories.user("kari", email="kari@example.org")
    with transaction.atomic():
        [notice] = notify([coach], Notification.Kind.BOARD_MESSAGE, params={"subject": "s", "text": "t"})
        assert DBTaskResult.objects.count() == 0  # not before the commit
    assert DBTaskResult.objects.count() == 1 and mail.outbox == []
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", stdout=mock.MagicMock())
    assert refreshed(notice).email_state == Email.SENT
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
        ({"EMAIL_URL": "console://"}, {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
        (
            {"EMAIL_URL": "smtp://liga%40torshov.no:hemm%2Felig@smtp.example.org:587"},
            {"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": 587, "EMAIL_HOST_USER": "liga@torshov.no"}
            | {"EMAIL_HOST_PASSWORD": "hemm/elig", "EMAIL_USE_TLS": True, "EMAIL_USE_SSL": False},
        ),
        ({"EMAIL_URL": "smtps://smtp.example.org"}, {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True, "EMAIL_USE_TLS": False}),
        ({"EMAIL_HOST": "mail", "EMAIL_PORT": "25", "EMAIL_USE_TLS": "0"}, {"EMAIL_PORT": 25, "EMAIL_USE_TLS": False}),
    ],
)
def test_the_mail_server_comes_from_the_environment(environment, expected):
    from torshov import settings as project_settings

    with mock.patch.dict("os.environ", environment, clear=True):
        found = project_settings._email_settings()
    assert {k: found[k] for k in expected} == expected
