"""What the league tells a coach: one Notification per recipient (the inbox, "Varsler", and the
e-mail's state), each coach's choice of e-mail per kind, and the language his e-mails are written in.

A notification stores its kind and parameters, never a sentence: the text is rendered in the reader's
language when shown or sent (league.notices.texts). No public page shows these rows, so writing them
raises no league version (league.lib.writes) and opening the inbox leaves the page cache alone."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class Notification(models.Model):
    class Kind(models.TextChoices):
        REPORT_FILED = "report_filed", _("A report to confirm or dispute")
        REPORT_CONFIRMED = "report_confirmed", _("Your report confirmed")
        REPORT_DISPUTED = "report_disputed", _("Your report disputed")
        BOARD_RULED = "board_ruled", _("The board voided, reopened, corrected or forfeited your match")
        FIXTURE_SCHEDULED = "fixture_scheduled", _("A fixture scheduled")
        DATE_PROPOSED = "date_proposed", _("A date proposed")
        DATE_ACCEPTED = "date_accepted", _("A date accepted")
        DATE_CHANGED = "date_changed", _("A date changed")
        PREMATCH_REMINDER = "prematch_reminder", _("Reminder: the pre-match before a dated match")
        POSTMATCH_REMINDER = "postmatch_reminder", _("Reminder: an unfinished post-match sequence")
        BOARD_MESSAGE = "board_message", _("The board's messages")
        REPLAY_SCHEDULED = "replay_scheduled", _("A voided match to be played again")
        # the board's own (R45, R47): each member chooses them by e-mail as a coach chooses his
        DISPUTE_TO_SETTLE = "dispute_to_settle", _("The board: a disputed report to settle")
        REOPENED_OVERDUE = "reopened_overdue", _("The board: a reopened report not filed again in time")

    class Email(models.TextChoices):
        NONE = "none", _("not by e-mail")  # no address, or the coach chose the inbox only
        PENDING = "pending", _("to send")
        SENT = "sent", _("sent")
        SKIPPED = "skipped", _("not sent: unsubscribed or no address when its turn came")
        FAILED = "failed", _("failed every attempt")

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("recipient")
    )
    kind = models.CharField(_("kind"), max_length=30, choices=Kind.choices)
    match = models.ForeignKey(
        "matches.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    url = models.CharField(_("address"), max_length=300, blank=True, help_text=_("The page to act on."))
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    # A notice that asks for an action names it ("confirm:12", league.seasons.waiting): it waits while
    # that action is on its reader's list and is done as soon as anyone takes it. Blank: news, read once.
    action = models.CharField(_("action"), max_length=60, blank=True, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)
    # A reminder's day: the match's date (pre-match) or the day it was confirmed (post-match). A match
    # moved to another day, or confirmed again after a reopening, is reminded of again.
    reminded_for = models.DateField(_("reminded for"), null=True, blank=True, editable=False)
    # The e-mail, sent at most once (league.notices.delivery locks the row and reads this first).
    email_state = models.CharField(_("e-mail"), max_length=10, choices=Email.choices, default=Email.NONE)
    email_attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    email_next_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    email_error = models.CharField(_("last error"), max_length=300, blank=True)
    emailed_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["recipient", "-created_at"], name="notice_inbox"),
            models.Index(fields=["recipient"], condition=Q(read_at__isnull=True), name="notice_unread"),
            models.Index(fields=["email_next_at"], condition=Q(email_state="pending"), name="notice_email_pending"),
        ]
        constraints = [
            # A reminder once per match, coach and day: a second run of send_reminders inserts nothing.
            models.UniqueConstraint(
                fields=["recipient", "kind", "match", "reminded_for"],
                condition=Q(kind__in=["prematch_reminder", "postmatch_reminder", "reopened_overdue"]),
                name="notice_reminder_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} → {self.recipient}"


class NoticePreference(models.Model):
    """A coach's choice for one kind: e-mail on or off, push on or off. No row: both on (e-mail when the coach
    has an address, push when the coach has a device: turning a device on is the choice to hear of it)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preferences")
    kind = models.CharField(_("kind"), max_length=30, choices=Notification.Kind.choices)
    email = models.BooleanField(_("by e-mail"), default=True)
    push = models.BooleanField(_("on the devices"), default=True)

    class Meta:
        verbose_name = _("notification choice")
        verbose_name_plural = _("notification choices")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="notice_preference_once")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind}: {'e-mail' if self.email else 'inbox'}"


class NoticeSettings(models.Model):
    """The language a coach's e-mails are written in (Norwegian unless he chose English), and a new address
    he gave that waits for him to open the link sent to it: mail goes to the user's address, which the board
    set or he confirmed, never to one typed and not confirmed."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings")
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, default="nb")
    pending_email = models.EmailField(_("new address, not yet confirmed"), blank=True)
    pending_sent_at = models.DateTimeField(_("its link sent"), null=True, blank=True, editable=False)
    # Quiet hours, in the league's time zone: no push between them, sent when they end. Both or neither.
    quiet_from = models.TimeField(_("quiet from"), null=True, blank=True)
    quiet_to = models.TimeField(_("quiet until"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(quiet_from__isnull=True, quiet_to__isnull=True)
                | (Q(quiet_from__isnull=False, quiet_to__isnull=False) & ~Q(quiet_from=models.F("quiet_to"))),
                name="notice_settings_quiet_hours",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"


class PushSubscription(models.Model):
    """One device (a browser on a phone or computer) that asked for Web Push: where its push service takes
    messages (`endpoint`) and the keys they are encrypted with (RFC 8291). A push service answering 404 or
    410 has forgotten it: it is deleted (league.notices.push)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=100)
    auth = models.CharField(_("auth secret"), max_length=40)
    label = models.CharField(_("device"), max_length=80, blank=True)
    user_agent = models.CharField(_("browser"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("added"), default=timezone.now)
    last_success = models.DateTimeField(_("last delivered"), null=True, blank=True)
    failures = models.PositiveIntegerField(_("failures in a row"), default=0)

    class Meta:
        verbose_name = _("push device")
        verbose_name_plural = _("push devices")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user}: {self.label or self.endpoint[:40]}"

    def info(self) -> dict[str, Any]:
        """What pywebpush asks for: the browser's PushSubscription.toJSON()."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushDelivery(models.Model):
    """One notification pushed to one device, sent at most once (the row is locked and its state read first,
    as an e-mail's is). `kind` and `match` are the notification's, kept here for the constraint: a kind is
    pushed once per match and device, so a busy match day is not a storm on the phone."""

    class State(models.TextChoices):
        PENDING = "pending", _("to send")
        SENT = "sent", _("sent")
        SKIPPED = "skipped", _("not sent: turned off when its turn came")
        FAILED = "failed", _("failed every attempt")

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="pushes")
    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE, related_name="deliveries")
    kind = models.CharField(_("kind"), max_length=30, choices=Notification.Kind.choices)
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    error = models.CharField(_("last error"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("push delivery")
        verbose_name_plural = _("push deliveries")
        indexes = [models.Index(fields=["next_at"], condition=Q(state="pending"), name="push_pending")]
        constraints = [
            models.UniqueConstraint(fields=["notification", "subscription"], name="push_once"),
            models.UniqueConstraint(
                fields=["subscription", "kind", "match"], condition=Q(match__isnull=False), name="push_once_per_match"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.notification} → {self.subscription.label}: {self.state}"


class LeagueSettings(models.Model):
    """The reminders' timing, set by the board in the app (one row; its history says who changed what)."""

    prematch_days = models.PositiveSmallIntegerField(
        _("pre-match reminder, days before the match"),
        default=2,
        validators=[MaxValueValidator(60)],
        help_text=_("Both coaches are reminded this many days before a dated match whose pre-match is not begun."),
    )
    postmatch_days = models.PositiveSmallIntegerField(
        _("post-match reminder, days after confirmation"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_(
            "A coach whose post-match sequence is unfinished this many days after the confirmation is reminded."
        ),
    )
    board_days = models.PositiveSmallIntegerField(
        _("the board's desk, days before an open action is overdue"),
        default=7,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_(
            "A post-match sequence unfinished, or a reopened report not filed again, this many days goes on the "
            "board's desk; a reopened report also tells the board by notice."
        ),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("league settings")
        verbose_name_plural = _("league settings")
        constraints = [
            models.CheckConstraint(condition=Q(prematch_days__lte=60), name="league_settings_prematch_days"),
            models.CheckConstraint(
                condition=Q(postmatch_days__gte=1, postmatch_days__lte=60), name="league_settings_postmatch_days"
            ),
            models.CheckConstraint(
                condition=Q(board_days__gte=1, board_days__lte=60), name="league_settings_board_days"
            ),
        ]

    def __str__(self) -> str:
        return str(_("league settings"))

    @classmethod
    def current(cls) -> LeagueSettings:
        """The one row, made with the defaults when the board has not saved any."""
        found = cls.objects.filter(pk=1).first()
        return found if found is not None else cls(pk=1)
