"""A coach's account deactivated or let back in by the board in the app: which way, who, when. Django's user
row keeps only whether it is active now; the board's page shows the last change beside it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AccountChange(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_changes", verbose_name=_("account")
    )
    active = models.BooleanField(_("active after the change"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("changed by")
    )
    at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("account change")
        verbose_name_plural = _("account changes")

    def __str__(self) -> str:
        return f"{self.user} {'active' if self.active else 'inactive'} ({self.at:%Y-%m-%d})"
