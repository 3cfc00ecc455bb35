"""A coach's private calendar feed. The secret in its address is a keyed hash of his id and a
random salt kept here (`matches.calendars` makes and checks it), so the address is shown
again on his page without being stored, a forged one is not found, and renewing draws a new salt: the old
address is no longer found. A coach who never renewed has no row (the salt is empty)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_calendar_salt() -> str:
    return secrets.token_urlsafe(16)


class CalendarFeed(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    salt = models.CharField(_("salt"), max_length=64, default=new_calendar_salt)
    renewed_at = models.DateTimeField(_("renewed at"), default=timezone.now)

    class Meta:
        verbose_name = _("calendar feed")
        verbose_name_plural = _("calendar feeds")

    def __str__(self) -> str:
        return str(self.user)
