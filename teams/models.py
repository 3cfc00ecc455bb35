from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league import rules
from league.rules.records import record_spp

STAT_FIELDS = tuple(stat.lower() for stat in rules.STATS)  # the model fields: ma, st, ag, av


# --- the catalogue ----------------------------------------------------------------------------------


class Skill(models.Model):
    class Category(models.TextChoices):
        GENERAL = "General", _("General")
        AGILITY = "Agility", _("Agility")
        PASSING = "Passing", _("Passing")
        STRENGTH = "Strength", _("Strength")
        MUTATION = "Mutation", _("Mutation")
        RACIAL = "Racial", _("Racial characteristic")

    class Kind(models.TextChoices):
        SKILL = "S", _("Skill")
        TRAIT = "T", _("Trait")

    name = models.CharField(_("name"), max_length=50, unique=True)
    category = models.CharField(_("category"), max_length=10, choices=Category.choices)
    kind = models.CharField(_("kind"), max_length=1, choices=Kind.choices)

    # The letter a category has in a position's access (G A S P M); racial characteristics have none.
    LETTERS = {"General": "G", "Agility": "A", "Strength": "S", "Passing": "P", "Mutation": "M"}

    class Meta:
        ordering = ["category", "name"]
        verbose_name = _("skill or trait")
        verbose_name_plural = _("skills and traits")

    def __str__(self) -> str:
        return self.name

    @property
    def letter(self) -> str:
        return self.LETTERS.get(self.category, "")


class Race(models.Model):
    class HeadCoach(models.TextChoices):
        ORDINARY = "ordinary", _("Ordinary head coach")
        MASTER_CHEF = "master_chef", _("Master Chef")
        NECROMANCER = "necromancer", _("Necromancer")

    class Healer(models.TextChoices):
        BANDAGE_CREW = "bandage_crew", _("Bandage Crew")
        APPRENTICE = "apprentice", _("The Apprentice")
        FAMILIAR = "familiar", _("Nurgle Familiar")

    name = models.CharField(_("name"), max_length=50, unique=True)
    slug = models.SlugField(unique=True)
    reroll_price = models.PositiveIntegerField(_("re-roll price"))
    apothecary_allowed = models.BooleanField(_("may have an apothecary"), default=True)
    head_coach = models.CharField(_("head coach"), max_length=12, choices=HeadCoach.choices, default=HeadCoach.ORDINARY)
    healer = models.CharField(
        _("after-match healer"), max_length=12, choices=Healer.choices, default=Healer.BANDAGE_CREW
    )
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "name"]
        verbose_name = _("race")
        verbose_name_plural = _("races")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.slug = self.slug or slugify(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("race", args=[self.slug])

    def spec(self, positions: list[Position], big_guys: list[Position]) -> rules.RaceSpec:
        """The race as the rules package sees it."""
        return rules.RaceSpec(
            name=self.name,
            reroll_price=self.reroll_price,
            apothecary=self.apothecary_allowed,
            positions=tuple(p.spec() for p in positions),
            big_guys=tuple(p.spec() for p in big_guys),
        )


class PositionQuerySet(models.QuerySet):
    def for_race(self, race: Race) -> PositionQuerySet:
        """The race's own positions and the Big Guys allied to it."""
        return self.filter(Q(race=race) | Q(big_guy=True, allied_races=race)).distinct()


class Position(models.Model):
    """A position of a race's roster, or a Big Guy (no race, allied to some)."""

    race = models.ForeignKey(Race, null=True, blank=True, on_delete=models.PROTECT, related_name="positions")
    name = models.CharField(_("name"), max_length=50)
    max_count = models.PositiveSmallIntegerField(_("max"))
    price = models.PositiveIntegerField(_("price"))
    ma = models.PositiveSmallIntegerField("MA")
    st = models.PositiveSmallIntegerField("ST")
    ag = models.PositiveSmallIntegerField("AG")
    av = models.PositiveSmallIntegerField("AV")
    skills = models.ManyToManyField(Skill, blank=True, related_name="+", verbose_name=_("starting skills and traits"))
    normal_access = models.CharField(_("normal skill access"), max_length=5)
    double_access = models.CharField(_("double skill access"), max_length=5)
    random_mutation = models.BooleanField(_("starts with a random mutation"), default=False)
    big_guy = models.BooleanField(_("Big Guy"), default=False)
    allied_races = models.ManyToManyField(Race, blank=True, related_name="allied_big_guys", verbose_name=_("allied"))
    order = models.PositiveSmallIntegerField(default=0)

    objects = PositionQuerySet.as_manager()

    class Meta:
        ordering = ["big_guy", "order", "name"]
        verbose_name = _("position")
        verbose_name_plural = _("positions")
        constraints = [
            models.UniqueConstraint(fields=["race", "name"], name="position_unique_per_race"),
            models.CheckConstraint(condition=Q(big_guy=True) | Q(race__isnull=False), name="position_has_race"),
        ]

    def __str__(self) -> str:
        return self.name

    def spec(self) -> rules.PositionSpec:
        return rules.PositionSpec(
            key=self.pk,
            name=self.name,
            max=self.max_count,
            price=self.price,
            big_guy=self.big_guy,
            allied=tuple(r.name for r in self.allied_races.all()) if self.big_guy else (),
        )


# --- teams -------------------------------------------------------------------------------------------


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


# --- players -----------------------------------------------------------------------------------------


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


# --- the treasury ------------------------------------------------------------------------------------


class TreasuryEntry(models.Model):
    """One movement of gold. The treasury is the last running balance, which the database keeps ≥ 0;
    (team, seq) is unique so two writers cannot both build on the same balance."""

    class Kind(models.TextChoices):
        STARTING = "starting", _("Starting treasury")
        REGISTERED = "registered", _("Treasury when registered")
        PURCHASE = "purchase", _("Purchase")
        WINNINGS = "winnings", _("Winnings")
        PRIZE = "prize", _("Prize")
        FEE = "fee", _("Fee")
        CORRECTION = "correction", _("Correction by the board")

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="ledger")
    seq = models.PositiveIntegerField()
    amount = models.IntegerField(_("amount"))
    balance = models.IntegerField(_("balance"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    description = models.CharField(_("description"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now)
    # What caused it: a player hired, a match, a prize.
    cause_type = models.ForeignKey(ContentType, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    cause_id = models.PositiveBigIntegerField(null=True, blank=True)
    cause = GenericForeignKey("cause_type", "cause_id")
    # A unique key for an effect that must be paid once only (a match's winnings for a team).
    idempotency_key = models.CharField(max_length=100, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["team", "seq"]
        verbose_name = _("treasury entry")
        verbose_name_plural = _("treasury entries")
        constraints = [
            models.UniqueConstraint(fields=["team", "seq"], name="treasury_seq_unique"),
            models.CheckConstraint(condition=Q(balance__gte=0), name="treasury_never_below_zero"),
            models.CheckConstraint(condition=~Q(amount=0) | Q(seq=1), name="treasury_entry_moves_gold"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.amount:+,} → {self.balance:,}"
