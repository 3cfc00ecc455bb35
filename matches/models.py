from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class MatchQuerySet(models.QuerySet):
    def confirmed(self) -> MatchQuerySet:
        return self.filter(status=Match.Status.CONFIRMED)

    def for_team(self, team) -> MatchQuerySet:
        return self.filter(Q(home=team) | Q(away=team))


class Match(models.Model):
    """A fixture of a division or a cup round, and its result once confirmed."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        CONFIRMED = "confirmed", _("Confirmed")
        BYE = "bye", _("Bye")
        VOID = "void", _("Void")

    season = models.ForeignKey("league.Season", on_delete=models.CASCADE, related_name="matches")
    division = models.ForeignKey(
        "league.Division", null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    cup = models.ForeignKey("league.Cup", null=True, blank=True, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField(_("round"))
    cup_slot = models.PositiveSmallIntegerField(null=True, blank=True)
    home = models.ForeignKey(
        "teams.Team",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="home_matches",
        verbose_name=_("home"),
    )
    away = models.ForeignKey(
        "teams.Team",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="away_matches",
        verbose_name=_("away"),
    )
    date = models.DateField(_("date"), null=True, blank=True)
    neutral = models.BooleanField(_("neutral venue"), default=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    home_score = models.PositiveSmallIntegerField(null=True, blank=True)
    away_score = models.PositiveSmallIntegerField(null=True, blank=True)
    home_casualties = models.PositiveSmallIntegerField(default=0)
    away_casualties = models.PositiveSmallIntegerField(default=0)
    tiebreak_winner = models.ForeignKey(
        "teams.Team",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("tiebreak winner"),
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    history = HistoricalRecords()

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["season", "division", "round", "pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [models.Index(fields=["season", "status"]), models.Index(fields=["status", "confirmed_at"])]
        constraints = [
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="match_two_teams"),
            models.CheckConstraint(
                condition=Q(division__isnull=True) | Q(cup__isnull=True), name="match_league_or_cup"
            ),
            models.CheckConstraint(
                condition=~Q(status="confirmed") | Q(home_score__isnull=False, away_score__isnull=False),
                name="match_confirmed_has_score",
            ),
            models.CheckConstraint(
                condition=Q(cup__isnull=False) | Q(home__isnull=False, away__isnull=False),
                name="match_league_has_two_teams",
            ),
            models.UniqueConstraint(
                fields=["cup", "round", "cup_slot"], condition=Q(cup__isnull=False), name="match_cup_slot_once"
            ),
        ]

    def __str__(self) -> str:
        home = self.home or "?"
        away = self.away or (_("bye") if self.status == self.Status.BYE else "?")
        return f"{home} – {away}"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def is_confirmed(self) -> bool:
        return self.status == self.Status.CONFIRMED

    @property
    def winner_id(self) -> int | None:
        """The winner: the higher score, or in a drawn cup match the tiebreak winner (R34)."""
        if self.status == self.Status.BYE:
            return self.home_id
        if not self.is_confirmed:
            return None
        if self.home_score > self.away_score:
            return self.home_id
        if self.away_score > self.home_score:
            return self.away_id
        return self.tiebreak_winner_id
