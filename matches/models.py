from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.messages import MessageDecoder, MessageEncoder


class MatchQuerySet(models.QuerySet):
    def confirmed(self) -> MatchQuerySet:
        return self.filter(status=Match.Status.CONFIRMED)

    def for_team(self, team) -> MatchQuerySet:
        return self.filter(Q(home=team) | Q(away=team))


class Match(models.Model):
    """A fixture of a division or a cup round, and its result once confirmed."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        REPORTED = "reported", _("Reported, awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")
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
                condition=~Q(status__in=["confirmed", "reported", "disputed"])
                | Q(home_score__isnull=False, away_score__isnull=False),
                name="match_result_has_score",
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
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("player match line")
        verbose_name_plural = _("player match lines")
        ordering = ["match", "team", "player__number"]
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="player_once_per_report")]
        indexes = [models.Index(fields=["player", "match"], name="playermatch_player_match")]  # his career

    def __str__(self) -> str:
        return f"{self.player} in {self.match}"

    @property
    def block_casualties(self) -> int:
        """A crowd casualty caused by the block's push counts as a block casualty (R28)."""
        return self.casualties + self.crowd_casualties


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
    explanations = models.JSONField(
        default=dict,
        help_text=_("The table cells each step used."),
        encoder=MessageEncoder,  # the rules' parts as message ids with parameters (issue 12)
        decoder=MessageDecoder,
    )
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
    explanations = models.JSONField(default=dict, encoder=MessageEncoder, decoder=MessageDecoder)
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


class LiveEvent(models.Model):
    """One entry of the match log kept beside the pitch (issue 17). Nothing is deleted: a mistake is
    undone by a compensating entry (`undoes`); the score, the half and the re-rolls are derived from
    the log by league.rules.live. `client_id` is made on the phone, so a retried send records once."""

    class Kind(models.TextChoices):
        START = "start", _("Kick-off of the match")
        KICKOFF = "kickoff", _("Kick-off table")
        TURN = "turn", _("End of turn")
        TOUCHDOWN = "touchdown", _("Touchdown")
        COMPLETION = "completion", _("Completion")
        INTERCEPTION = "interception", _("Interception")
        CASUALTY = "casualty", _("Casualty")
        CROWD = "crowd", _("Crowd push casualty")
        INJURY = "injury", _("Injury")
        KO = "ko", _("Knocked out")
        SENT_OFF = "sent_off", _("Sent off")
        REROLL = "reroll", _("Team re-roll used")
        HALF_TIME = "half_time", _("Half-time")
        END = "end", _("End of the match")
        UNDO = "undo", _("Undone")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="live_events", verbose_name=_("match"))
    kind = models.CharField(_("what"), max_length=20, choices=Kind.choices)
    team = models.ForeignKey(
        "teams.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("team")
    )
    player = models.ForeignKey(
        "teams.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    victim = models.ForeignKey(
        "teams.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("the one injured"),
    )
    data = models.JSONField(_("details"), default=dict, blank=True)
    client_id = models.UUIDField(_("id made on the phone"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("entered by")
    )
    created_at = models.DateTimeField(_("entered at"), default=timezone.now)
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="undone_by", verbose_name=_("undoes")
    )

    class Meta:
        ordering = ["match", "pk"]
        verbose_name = _("match log entry")
        verbose_name_plural = _("match log entries")
        constraints = [models.UniqueConstraint(fields=["match", "client_id"], name="live_event_once_per_client_id")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.match})"

    @property
    def injury_label(self) -> str:
        injury = self.data.get("injury", "")
        return str(PlayerMatch.Injury(injury).label) if injury in PlayerMatch.Injury.values and injury else ""

    @property
    def by_foul(self) -> bool:
        return self.data.get("how") == "foul"
