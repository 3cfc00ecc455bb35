"""The rulebook's versions: a `Ruleset` row holds the tables and settings a season is played under."""

from __future__ import annotations

import copy
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league import rules

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
