"""A match (league, cup or tiebreak) and the dice rolled for it."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.models import round_name


class MatchQuerySet(models.QuerySet):
    def confirmed(self) -> MatchQuerySet:
        return self.filter(status=Match.Status.CONFIRMED)

    def filed(self) -> MatchQuerySet:
        """A report filed and not yet counted: awaiting confirmation, disputed, or reopened (R45, R47)."""
        return self.filter(status__in=Match.FILED)

    def for_team(self, team) -> MatchQuerySet:
        return self.filter(Q(home=team) | Q(away=team))


# One spelling of a forfeit's result wherever it is shown (R46): the status's words and the mark beside
# the score in the lists ("W.O.", an abbreviation Norwegian and English share).
WALKOVER = _("Walkover (W.O.)")


def is_walkover(status: str, forfeited_by_id: int | None) -> bool:
    """For a match read as a row of values (the lists, the bracket, the CSV) as for an instance."""
    return status == Match.Status.CONFIRMED and forfeited_by_id is not None


def winner_of(m: dict) -> int | None:
    """The winner of a match read as a row of values (the bracket), as `Match.winner_id` says it."""
    keys = ("status", "home_id", "away_id", "home_score", "away_score", "tiebreak_winner_id")
    return Match(**{key: m[key] for key in keys}).winner_id


def status_label(status: str, forfeited_by_id: int | None) -> str:
    return str(WALKOVER) if is_walkover(status, forfeited_by_id) else str(Match.Status(status).label)


class Match(models.Model):
    """A fixture of a division or a cup round, and its result once confirmed."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        REPORTED = "reported", _("Reported, awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")
        # R47: the board sent a confirmed report back to the coach who filed it, to be filed again
        REOPENED = "reopened", _("Reopened, back with the coach who filed it")
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
    # the kick-off time the coaches agreed; a date alone (fixtures spread by the board) has none
    start_time = models.TimeField(_("time"), null=True, blank=True)
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
    forfeited_by = models.ForeignKey(
        "teams.Team",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("forfeited by"),
        help_text=_("R35: the team that forfeited; the opponent is awarded the win."),
    )
    forfeit_fan_factor_lost = models.PositiveSmallIntegerField(default=0)
    comment = models.TextField(_("comment"), blank=True)
    # the voided match this one plays again (the board's replay after a void)
    replay_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays", verbose_name=_("replay of")
    )
    reopened_at = models.DateTimeField(_("reopened"), null=True, blank=True)
    dispute_comment = models.TextField(_("why it is disputed"), blank=True)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    filed_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    history = HistoricalRecords()

    objects = MatchQuerySet.as_manager()
    FILED = (Status.REPORTED, Status.DISPUTED, Status.REOPENED)

    class Meta:
        ordering = ["season", "division", "round", "pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [
            models.Index(fields=["season", "status"]),
            models.Index(fields=["status", "confirmed_at"]),
            # the front page's latest results and next fixtures: the first rows of a season, in order
            models.Index(
                fields=["season", "-confirmed_at", "-id"], condition=Q(status="confirmed"), name="match_latest_results"
            ),
            models.Index(
                fields=["season", "round", "date", "id"], condition=Q(status="scheduled"), name="match_next_fixtures"
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="match_two_teams"),
            models.CheckConstraint(
                condition=Q(division__isnull=True) | Q(cup__isnull=True), name="match_league_or_cup"
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["confirmed", "reported", "disputed", "reopened"])
                | Q(home_score__isnull=False, away_score__isnull=False),
                name="match_result_has_score",
            ),
            models.CheckConstraint(
                condition=Q(cup__isnull=False) | Q(home__isnull=False, away__isnull=False),
                name="match_league_has_two_teams",
            ),
            # a voided cup match keeps its row beside its replay in the same slot
            models.UniqueConstraint(
                fields=["cup", "round", "cup_slot"],
                condition=Q(cup__isnull=False) & ~Q(status="void"),
                name="match_cup_slot_once",
            ),
        ]

    def __str__(self) -> str:
        home = self.home or "?"
        away = self.away or (_("bye") if self.status == self.Status.BYE else "?")
        return f"{home} – {away}"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def starts_at(self) -> datetime.datetime | None:
        """The date and time in the league's time zone (Europe/Oslo), or None without a time."""
        if self.date is None or self.start_time is None:
            return None
        return timezone.make_aware(datetime.datetime.combine(self.date, self.start_time))

    @property
    def is_filed(self) -> bool:
        return self.status in Match.FILED

    @property
    def is_confirmed(self) -> bool:
        return self.status == self.Status.CONFIRMED

    @property
    def round_name(self) -> str:
        """The round as every page names it: a cup's by what it is ("final"), a division's by its number."""
        return self.cup.round_name(self.round) if self.cup_id is not None else round_name(self.round)

    @property
    def is_walkover(self) -> bool:
        """A forfeit (R35): confirmed with the awarded score, and read as a walkover wherever its result is
        shown (R46)."""
        return is_walkover(self.status, self.forfeited_by_id)

    @property
    def status_label(self) -> str:
        """The status as a reader is told it: a forfeit is a walkover, not a confirmed report (R46)."""
        return status_label(self.status, self.forfeited_by_id)

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


class DiceRoll(models.Model):
    """One roll, entered by a coach or rolled by the server, kept for good.

    A purpose is rolled once per match: asking again returns the same dice (unique constraint).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="dice")
    step = models.CharField(_("step"), max_length=30)
    purpose = models.CharField(_("purpose"), max_length=100)
    team = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("teams.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    count = models.PositiveSmallIntegerField(default=1)
    sides = models.PositiveSmallIntegerField()
    d66 = models.BooleanField(default=False)
    values = models.JSONField(_("dice"))
    entered = models.BooleanField(_("entered by a coach"), default=False)
    rolled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    rolled_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["rolled_at", "pk"]
        verbose_name = _("dice roll")
        verbose_name_plural = _("dice rolls")
        constraints = [models.UniqueConstraint(fields=["match", "purpose"], name="dice_once_per_purpose")]

    def __str__(self) -> str:
        return f"{self.kind} {self.shown}"

    PURPOSES = {
        "weather": _("Weather"),
        "gate": _("Gate"),
        "vandalism": _("Vandalism"),
        "niggling": _("Niggling injury"),
        "handicap": _("Handicap"),
        "winnings": _("Winnings"),
        "kiosk": _("Kiosk"),
        "regeneration": _("Regeneration"),
        "serious_injury": _("Serious injury"),
        "healer": _("Healer"),
        "revival": _("Revival"),
        "revival_miss": _("Matches to miss"),
        "mvp": "MVP",
        "development": _("Development"),
        "mutation": _("Mutation"),
        "fan_factor": _("Fan factor"),
        "chef": _("Master Chef"),
        "kickoff": _("Kick-off"),
        "kickoff_weather": _("Weather (kick-off 7)"),
        "kickoff_contest": _("Kick-off roll-off"),
        "riot": _("Riot"),
    }

    @property
    def label(self) -> str:
        """What the roll was for, in words: the purpose without its ids."""
        return str(self.PURPOSES.get(self.purpose.split(":")[0], self.purpose))

    @property
    def kind(self) -> str:
        if self.d66:
            return "D66"
        return f"{self.count if self.count > 1 else ''}D{self.sides}"

    @property
    def shown(self) -> str:
        if self.d66:
            return f"{self.values[0]}{self.values[1]}"
        return "+".join(str(v) for v in self.values) if len(self.values) <= 3 else ", ".join(map(str, self.values))

    @property
    def total(self) -> int:
        return 10 * self.values[0] + self.values[1] if self.d66 else sum(self.values)
