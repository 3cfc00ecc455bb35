"""The catalogue: skills and traits, races and their positions (the Big Guys allied to some)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from league import rules


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
