"""The league's chat: what an event posts to the webhooks that want it (`announce`, in the write's
transaction; the posts go after the commit, league.notices.webhook_delivery), and the board's writes of
its webhooks. The words are the league's language: the chat is one room, whoever reads it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Prefetch, Q
from django.utils.translation import gettext as _

from league.accounts import is_board
from league.lib.refusals import Refusal
from league.lib.writes import league_write
from league.models import Webhook, WebhookDelivery
from league.notices import webhook_delivery
from league.notices.webhook_delivery import Refused

Kind = WebhookDelivery.Kind
USERNAME = "Torshov League"
# Discord's limits: a message's content, an embed's title and description, embeds per message.
CONTENT_MAX, TITLE_MAX, DESCRIPTION_MAX, EMBEDS_MAX = 2000, 256, 4096, 10
# Which of the board's choices takes each kind of event.
WANTS = {Kind.RESULT: "results", Kind.VOID: "results", Kind.SEASON_TABLES: "season_tables"}
WANTS[Kind.BOARD_MESSAGE] = "board_messages"


class WebhookError(Refusal):
    pass


@dataclass(frozen=True)
class Event:
    """What one event posts: its line (the chat's message), a link, and sections (title, text) beside it."""

    kind: str
    key: str
    text: str
    url: str = ""
    sections: tuple[tuple[str, str], ...] = ()
    data: dict[str, Any] = field(default_factory=dict)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def payload(webhook: Webhook, event: Event) -> dict[str, Any]:
    """The body for the webhook's format: Discord's message, or the event as plain JSON."""
    if webhook.format == Webhook.Format.JSON:
        return {
            "event": event.kind,
            "key": event.key,
            "text": event.text,
            "url": event.url,
            "sections": [{"title": title, "text": text} for title, text in event.sections],
            "data": event.data,
        }
    content = event.text if not event.url or event.sections else f"{event.text}\n{event.url}"
    embeds = [
        {"title": _cut(title, TITLE_MAX), "description": _cut(text, DESCRIPTION_MAX)}
        | ({"url": event.url} if event.url else {})
        for title, text in event.sections[:EMBEDS_MAX]
    ]
    # no @everyone or role pinged by a team's name or the board's text
    return {
        "username": USERNAME,
        "content": _cut(content, CONTENT_MAX),
        "embeds": embeds,
        "allowed_mentions": {"parse": []},
    }


def announce(event: Event, *, only_to: Q | None = None) -> list[WebhookDelivery]:
    """The event's post to each active webhook that wants its kind, made in the caller's transaction and
    posted after it commits. Once per webhook and key: an event announced again makes nothing.
    `only_to` narrows the webhooks (a void goes only where its result went)."""
    hooks = Webhook.objects.filter(active=True, **{WANTS[event.kind]: True})
    if only_to is not None:
        hooks = hooks.filter(only_to).distinct()
    made = []
    for webhook in hooks:
        with transaction.atomic():  # a savepoint: the constraint's refusal leaves the rest standing
            row, new = WebhookDelivery.objects.get_or_create(
                webhook=webhook, key=event.key, defaults={"kind": event.kind, "payload": payload(webhook, event)}
            )
        if new:
            made.append(row)
    if made:
        ids = [row.pk for row in made]
        transaction.on_commit(lambda: webhook_delivery.enqueue(ids))
    return made


def check_address(url: str) -> None:
    """Refuse an address the league does not post to, with the reason in words (WebhookError)."""
    try:
        webhook_delivery.checked_addresses(url)
    except Refused as refusal:
        raise WebhookError([str(refusal)]) from None


def _refuse_unless_board(by: AbstractBaseUser) -> None:
    if not is_board(by):
        raise WebhookError([_("Only the board sets the league's webhooks.")])


@league_write
def save_webhook(*, by: AbstractBaseUser, webhook: Webhook | None = None, **fields: Any) -> Webhook:
    """A new webhook, or the board's change of one (its history keeps who and when); its address checked."""
    _refuse_unless_board(by)
    check_address(fields["url"])
    if webhook is None:
        row = Webhook(**fields)
    else:
        row = Webhook.objects.select_for_update().get(pk=webhook.pk)
        for name, value in fields.items():
            setattr(row, name, value)
    row._history_user = by
    row.save()
    return row


@league_write
def delete_webhook(*, by: AbstractBaseUser, webhook: Webhook) -> None:
    _refuse_unless_board(by)
    row = Webhook.objects.select_for_update().filter(pk=webhook.pk).first()
    if row is not None:
        row._history_user = by
        row.delete()


def send_test(*, by: AbstractBaseUser, webhook: Webhook) -> WebhookDelivery:
    """A test message posted now, while the board waits (at most the post's time-out), so the page can say
    what the chat answered. Tried once: the board presses again."""
    _refuse_unless_board(by)
    event = Event(Kind.TEST, f"test:{uuid.uuid4().hex}", _("Test from Torshov League: this webhook works."))
    with transaction.atomic():
        row = WebhookDelivery.objects.create(
            webhook=webhook, kind=event.kind, key=event.key, payload=payload(webhook, event)
        )
    webhook_delivery.deliver(row.pk)
    row.refresh_from_db()
    if row.state == WebhookDelivery.State.PENDING:  # a test is not tried again by the sweep
        WebhookDelivery.objects.filter(pk=row.pk).update(state=WebhookDelivery.State.FAILED, next_at=None)
        row.state = WebhookDelivery.State.FAILED
    return row


def webhooks_with_deliveries(shown: int = 5) -> list[tuple[Webhook, list[WebhookDelivery]]]:
    """Each webhook and its newest posts, for the board's page: two queries however many webhooks."""
    newest = WebhookDelivery.objects.order_by("-created_at", "-pk")[:shown]
    hooks = Webhook.objects.prefetch_related(Prefetch("deliveries", queryset=newest, to_attr="newest"))
    return [(w, w.newest) for w in hooks]
