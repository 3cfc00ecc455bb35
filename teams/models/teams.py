"""Teams, their stadiums and the facilities bought for them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from teams.models.catalogue import Race


class TeamQuerySet(models.QuerySet):
    def active(self) -> TeamQuerySet:
        return self.filter(active=True)

    def named(self) -> TeamQuerySet:
        """Teams as lists show them, by name and race (`race_name`): tables and leaders show hundreds."""
        return self.only("id", "name").annotate(race_name=models.F("race__name"))


class Team(models.Model):
    name = models.CharField(_("name"), max_length=80, unique=True)
    race = models.ForeignKey(Race, on_delete=models.PROTECT, related_name="teams", verbose_name=_("race"))
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="teams", verbose_name=_("coach")
    )
    ruleset = models.ForeignKey(
        "league.Ruleset", on_delete=models.PROTECT, related_name="+", verbose_name=_("created under ruleset")
    )
    rerolls = models.PositiveSmallIntegerField(_("team re-rolls"), default=0)
    fan_factor = models.PositiveSmallIntegerField(_("fan factor"), default=0)
    assistant_coaches = models.PositiveSmallIntegerField(_("assistant coaches"), default=0)
    cheerleaders = models.PositiveSmallIntegerField(_("cheerleaders"), default=0)
    apothecary = models.BooleanField(_("apothecary"), default=False)
    mvps_received = models.PositiveSmallIntegerField(_("MVPs received"), default=0)
    trophy_rerolls = models.PositiveSmallIntegerField(
        _("trophy re-rolls"), default=0, help_text=_("Won with a division or the cup, for the next season (R32).")
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    history = HistoricalRecords()

    objects = TeamQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("team", args=[self.pk])


class Stadium(models.Model):
    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="stadium")
    capacity = models.PositiveIntegerField(_("capacity"))
    roof = models.BooleanField(_("roof"), default=False)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("stadium")
        verbose_name_plural = _("stadiums")

    def __str__(self) -> str:
        return f"{self.team}: {self.capacity:,}"


class Facility(models.Model):
    """A stadium facility the team has bought (the roof is a field of the stadium)."""

    stadium = models.ForeignKey(Stadium, on_delete=models.CASCADE, related_name="facilities")
    key = models.CharField(_("facility"), max_length=30)
    bought_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("facility")
        verbose_name_plural = _("facilities")
        constraints = [models.UniqueConstraint(fields=["stadium", "key"], name="facility_once_per_stadium")]

    def __str__(self) -> str:
        return self.key
