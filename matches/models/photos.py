"""The photos of the paper referee sheet (Dommerskjema) attached to a match's report."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from matches.models.match import Match

PHOTO_SLOTS = 3  # a match's report holds at most three photos: the sheet's two sides and one more


class ReportPhoto(models.Model):
    """One photo, stored through Django's storage (`default_storage`) as a JPEG with no metadata, and a
    small copy for the match page. Never public: served by a view that checks who asks. A slot (1–3)
    is taken once per match, so a fourth photo fails in the database too. The history records who
    deleted one and when."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="photos", verbose_name=_("match"))
    slot = models.PositiveSmallIntegerField(
        _("slot"), validators=[MinValueValidator(1), MaxValueValidator(PHOTO_SLOTS)]
    )
    image = models.CharField(_("file"), max_length=255)
    thumbnail = models.CharField(_("small copy"), max_length=255)
    width = models.PositiveIntegerField(_("width"))
    height = models.PositiveIntegerField(_("height"))
    # the upload form's one-time token: the same form sent twice (a double tap) stores one photo
    form_key = models.CharField(max_length=100, blank=True, default="")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), default=timezone.now)
    history = HistoricalRecords()

    class Meta:
        ordering = ["match", "slot"]
        verbose_name = _("photo of the referee sheet")
        verbose_name_plural = _("photos of the referee sheet")
        constraints = [
            models.UniqueConstraint(fields=["match", "slot"], name="report_photo_slot_once"),
            models.CheckConstraint(condition=Q(slot__gte=1, slot__lte=PHOTO_SLOTS), name="report_photo_slot_1_to_3"),
            models.UniqueConstraint(
                fields=["match", "form_key"], condition=~Q(form_key=""), name="report_photo_form_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} · {self.slot}"
