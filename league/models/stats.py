"""The kept statistics: rows matches.stats updates with every result, so the tables and the
leaders read a handful of rows whatever the league's history; `manage.py rebuild_stats` recomputes them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.seasons import Division, Season
from league.rules.records import RECORD_COUNTERS

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
