"""The league's chat: webhook addresses the board sets (a Discord channel, or any receiver of plain JSON)
and each event posted to one, once (league.notices.webhooks)."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


def new_webhook_secret() -> str:
    return secrets.token_urlsafe(32)


class Webhook(models.Model):
    class Format(models.TextChoices):
        DISCORD = "discord", _("Discord (content and embeds)")
        JSON = "json", _("Plain JSON, signed")

    name = models.CharField(_("name"), max_length=80)
    url = models.URLField(_("address"), max_length=500)
    format = models.CharField(_("format"), max_length=10, choices=Format.choices, default=Format.DISCORD)
    # The receiver checks the plain JSON's signature with it; the board sees it once, and in the admin.
    secret = models.CharField(_("secret"), max_length=64, default=new_webhook_secret, editable=False)
    results = models.BooleanField(_("confirmed results"), default=True)
    season_tables = models.BooleanField(_("the final tables when a season ends"), default=True)
    board_messages = models.BooleanField(_("the board's messages"), default=False)
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    history = HistoricalRecords(excluded_fields=["secret"])

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class WebhookDelivery(models.Model):
    """One event posted to one webhook. The key ("result:12") is unique per webhook: an event is delivered
    once however often its write runs, and the row is locked while it is sent (league.notices.webhooks)."""

    class Kind(models.TextChoices):
        RESULT = "result", _("Confirmed result")
        VOID = "void", _("Result voided")
        SEASON_TABLES = "season_tables", _("Final tables")
        BOARD_MESSAGE = "board_message", _("The board's message")
        TEST = "test", _("Test")

    class State(models.TextChoices):
        PENDING = "pending", _("to send")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    key = models.CharField(_("event"), max_length=80)
    payload = models.JSONField(_("what is posted"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True)
    status_code = models.PositiveSmallIntegerField(_("answer"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["webhook", "key"], name="webhook_delivery_once")]
        indexes = [
            models.Index(fields=["next_at"], condition=Q(state="pending"), name="webhook_delivery_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.webhook} {self.key}: {self.state}"
