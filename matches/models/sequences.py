"""The pre-match and post-match sequences: their progress, the handicaps drawn and the development rolls."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.messages import MessagesField
from matches.models.match import DiceRoll, Match

TICKET_LABELS = {"cheap": _("cheap"), "ordinary": _("ordinary"), "expensive": _("expensive")}


class PreMatch(models.Model):
    """The pre-match sequence's results, step by step, and the ruleset version they were computed with."""

    class Step(models.IntegerChoices):
        SQUADS = 1, _("Squads")
        WEATHER = 2, _("Weather")
        TICKETS = 3, _("Ticket price and venue")
        GATE = 4, _("Gate and vandalism")
        FAN_FACTOR_MODIFIER = 5, _("Fan-factor modifier")
        NIGGLING = 6, _("Niggling injuries")
        HANDICAP = 7, _("Team ratings and handicap")
        MASTER_CHEF = 8, _("Master Chef")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="prematch")
    ruleset = models.ForeignKey("league.Ruleset", on_delete=models.PROTECT, related_name="+")
    done = models.PositiveSmallIntegerField(default=0, help_text=_("The last step completed."))
    weather = models.CharField(max_length=30, blank=True)
    ticket = models.CharField(max_length=10, default="ordinary")
    home_gate = models.PositiveIntegerField(null=True, blank=True)
    away_gate = models.PositiveIntegerField(null=True, blank=True)
    capacity = models.PositiveIntegerField(null=True, blank=True)
    vandalism_target = models.PositiveSmallIntegerField(null=True, blank=True)
    vandalised = models.BooleanField(null=True, blank=True)
    seats_lost = models.PositiveIntegerField(default=0)
    home_facilities = models.JSONField(
        default=list, help_text=_("The home stadium's facilities as they were for the match (R19).")
    )
    fan_factor_modifier = models.SmallIntegerField(null=True, blank=True)
    home_rating = models.PositiveIntegerField(null=True, blank=True)
    away_rating = models.PositiveIntegerField(null=True, blank=True)
    handicap_team = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    handicap_rolls = models.PositiveSmallIntegerField(default=0)
    home_chef_dice = models.PositiveSmallIntegerField(default=0)
    away_chef_dice = models.PositiveSmallIntegerField(default=0)
    # Each side's progress in the steps both coaches take (R36, the Master Chef): state, not display text.
    home_niggling_checked = models.BooleanField(default=False)
    away_niggling_checked = models.BooleanField(default=False)
    home_niggling_ap = models.PositiveSmallIntegerField(default=0, help_text=_("Apothecary points spent (R26)."))
    away_niggling_ap = models.PositiveSmallIntegerField(default=0, help_text=_("Apothecary points spent (R26)."))
    home_chef_bought = models.BooleanField(default=False)
    away_chef_bought = models.BooleanField(default=False)
    # the rules' parts as message ids with parameters
    explanations = MessagesField(default=dict, help_text=_("The table cells each step used."))
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = _("pre-match sequences")
        verbose_name = _("pre-match sequence")

    def __str__(self) -> str:
        return f"Pre-match of {self.match}"

    @property
    def ticket_label(self) -> str:
        """The ticket price in the interface's language, never its key."""
        return str(TICKET_LABELS.get(self.ticket, self.ticket))


class HandicapDraw(models.Model):
    """A result on handicap table 2 for the lower-rated team (R22, R23)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="handicaps")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+")
    index = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=40)
    name = models.CharField(max_length=80)
    effect = models.TextField()
    dice = models.ForeignKey(DiceRoll, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(
        "teams.Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The chosen player, for results that name one (Inspiration: the extra MVP, R23)."),
    )

    class Meta:
        verbose_name = _("handicap draw")
        verbose_name_plural = _("handicap draws")
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="handicap_index_once"),
            models.UniqueConstraint(fields=["match", "key"], name="handicap_result_once"),  # R23: duplicates re-rolled
        ]

    def __str__(self) -> str:
        return self.name


class PostMatch(models.Model):
    """One team's post-match sequence (R24), step by step, each applied once."""

    class Step(models.IntegerChoices):
        WINNINGS = 1, _("Winnings")
        INJURIES = 2, _("Injuries")
        STADIUM = 3, _("Stadium")
        MVP = 4, _("MVP")
        DEVELOPMENT = 5, _("SPP and development")
        FAN_FACTOR = 6, _("Fan factor")
        PURCHASES = 7, _("Purchases")
        TEAM_RATING = 8, _("New team rating")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="postmatches")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+")
    ruleset = models.ForeignKey("league.Ruleset", on_delete=models.PROTECT, related_name="+")
    done = models.PositiveSmallIntegerField(default=0)
    winnings = models.IntegerField(null=True, blank=True)
    kiosk = models.IntegerField(null=True, blank=True)
    mvp = models.ForeignKey("teams.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    fan_factor_change = models.SmallIntegerField(null=True, blank=True)
    team_rating = models.PositiveIntegerField(null=True, blank=True)
    explanations = MessagesField(default=dict)
    completed_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = _("post-match sequences")
        verbose_name = _("post-match sequence")
        constraints = [models.UniqueConstraint(fields=["match", "team"], name="postmatch_once_per_team")]

    def __str__(self) -> str:
        return f"Post-match of {self.team} in {self.match}"


class DevelopmentRoll(models.Model):
    """A development roll a player earned by crossing an SPP threshold (R4, R29), and the coach's choice."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="developments")
    player = models.ForeignKey("teams.Player", on_delete=models.CASCADE, related_name="developments")
    index = models.PositiveSmallIntegerField()
    dice = models.ForeignKey(DiceRoll, on_delete=models.PROTECT, related_name="+")
    result = models.CharField(max_length=10)
    is_double = models.BooleanField(default=False)
    choice = models.CharField(max_length=60, blank=True)
    before_match = models.BooleanField(
        default=False, help_text=_("Earned by an Inspiration MVP: rolled and chosen before the match (R23).")
    )

    class Meta:
        verbose_name = _("development roll")
        verbose_name_plural = _("development rolls")
        ordering = ["match", "player", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "player", "index"], name="development_once")]

    def __str__(self) -> str:
        return f"{self.player}: {self.result} → {self.choice or '…'}"
