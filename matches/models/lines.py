"""The players' lines of a match: the report's line per player, the apothecary's uses, the squad."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.rules import records
from matches.models.match import Match


class PlayerMatch(models.Model):
    """A player's line in a match report: his deeds, and any injury he suffered."""

    class Injury(models.TextChoices):
        NONE = "", _("None")
        BADLY_HURT = "badly_hurt", _("Badly hurt")
        SERIOUS = "serious_injury", _("Serious injury")
        DEAD = "dead", _("Dead")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey("teams.Player", on_delete=models.PROTECT, related_name="match_lines")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+")
    completions = models.PositiveSmallIntegerField(default=0)
    touchdowns = models.PositiveSmallIntegerField(default=0)
    interceptions = models.PositiveSmallIntegerField(default=0)
    casualties = models.PositiveSmallIntegerField(_("casualties by block"), default=0)
    foul_casualties = models.PositiveSmallIntegerField(_("casualties by foul"), default=0)
    crowd_casualties = models.PositiveSmallIntegerField(_("crowd casualties by a push"), default=0)
    injury = models.CharField(_("injury suffered"), max_length=20, choices=Injury.choices, blank=True, default="")
    injured_by = models.ForeignKey(
        "teams.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("caused by")
    )
    sent_off = models.BooleanField(_("sent off"), default=False)
    mvps = models.PositiveSmallIntegerField(default=0)
    # The match's confirmation time while it is confirmed, else empty: kept by matches.stats with the match,
    # so a player's career is read newest first along an index, however many matches he has.
    confirmed_at = models.DateTimeField(null=True, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("player match line")
        verbose_name_plural = _("player match lines")
        ordering = ["match", "team", "player__number"]
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="player_once_per_report")]
        indexes = [
            models.Index(  # his career, newest first
                fields=["player", "-confirmed_at", "-match"],
                condition=models.Q(confirmed_at__isnull=False),
                name="playermatch_career",
            ),
            # the records page's most touchdowns and casualties in one match (league.seasons.records): the
            # first line along an index, not a sort of every line the league has kept
            models.Index(
                fields=["-touchdowns", "confirmed_at", "id"],
                condition=models.Q(confirmed_at__isnull=False),
                name="playermatch_record_tds",
            ),
            models.Index(
                (models.F("casualties") + models.F("crowd_casualties")).desc(),
                models.F("confirmed_at"),
                models.F("id"),
                condition=models.Q(confirmed_at__isnull=False),
                name="playermatch_record_cas",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.match}"

    @property
    def block_casualties(self) -> int:
        """A crowd casualty caused by the block's push counts as a block casualty (R28)."""
        return records.block_casualties(self)


class ApothecaryUse(models.Model):
    """An apothecary attempt reported with the match (R26): what, AP spent and the 2+ roll."""

    class Action(models.TextChoices):
        HEAL_DEAD = "heal_dead", _("Heal a dead player")
        HEAL_SERIOUS = "heal_serious_injury", _("Heal a serious injury")
        HEAL_BADLY_HURT = "heal_badly_hurt", _("Heal a badly hurt player")
        REVIVE = "revive_dead", _("Revive a dead player")
        NIGGLING = "niggling_check", _("Pass a niggling-injury check")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="apothecary_uses")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("teams.Player", on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=30, choices=Action.choices)
    ap = models.PositiveSmallIntegerField()
    roll = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("The 2+ roll; none for NI checks."))

    class Meta:
        verbose_name = _("apothecary use")
        verbose_name_plural = _("apothecary uses")
        constraints = [models.UniqueConstraint(fields=["match", "player", "action"], name="apothecary_once_per_case")]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.player}"


class SquadEntry(models.Model):
    """A player picked for the match squad (R3), and whether he took the field."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        MISSED_NIGGLING = "missed_niggling", _("Missed the match (niggling injury)")
        MISSED_VIRUS = "missed_virus", _("Missed the match (Virus)")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="squad")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("teams.Player", on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLAYING)

    class Meta:
        verbose_name = _("squad entry")
        verbose_name_plural = _("squad entries")
        ordering = ["match", "team", "player__number"]
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="squad_player_once")]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_status_display()})"
