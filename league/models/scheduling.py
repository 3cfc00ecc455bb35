"""The board's deadline for a round of a season: the fixtures of the round are to be played by
then. A league round counts across the season's divisions (round 3 of both divisions); a cup round is
its own."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.models.seasons import Season


class RoundDeadline(models.Model):
    class Competition(models.TextChoices):
        LEAGUE = "league", _("League")
        CUP = "cup", _("Cup")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="deadlines")
    competition = models.CharField(
        _("competition"), max_length=6, choices=Competition.choices, default=Competition.LEAGUE
    )
    round = models.PositiveSmallIntegerField(_("round"))
    deadline = models.DateField(_("deadline"), help_text=_("The round's matches are played by this day."))
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    set_at = models.DateTimeField(default=timezone.now)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "competition", "round"]
        verbose_name = _("round deadline")
        verbose_name_plural = _("round deadlines")
        constraints = [
            models.UniqueConstraint(fields=["season", "competition", "round"], name="deadline_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.competition} {self.round}: {self.deadline}"
