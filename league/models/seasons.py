"""The season and its parts: divisions, the teams' entries, tiebreak games, the cup and the season end."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league import rules
from league.models.rulesets import Ruleset


def round_name(number: int, *, cup_teams: int | None = None) -> str:
    """A round as every page, notice and calendar names it: a division's by its number; a cup's last three by
    what they are (the final, the semi-finals, the quarter-finals), counted back from the final its drawn
    teams make (R34), the earlier ones by number. In lower case: a heading writes it with `capfirst`."""
    if cup_teams is not None:
        names = {
            0: gettext("final"),
            1: gettext("semi-final"),
            2: gettext("quarter-final"),
        }
        name = names.get(rules.cup_rounds(cup_teams) - number)
        if name is not None:
            return name
    return gettext("round %(n)s") % {"n": number}


class SeasonQuerySet(models.QuerySet):
    def with_rules(self) -> SeasonQuerySet:
        """Seasons with their ruleset and cup in the same query, the ruleset's tables and settings left
        unread: a published version's are parsed once per process (`Ruleset.rules`) and read only then.
        The 19 KB were most of a public page's read of its season."""
        return self.select_related("ruleset", "cup").defer("ruleset__data")

    def running(self) -> SeasonQuerySet:
        """The seasons that have started and not ended (R43), the one meaning of "running" everywhere.

        Started: the board started it, or it has a match (its fixtures, or its cup's draw, which makes
        the first round's matches). The status alone would miss fixtures generated or a cup drawn before
        the board pressed "start", and those teams already have matches to play. Ended: the season end
        ran (`league.seasons.services.season_end.commit_season_end` marks it finished and keeps its `SeasonEnd`)."""
        # Match sits a layer above; its reverse relation, `matches`, reads it without an import.
        with_matches = Season.objects.filter(matches__isnull=False).values("pk")
        started = models.Q(status=Season.Status.RUNNING) | models.Q(pk__in=with_matches)
        return self.filter(started, end__isnull=True).exclude(status=Season.Status.FINISHED)

    def running_with_matches_for(self, team: Any) -> SeasonQuerySet:
        """Running seasons the team plays in whose first match has been played (R7: in season)."""
        return self.running().filter(entries__team=team, matches__status="confirmed").distinct()


class Season(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=80, unique=True)
    ruleset = models.ForeignKey(Ruleset, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("ruleset"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    first_with_stadium_rules = models.BooleanField(
        _("first season with stadium rules"),
        default=False,
        help_text=_("Home teams may choose a neutral venue, as in the cup (R14)."),
    )
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next", verbose_name=_("previous season")
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        # The league's two roles (league.accounts), held through groups whatever their names.
        permissions = [("board", "Acts as the league board"), ("coach", "Coaches a team in the league")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("season", args=[self.pk])

    def has_begun(self) -> bool:
        """Started, as `SeasonQuerySet.running` means it (R43), ended or not: the board started it or it
        has a match. From then on its rules and divisions are history."""
        return self.status != Season.Status.PLANNED or self.matches.exists()


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField(_("level"))
    name = models.CharField(_("name"), max_length=40)
    die = models.PositiveSmallIntegerField(
        _("gate and winnings die"), help_text=_("6 for a D6, 5 for a D5 (R12, R20).")
    )

    class Meta:
        ordering = ["season", "level"]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="division_level_once_per_season"),
            models.CheckConstraint(condition=models.Q(die__gte=2), name="division_die_is_a_die"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.season})"


class SeasonEntry(models.Model):
    """A team's place in a division for a season; a team plays in one division a season."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="season_entries")
    # who coached the team that season: a coach's career counts his seasons, not his team's (a team that
    # changes coach keeps its history with the coach who played it)
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="season_entries", verbose_name=_("coach")
    )

    class Meta:
        verbose_name = _("season entry")
        verbose_name_plural = _("season entries")
        ordering = ["division", "team__name"]
        constraints = [models.UniqueConstraint(fields=["season", "team"], name="team_once_per_season")]

    def __str__(self) -> str:
        return f"{self.team} in {self.division}"


class TiebreakGame(models.Model):
    """The tiebreak game's winner, recorded by the board, for a tie the table cannot split (R31)."""

    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="tiebreaks", verbose_name=_("division")
    )
    winner = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+", verbose_name=_("winner"))
    loser = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+", verbose_name=_("loser"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    # who recorded each game and who took it back, and when (R31): a table's history, also of the deleted
    history = HistoricalRecords(
        verbose_name=_("tiebreak game recorded or taken back"),
        verbose_name_plural=_("tiebreak games recorded and taken back"),
    )

    class Meta:
        verbose_name = _("tiebreak game")
        verbose_name_plural = _("tiebreak games")
        constraints = [
            models.UniqueConstraint(fields=["division", "winner", "loser"], name="tiebreak_once"),
            models.CheckConstraint(condition=~models.Q(winner=models.F("loser")), name="tiebreak_two_teams"),
        ]

    def __str__(self) -> str:
        return f"{self.winner} beat {self.loser}"


class Cup(models.Model):
    """The season's knock-out cup (R34); its matches are fixtures with a cup round."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="cup")
    name = models.CharField(_("name"), max_length=80)
    prize = models.PositiveIntegerField(_("prize"), default=0, help_text=_("Set by the board for each cup (R34)."))
    draw = models.JSONField(_("drawn order"), default=list, help_text=_("Team ids in the order drawn."))
    drawn_randomly = models.BooleanField(default=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    drawn_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("cup")
        verbose_name_plural = _("cups")

    def __str__(self) -> str:
        return self.name

    def round_name(self, number: int) -> str:
        """The cup's round `number` by its name ("final", "semi-final"): `round_name`."""
        return round_name(number, cup_teams=len(self.draw))


class SeasonEnd(models.Model):
    """The season end as committed: one row per season, so committing twice does nothing."""

    season = models.OneToOneField(Season, on_delete=models.PROTECT, related_name="end")
    committed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    committed_at = models.DateTimeField(default=timezone.now)
    summary = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("season end")
        verbose_name_plural = _("season ends")

    def __str__(self) -> str:
        return f"End of {self.season}"
