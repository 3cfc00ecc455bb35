"""The treasury: one ledger line per movement of gold."""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.messages import MessagesField, translated
from teams.models.teams import Team


class TreasuryEntry(models.Model):
    """One movement of gold. The treasury is the last running balance, which the database keeps ≥ 0;
    (team, seq) is unique so two writers cannot both build on the same balance."""

    class Kind(models.TextChoices):
        STARTING = "starting", _("Starting treasury")
        REGISTERED = "registered", _("Treasury when registered")
        PURCHASE = "purchase", _("Purchase")
        WINNINGS = "winnings", _("Winnings")
        PRIZE = "prize", _("Prize")
        FEE = "fee", _("Fee")
        CORRECTION = "correction", _("Correction by the board")

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="ledger")
    seq = models.PositiveIntegerField()
    amount = models.IntegerField(_("amount"))
    balance = models.IntegerField(_("balance"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    description = models.CharField(_("description"), max_length=200)
    # The description as a message (league.rules.messages.Msg), shown in each reader's language however the
    # line was written (`text`); None where it is someone's own words (a correction's reason is part of a
    # message, a facility's name is the ruleset's) or the line is older than it.
    message = MessagesField(_("description as a message"), null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now)
    # What caused it: a player hired, a match, a prize.
    cause_type = models.ForeignKey(ContentType, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    cause_id = models.PositiveBigIntegerField(null=True, blank=True)
    cause = GenericForeignKey("cause_type", "cause_id")
    # A unique key for an effect that must be paid once only (a match's winnings for a team).
    idempotency_key = models.CharField(max_length=100, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["team", "seq"]
        verbose_name = _("treasury entry")
        verbose_name_plural = _("treasury entries")
        constraints = [
            models.UniqueConstraint(fields=["team", "seq"], name="treasury_seq_unique"),
            models.CheckConstraint(condition=Q(balance__gte=0), name="treasury_never_below_zero"),
            models.CheckConstraint(condition=~Q(amount=0) | Q(seq=1), name="treasury_entry_moves_gold"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.amount:+,} → {self.balance:,}"

    @property
    def text(self) -> str:
        """The description in the current language (as written where it is no message)."""
        return translated(self.message) if self.message is not None else self.description

    @property
    def kind_note(self) -> str:
        """The kind, to show beside the description unless the description begins with it already
        ("Kampbonus: home – away" is not followed by "(Kampbonus)")."""
        kind = str(self.get_kind_display())
        return "" if self.text.startswith(kind) else kind
