from __future__ import annotations

import copy
import secrets
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league import rules
from league.rules.records import RECORD_COUNTERS

_PARSED: dict[tuple[int, Any], rules.Ruleset] = {}


class RulesetQuerySet(models.QuerySet):
    def published(self) -> RulesetQuerySet:
        return self.filter(status=Ruleset.Status.PUBLISHED)


class Ruleset(models.Model):
    """A named version of the rulebook's tables and settings.

    A season is played under one published version; a published version never changes (the model
    refuses and a database trigger refuses), so changing the rules never rewrites history.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")

    name = models.CharField(_("name"), max_length=100, unique=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    data = models.JSONField(_("tables and settings"))
    notes = models.TextField(_("notes"), blank=True, help_text=_("What changed and why."))
    based_on = models.ForeignKey(
        "self", verbose_name=_("based on"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    published_at = models.DateTimeField(_("published"), null=True, blank=True, editable=False)

    objects = RulesetQuerySet.as_manager()

    class Meta:
        verbose_name = _("ruleset")
        verbose_name_plural = _("rulesets")
        ordering = ["-published_at", "-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(status="published", published_at__isnull=False) | models.Q(status="draft")),
                name="ruleset_published_has_date",
            ),
        ]

    def __str__(self) -> str:
        return self.name if self.is_published else f"{self.name} ({self.get_status_display()})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk and type(self).objects.filter(pk=self.pk, status=self.Status.PUBLISHED).exists():
            raise ValidationError(_("A published ruleset cannot be changed. Copy it to a new draft instead."))
        self.data = {**self.data, "name": self.name}
        self.__dict__.pop("rules", None)
        super().save(*args, **kwargs)

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    @cached_property
    def rules(self) -> rules.Ruleset:
        """The pure ruleset this version describes. A published version never changes, so its parsed
        form is shared by every request in the process."""
        if self.is_published and self.pk:
            key = (self.pk, self.published_at)
            if key not in _PARSED:
                _PARSED[key] = rules.Ruleset.from_data(self.data)
            return _PARSED[key]
        return rules.Ruleset.from_data(self.data)

    def clean(self) -> None:
        try:
            rules.parse_ruleset_data(self.data)
        except rules.RulesetError as exc:
            raise ValidationError(str(exc)) from exc
        if self.pk and type(self).objects.filter(pk=self.pk, status=self.Status.PUBLISHED).exists():
            raise ValidationError(_("A published ruleset cannot be changed. Copy it to a new draft instead."))

    @transaction.atomic
    def publish(self) -> None:
        """Validate and freeze this version."""
        if self.is_published:
            return
        self.full_clean()
        self.status = self.Status.PUBLISHED
        self.published_at = timezone.now().replace(microsecond=0)  # survives serialization unchanged
        self.save()

    def copy_as_draft(self, name: str, *, by: Any = None) -> Ruleset:
        return Ruleset.objects.create(name=name, data=copy.deepcopy(self.data), based_on=self, created_by=by, notes="")

    @classmethod
    def default(cls) -> Ruleset:
        """The newest published version: what a new season is played under unless the board picks another."""
        ruleset = cls.objects.published().first()
        if ruleset is None:
            raise cls.DoesNotExist("No published ruleset: run the migrations.")
        return ruleset


class SeasonQuerySet(models.QuerySet):
    def with_rules(self) -> SeasonQuerySet:
        """Seasons with their ruleset and cup in the same query, the ruleset's tables and settings left
        unread: a published version's are parsed once per process (`Ruleset.rules`) and read only then.
        The 19 KB were most of a public page's read of its season (issue 16)."""
        return self.select_related("ruleset", "cup").defer("ruleset__data")

    def running(self) -> SeasonQuerySet:
        """The seasons that have started and not ended (R43), the one meaning of "running" everywhere.

        Started: the board started it, or it has a match (its fixtures, or its cup's draw, which makes
        the first round's matches). The status alone would miss fixtures generated or a cup drawn before
        the board pressed "start", and those teams already have matches to play. Ended: the season end
        ran (`league.seasons.services.commit_season_end` marks it finished and keeps its `SeasonEnd`)."""
        match = self.model._meta.get_field("matches").related_model  # matches.Match, a layer above
        started = models.Q(status=Season.Status.RUNNING) | models.Exists(
            match.objects.filter(season=models.OuterRef("pk"))
        )
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

    class Meta:
        verbose_name = _("season entry")
        verbose_name_plural = _("season entries")
        ordering = ["division", "team__name"]
        constraints = [models.UniqueConstraint(fields=["season", "team"], name="team_once_per_season")]

    def __str__(self) -> str:
        return f"{self.team} in {self.division}"


class TiebreakGame(models.Model):
    """The tiebreak game's winner, recorded by the board, for a tie the table cannot split (R31)."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="tiebreaks")
    winner = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+")
    loser = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)

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


# --- kept statistics (issue 16): rows matches.stats updates with every result, so the tables and the
# leaders read a handful of rows whatever the league's history; `manage.py rebuild_stats` recomputes them.

STAT_FIELDS_TEAM = (
    "played",
    "won",
    "drawn",
    "lost",
    "points",
    "touchdowns_for",
    "touchdowns_against",
    "casualties_for",
    "casualties_against",
)
# A player's kept counters: the matches he played, his record's counters (R28) and the SPP they are worth.
STAT_FIELDS_PLAYER = ("matches", *RECORD_COUNTERS, "spp")
# The counters the leaders pages rank players by (league.seasons.leaders.PLAYER_STATS): all but the
# foul casualties.
LEADER_COUNTERS = tuple(name for name in STAT_FIELDS_PLAYER if name != "foul_casualties")


class TeamSeasonStats(models.Model):
    """A team's record in one season's league matches (its division line, R31) or cup matches (R34).

    Kept by matches.stats in the same transaction as the result that changes it."""

    class Competition(models.TextChoices):
        LEAGUE = "league", _("League")
        CUP = "cup", _("Cup")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="team_stats")
    division = models.ForeignKey(Division, null=True, blank=True, on_delete=models.CASCADE, related_name="team_stats")
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="season_stats")
    competition = models.CharField(max_length=6, choices=Competition.choices, default=Competition.LEAGUE)
    played = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    drawn = models.IntegerField(default=0)
    lost = models.IntegerField(default=0)
    points = models.IntegerField(default=0)
    touchdowns_for = models.IntegerField(default=0)
    touchdowns_against = models.IntegerField(default=0)
    casualties_for = models.IntegerField(default=0)
    casualties_against = models.IntegerField(default=0)
    head_to_head = models.JSONField(default=dict, help_text="Points won against each opponent, by its id (R31).")

    class Meta:
        verbose_name = _("team season statistics")
        verbose_name_plural = _("team season statistics")
        constraints = [
            models.UniqueConstraint(fields=["season", "team", "competition"], name="team_stats_once_per_competition")
        ]

    def __str__(self) -> str:
        return f"{self.team_id} in {self.season_id} ({self.competition})"


class PlayerStats(models.Model):
    """A player's counters for one season, or his whole career (season empty): matches played and
    the deeds of R28 from confirmed reports, with the SPP they are worth under each season's rules."""

    player = models.ForeignKey("teams.Player", on_delete=models.CASCADE, related_name="stats")
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    matches = models.IntegerField(default=0)
    completions = models.IntegerField(default=0)
    touchdowns = models.IntegerField(default=0)
    interceptions = models.IntegerField(default=0)
    casualties = models.IntegerField(default=0)
    foul_casualties = models.IntegerField(default=0)
    mvps = models.IntegerField(default=0)
    spp = models.IntegerField(default=0)

    class Meta:
        verbose_name = _("player statistics")
        verbose_name_plural = _("player statistics")
        constraints = [
            models.UniqueConstraint(fields=["player", "season"], name="player_stats_once_per_season"),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(season__isnull=True), name="player_stats_one_career"
            ),
        ]
        # The leaders pages read the top rows of a season, or of the careers, by each counter they
        # rank by. A career is the row without a season, and PostgreSQL walks an index in order only
        # below an equality, which IS NULL is not: the careers have partial indexes of their own,
        # and each row is in one family only (every confirmed report updates them all).
        indexes = [
            models.Index(
                fields=["season", f"-{name}", "player"],
                condition=models.Q(season__isnull=False),
                name=f"player_stats_{name[:8]}",
            )
            for name in LEADER_COUNTERS
        ] + [
            models.Index(
                fields=[f"-{name}", "player"], condition=models.Q(season__isnull=True), name=f"player_career_{name[:8]}"
            )
            for name in LEADER_COUNTERS
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.season_id or 'career'}"


def _version_token() -> str:
    return secrets.token_hex(8)


class LeagueVersion(models.Model):
    """One row: a number every committed write to the league's data raises (league.lib.pagecache), so a
    cached public page is keyed by the data it shows. The token changes if the row is ever recreated."""

    number = models.BigIntegerField(default=0)
    token = models.CharField(max_length=32, default=_version_token)
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("league version")
        verbose_name_plural = _("league versions")

    def __str__(self) -> str:
        return f"{self.token}:{self.number}"
