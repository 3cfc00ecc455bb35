"""A post to the league's chat, sent once and never lost, as the notices' e-mails are (league.notices.delivery).

Each event is a `WebhookDelivery` row made in the write's transaction; once it commits, a task per row
(`deliver_webhook`) locks the row (a second worker skips it), posts nothing unless it is still to send, and
marks it in the same transaction. A 2xx is sent; a 429, a 5xx, a time-out or a refused connection is tried
again (1, 5, 25, 125 minutes), by the task re-queued where the queue can wait and in any case by
`manage.py send_notices`' sweep; any other answer fails at once with the answer kept, as does an address
that has come to lead to the local network.

The address is checked when the board saves it and again here, and the connection goes to the address
checked (not looked up a second time), so a name pointed at a machine inside after its check reaches
nothing inside. No redirect is followed."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import socket
import ssl
from collections import Counter
from datetime import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from league.models import Webhook, WebhookDelivery
from league.notices.delivery import backoff, pending_due, queue, queue_next_try

logger = logging.getLogger(__name__)
State = WebhookDelivery.State
TIMEOUT = 5  # seconds: a chat that takes longer is tried again later
USER_AGENT = "TorshovLeague"


class Refused(Exception):
    """An address the league does not post to; its message is ready to show."""


def _is_local(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """This machine, the local network or no real host: loopback, private, link-local, unique-local, multicast,
    0.0.0.0 and the other addresses not routed on the internet (an IPv4 address inside IPv6 read as itself)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast or ip.is_unspecified


def _addresses(host: str, port: int) -> list[str]:
    """Every address the host name resolves to (a literal address is itself)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in found))


def checked_addresses(url: str) -> list[str]:
    """The addresses to post `url` to, or Refused with why not: a web address, https unless in development,
    and a host on the internet unless WEBHOOKS_ALLOW_LOCAL (development and the tests)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(_("Give a web address beginning with https://."))
    allow_local = settings.WEBHOOKS_ALLOW_LOCAL
    if parts.scheme != "https" and not (settings.DEBUG or allow_local):
        raise Refused(_("The address must begin with https://: over plain http the results travel unencrypted."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = _addresses(parts.hostname, port)
    except (OSError, ValueError, UnicodeError):
        raise Refused(_("The address's host was not found: check the address.")) from None
    if not allow_local and any(_is_local(ipaddress.ip_address(a.split("%")[0])) for a in found):
        raise Refused(
            _(
                "The address leads to this server or a local network: the league posts only to addresses "
                "on the internet."
            )
        )
    return found


class _HTTP(http.client.HTTPConnection):
    """A connection to the address checked, named by its host (the Host header)."""

    def __init__(self, host: str, port: int, ip: str, **kwargs) -> None:
        super().__init__(host, port, **kwargs)
        self._ip = ip

    def connect(self) -> None:
        self.sock = socket.create_connection((self._ip, self.port), self.timeout)


class _HTTPS(http.client.HTTPSConnection):
    """As `_HTTP`, its certificate checked against the host's name."""

    def __init__(self, host: str, port: int, ip: str, **kwargs) -> None:
        super().__init__(host, port, context=ssl.create_default_context(), **kwargs)
        self._ip = ip

    def connect(self) -> None:
        sock = socket.create_connection((self._ip, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def signature(secret: str, body: bytes) -> str:
    """The plain JSON's signature header: `sha256=` and the hex HMAC-SHA256 of the body with the secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def request_of(webhook: Webhook, payload: dict, now: datetime) -> tuple[bytes, dict[str, str]]:
    """The body and headers posted. The plain JSON carries its time inside the signed body too, so a
    receiver can refuse an old one sent again."""
    stamp = str(int(now.timestamp()))
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    if webhook.format == Webhook.Format.JSON:
        body = json.dumps({**payload, "timestamp": int(stamp)}, ensure_ascii=False).encode()
        headers |= {"X-Torshov-Timestamp": stamp, "X-Torshov-Signature": signature(webhook.secret, body)}
    else:
        body = json.dumps(payload, ensure_ascii=False).encode()
    return body, headers


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST to the address checked now; the answer's status. Raises Refused, or OSError on no answer."""
    ip = checked_addresses(url)[0]
    parts = urlsplit(url)
    https = parts.scheme == "https"
    connection_class = _HTTPS if https else _HTTP
    connection = connection_class(parts.hostname, parts.port or (443 if https else 80), ip, timeout=TIMEOUT)
    try:
        connection.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""), body, headers)
        response = connection.getresponse()
        response.read(10_000)
        return response.status
    finally:
        connection.close()


def _retried(status: int) -> bool:
    return status == 429 or status >= 500


def deliver(delivery_id: int, *, now: datetime | None = None) -> tuple[str, datetime | None]:
    """Post the delivery if it is still to send: (its state after, when to try again)."""
    now = now or timezone.now()
    with transaction.atomic():
        row = (
            WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("webhook")
            .filter(pk=delivery_id)
            .first()
        )
        if row is None:
            return "busy", None  # another worker holds it (or it is gone)
        if row.state != State.PENDING or (row.next_at is not None and row.next_at > now):
            return row.state, None
        if not row.webhook.active:
            row.state, row.last_error = State.FAILED, _("The webhook was switched off.")
            row.save(update_fields=["state", "last_error"])
            return row.state, None
        row.attempts += 1
        _post_and_mark(row, now)
        row.save(update_fields=["state", "attempts", "last_error", "status_code", "next_at", "sent_at"])
        return row.state, row.next_at


def _post_and_mark(row: WebhookDelivery, now: datetime) -> None:
    body, headers = request_of(row.webhook, row.payload, now)
    retry = True
    try:
        status = post(row.webhook.url, body, headers)
    except Refused as refusal:
        row.last_error, retry = str(refusal), False
    except (OSError, http.client.HTTPException) as exc:  # a time-out, a refused connection, a broken answer
        row.last_error = f"{type(exc).__name__}: {exc}"[:300]
    else:
        row.status_code = status
        if 200 <= status < 300:
            row.state, row.sent_at, row.next_at, row.last_error = State.SENT, now, None, ""
            return
        row.last_error, retry = f"HTTP {status}", _retried(status)
    logger.warning("webhook delivery %s: attempt %s failed: %s", row.pk, row.attempts, row.last_error)
    if retry and row.attempts < settings.WEBHOOK_ATTEMPTS:
        row.next_at = now + backoff(row.attempts)
    else:
        row.state, row.next_at = State.FAILED, None


@task()
def deliver_webhook(delivery_id: int) -> str:
    """The queued task: deliver, and when the post failed and may be tried again, queue the next try."""
    state, next_at = deliver(delivery_id)
    queue_next_try(deliver_webhook, delivery_id, next_at)
    return state


def enqueue(delivery_ids: list[int]) -> None:
    """After the commit: one task per post."""
    queue(deliver_webhook, delivery_ids, "webhook delivery")


def due(now: datetime) -> list[int]:
    """Posts to send now: a retry whose time has come, and one whose task never ran."""
    return pending_due(WebhookDelivery.objects.filter(state=State.PENDING), now)


def send_due(*, now: datetime | None = None) -> Counter:
    """`manage.py send_notices`' sweep of the chat's posts: how many ended in each state."""
    now = now or timezone.now()
    return Counter(deliver(pk, now=now)[0] for pk in due(now))
