"""Players, the skills they gained and the changes of their stats."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league import rules
from league.rules.records import record_spp
from teams.models.catalogue import Position, Skill
from teams.models.teams import Team

STAT_FIELDS = tuple(stat.lower() for stat in rules.STATS)  # the model fields: ma, st, ag, av


class PlayerQuerySet(models.QuerySet):
    def on_roster(self) -> PlayerQuerySet:
        return self.filter(status=Player.Status.ACTIVE)

    def available(self) -> PlayerQuerySet:
        return self.on_roster().filter(miss_matches=0)


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        RETIRED = "retired", _("Retired")
        DEAD = "dead", _("Dead")
        FIRED = "fired", _("Fired")

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=80)
    position = models.ForeignKey(Position, on_delete=models.PROTECT, related_name="+", verbose_name=_("position"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # Stats are the position's value plus these changes (development, injury), never past ±2 (R29).
    ma_change = models.SmallIntegerField(default=0)
    st_change = models.SmallIntegerField(default=0)
    ag_change = models.SmallIntegerField(default=0)
    av_change = models.SmallIntegerField(default=0)
    niggling = models.PositiveSmallIntegerField(_("niggling injuries"), default=0)
    miss_matches = models.PositiveSmallIntegerField(_("matches to miss"), default=0)
    completions = models.PositiveIntegerField(_("completions"), default=0)
    touchdowns = models.PositiveIntegerField(_("touchdowns"), default=0)
    interceptions = models.PositiveIntegerField(_("interceptions"), default=0)
    casualties = models.PositiveIntegerField(_("casualties"), default=0)
    foul_casualties = models.PositiveIntegerField(_("foul casualties"), default=0)
    mvps = models.PositiveIntegerField(_("MVPs"), default=0)
    # A 12 on the Tzeentch table: the coach picks the mutation (R10).
    mutation_choice_pending = models.BooleanField(default=False)
    hired_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["team", "number"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["team", "number"], condition=Q(status="active"), name="player_number_unique_on_roster"
            ),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{stat}_change__gte": -2, f"{stat}_change__lte": 2}),
                    name=f"player_{stat}_within_two",
                )
                for stat in STAT_FIELDS
            ],
        ]
        # the memorial on the front page: the newest dead first, however many have played before
        indexes = [models.Index(fields=["-left_at"], condition=Q(status="dead"), name="player_memorial")]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])

    @property
    def ma(self) -> int:
        return self.position.ma + self.ma_change

    @property
    def st(self) -> int:
        return self.position.st + self.st_change

    @property
    def ag(self) -> int:
        return self.position.ag + self.ag_change

    @property
    def av(self) -> int:
        return self.position.av + self.av_change

    @property
    def spp(self) -> int:
        return record_spp(self.team.ruleset.rules, self)

    @property
    def value(self) -> int:
        """A player is worth his position's list price; skills add nothing (R2)."""
        return self.position.price

    @property
    def on_roster(self) -> bool:
        return self.status == self.Status.ACTIVE


class PlayerSkill(models.Model):
    """A skill or trait a player gained, with where it came from."""

    class Origin(models.TextChoices):
        DEVELOPMENT = "development", _("Development roll")
        MUTATION = "mutation", _("Mutation")
        STARTING_MUTATION = "starting_mutation", _("Starting mutation")
        REGISTERED = "registered", _("Registered with the team")
        CORRECTION = "correction", _("Correction by the board")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="gained_skills")
    skill = models.ForeignKey(Skill, on_delete=models.PROTECT, related_name="+")
    origin = models.CharField(max_length=20, choices=Origin.choices)
    roll = models.CharField(_("dice"), max_length=40, blank=True, help_text=_("The dice that chose it, if any."))
    created_at = models.DateTimeField(default=timezone.now)
    match_id = models.BigIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("player skill")
        verbose_name_plural = _("player skills")
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["player", "skill"], name="player_skill_once")]

    def __str__(self) -> str:
        return self.skill.name


class StatChange(models.Model):
    """Every change of a player's MA/ST/AG/AV, with its reason."""

    class Reason(models.TextChoices):
        DEVELOPMENT = "development", _("Development roll")
        INJURY = "injury", _("Injury")
        REGISTERED = "registered", _("Registered with the team")
        CORRECTION = "correction", _("Correction by the board")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="stat_changes")
    stat = models.CharField(max_length=2, choices=[(s.upper(), s.upper()) for s in STAT_FIELDS])
    change = models.SmallIntegerField()
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    match_id = models.BigIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("stat change")
        verbose_name_plural = _("stat changes")
        ordering = ["created_at", "pk"]
        constraints = [models.CheckConstraint(condition=~Q(change=0), name="stat_change_not_zero")]

    def __str__(self) -> str:
        return f"{self.stat} {self.change:+d}"
