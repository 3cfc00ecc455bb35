"""The league's chat: a post delivered once to a receiver of the test's own (tests/webhook_server.py), its
signature, the retries of a 500 and the failure of a 404, the two formats' shapes, and the addresses refused
in production (https only, nothing on the local network), when saved and again when sent."""

import hashlib
import hmac
import json
import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test import TestCase, override_settings
from django.utils import timezone

from league.models import Webhook, WebhookDelivery
from league.notices import webhook_delivery
from league.notices.services import message_coaches
from league.notices.webhook_delivery import backoff, deliver, send_due
from league.notices.webhooks import Event, Kind, WebhookError, announce, payload, save_webhook
from tests import factories
from tests.webhook_server import receiver

pytestmark = pytest.mark.django_db
State = WebhookDelivery.State
PRODUCTION = override_settings(DEBUG=False, WEBHOOKS_ALLOW_LOCAL=False)
EVENT = Event(
    Kind.RESULT, "result:1:2-1", "Dødsmarsjen 2 – 1 Gro's Gutter (1. divisjon, runde 3)", url="https://x/m/1/"
)


def hook(url, name="Discord", **extra):
    return Webhook.objects.create(name=name, url=url, **extra)


def announced(webhook, event=EVENT):
    """The event announced in a committed write: its row, delivered at once (the immediate task backend)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        announce(event)
    return WebhookDelivery.objects.get(webhook=webhook, key=event.key)


def test_an_event_is_posted_once_however_often_it_is_announced_or_swept():
    with receiver() as chat:
        webhook = hook(chat.url)
        row = announced(webhook)
        announced(webhook)  # the same event again: no second row, no second post
        assert deliver(row.pk) == (State.SENT, None)
        call_command("send_notices", stdout=mock.Mock())
        send_due(now=timezone.now() + timedelta(days=1))
    assert len(chat.requests) == 1
    row.refresh_from_db()
    assert (row.state, row.attempts, row.status_code) == (State.SENT, 1, 204)
    assert chat.requests[0].headers["User-Agent"] == "TorshovLeague"


def test_the_plain_json_is_signed_with_the_webhooks_secret():
    with receiver() as chat:
        webhook = hook(chat.url, format=Webhook.Format.JSON)
        announced(webhook)
    [got] = chat.requests
    expected = "sha256=" + hmac.new(webhook.secret.encode(), got.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(got.headers["X-Torshov-Signature"], expected)
    body = json.loads(got.body)
    assert body["timestamp"] == int(got.headers["X-Torshov-Timestamp"])  # the time is signed too
    assert (body["event"], body["key"], body["text"]) == ("result", EVENT.key, EVENT.text)
    forged = "sha256=" + hmac.new(b"another secret", got.body, hashlib.sha256).hexdigest()
    assert not hmac.compare_digest(got.headers["X-Torshov-Signature"], forged)


def test_discords_shape_content_embeds_and_no_mentions():
    webhook = Webhook(name="D", url="https://discord.example/api/webhooks/1/x")
    tables = Event(Kind.SEASON_TABLES, "season_tables:1", "Sesongen er over.", "https://x/s/1/", (("1. div", "1. A"),))
    assert payload(webhook, EVENT) == {
        "username": "Torshov League",
        "content": f"{EVENT.text}\n{EVENT.url}",
        "embeds": [],
        "allowed_mentions": {"parse": []},
    }
    shaped = payload(webhook, tables)
    assert shaped["embeds"] == [{"title": "1. div", "description": "1. A", "url": "https://x/s/1/"}]
    long = payload(webhook, Event(Kind.BOARD_MESSAGE, "b:1", "x" * 3000, sections=(("t", "y" * 5000),)))
    assert len(long["content"]) == 2000 and len(long["embeds"][0]["description"]) == 4096


def test_a_500_is_tried_again_later_and_delivered_once():
    now = timezone.now()
    with receiver(500) as chat:
        webhook = hook(chat.url)
        with mock.patch.object(webhook_delivery, "enqueue"):  # the sweep's to post
            row = announced(webhook)
        assert deliver(row.pk, now=now) == (State.PENDING, now + backoff(1))
        row.refresh_from_db()
        assert (row.attempts, row.last_error, row.status_code) == (1, "HTTP 500", 500)
        assert send_due(now=now + timedelta(seconds=30)) == {}  # not yet
        assert send_due(now=now + timedelta(minutes=1)) == {State.SENT: 1}
        assert send_due(now=now + timedelta(hours=5)) == {}
    assert len(chat.requests) == 2
    row.refresh_from_db()
    assert (row.state, row.attempts) == (State.SENT, 2)


@pytest.mark.parametrize("status", [404, 400, 301])
def test_a_4xx_fails_at_once_with_its_answer_kept(status):
    with receiver(status) as chat:
        webhook = hook(chat.url)
        row = announced(webhook)
        send_due(now=timezone.now() + timedelta(days=1))
    row.refresh_from_db()
    assert (row.state, row.attempts, row.last_error, row.next_at) == (State.FAILED, 1, f"HTTP {status}", None)
    assert len(chat.requests) == 1


def test_429_and_no_answer_are_tried_again():
    with receiver(429) as chat:
        row = announced(hook(chat.url))
    row.refresh_from_db()
    assert (row.state, row.status_code) == (State.PENDING, 429)
    closed = hook("http://127.0.0.1:9/nothing-listens", name="Closed")
    row = announced(closed, Event(Kind.RESULT, "result:2:0-0", "A 0 – 0 B"))
    row.refresh_from_db()
    assert row.state == State.PENDING and "ConnectionRefused" in row.last_error


@override_settings(WEBHOOK_ATTEMPTS=2)
def test_after_the_last_attempt_it_is_failed():
    now = timezone.now()
    with receiver(503, 503, 503) as chat:
        with mock.patch.object(webhook_delivery, "enqueue"):
            row = announced(hook(chat.url))
        deliver(row.pk, now=now)
        deliver(row.pk, now=now + backoff(1))
        assert send_due(now=now + timedelta(days=1)) == {}
    row.refresh_from_db()
    assert (row.state, row.attempts, len(chat.requests)) == (State.FAILED, 2, 2)


def test_a_webhook_switched_off_or_not_wanting_the_kind_gets_nothing():
    with receiver() as chat:
        hook(chat.url, active=False)
        hook(chat.url, name="Tables only", results=False)
        announced_none = announce(EVENT)
    assert announced_none == [] and chat.requests == []


# --- the addresses refused in production ------------------------------------------------------------

REFUSED_LOCAL = "Adressen fører til denne serveren eller et lokalt nettverk"


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://10.1.2.3/hook",
        "https://192.168.0.10/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[fd00::1]/hook",
        "https://[fe80::1]/hook",
        "https://224.0.0.1/hook",
        "https://0.0.0.0/hook",
        "https://[::ffff:127.0.0.1]/hook",
    ],
)
def test_an_address_on_the_local_network_is_refused_in_norwegian_and_nothing_saved(url):
    board = factories.user("styret", board=True, coach=False)
    with PRODUCTION, pytest.raises(WebhookError) as refused:
        save_webhook(by=board, name="Inside", url=url, format="discord", results=True)
    assert REFUSED_LOCAL in refused.value.messages[0]
    assert not Webhook.objects.exists()


def test_plain_http_is_refused_in_production():
    board = factories.user("styret", board=True, coach=False)
    with PRODUCTION, pytest.raises(WebhookError) as refused:
        save_webhook(by=board, name="Plain", url="http://discord.example/api/webhooks/1", format="discord")
    said = "Adressen må begynne med https://: over vanlig http reiser resultatene ukryptert."
    assert refused.value.messages == [said]
    assert not Webhook.objects.exists()


def test_a_public_address_is_saved_and_one_that_turns_local_is_refused_when_sent():
    """DNS can change between the save and the post: the address is checked again, and the post goes to the
    address checked."""
    board = factories.user("styret", board=True, coach=False)
    with PRODUCTION, mock.patch.object(webhook_delivery, "_addresses", return_value=["93.184.216.34"]):
        webhook = save_webhook(by=board, name="Discord", url="https://chat.example/hook", format="discord")
    with receiver() as chat, PRODUCTION, mock.patch.object(webhook_delivery, "_addresses", return_value=["127.0.0.1"]):
        row = announced(webhook)
    row.refresh_from_db()
    assert (row.state, row.attempts) == (State.FAILED, 1) and REFUSED_LOCAL in row.last_error
    assert chat.requests == []


def test_the_boards_message_goes_to_the_webhooks_that_want_it(django_capture_on_commit_callbacks):
    board = factories.user("styret", board=True, coach=False)
    with receiver() as chat:
        hook(chat.url, board_messages=True)
        hook(chat.url, name="Results only")
        with django_capture_on_commit_callbacks(execute=True):
            message_coaches(by=board, subject="Cupfinale", text="Lørdag kl. 12 @everyone")
    [body] = [json.loads(r.body) for r in chat.requests]
    assert body["content"] == "Fra styret: Cupfinale"
    assert body["embeds"] == [{"title": "Cupfinale", "description": "Lørdag kl. 12 @everyone"}]
    assert body["allowed_mentions"] == {"parse": []}  # the text's @everyone pings no one


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_post_it_once():
    """Worker A holds the row while the chat is slow to answer; worker B, at the same moment, skips the
    locked row; once A has committed, the post is sent, once."""
    webhook = hook("http://127.0.0.1:9/hook")
    with mock.patch.object(webhook_delivery, "enqueue"), transaction.atomic():
        [row] = announce(EVENT)
    posting, release, posts, outcomes = threading.Event(), threading.Event(), [], {}

    def slow_post(url, body, headers):
        posting.set()
        release.wait(10)
        posts.append(body)
        return 200

    def worker(name):
        try:
            outcomes[name] = deliver(row.pk)[0]
        finally:
            connection.close()

    with mock.patch.object(webhook_delivery, "post", slow_post):
        a = threading.Thread(target=worker, args=("a",))
        a.start()
        assert posting.wait(10)
        b = threading.Thread(target=worker, args=("b",))
        b.start()
        b.join(10)
        release.set()
        a.join(10)
        assert deliver(row.pk)[0] == State.SENT  # and a third, later, posts nothing
    assert outcomes == {"a": State.SENT, "b": "busy"} and len(posts) == 1
    assert webhook.deliveries.get().attempts == 1


@pytest.mark.django_db(transaction=True)  # the worker closes its connection between tasks
@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
def test_in_production_the_database_queue_and_its_worker_post_it():
    from django_tasks_db.models import DBTaskResult

    with receiver() as chat:
        hook(chat.url)
        with transaction.atomic():
            announce(EVENT)
            assert DBTaskResult.objects.count() == 0  # not before the commit
        assert DBTaskResult.objects.count() == 1 and chat.requests == []
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", stdout=mock.MagicMock())
    assert len(chat.requests) == 1 and WebhookDelivery.objects.get().state == State.SENT
