"""A date proposed for a fixture by one coach, for the other to accept.

The rows are kept for good: each says who proposed what and when, and how it ended (accepted by whom,
declined by a counter-proposal, or closed when the board set the date), so the history of how a date
was agreed stays readable."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models.match import Match

MAX_PROPOSED = 3  # "offer at least 3 options" is what leagues ask; three at once is what a coach can send


class DateProposal(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined with other dates")
        CLOSED = "closed", _("Closed: the date was set otherwise")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="date_proposals")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+", verbose_name=_("team"))
    starts_at = models.DateTimeField(_("date and time"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("proposed by")
    )
    proposed_at = models.DateTimeField(_("proposed at"), default=timezone.now)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "proposed_at", "starts_at", "pk"]
        verbose_name = _("date proposal")
        verbose_name_plural = _("date proposals")
        indexes = [models.Index(fields=["match", "status"])]

    def __str__(self) -> str:
        return f"{self.match}: {self.starts_at:%Y-%m-%d %H:%M}"
