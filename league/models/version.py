"""The league's version: the number the page cache keys a public page by (league.lib.pagecache)."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def _version_token() -> str:
    return secrets.token_hex(8)


class LeagueVersion(models.Model):
    """One row: a number every committed write to the league's data raises (league.lib.pagecache), so a
    cached public page is keyed by the data it shows. The token changes if the row is ever recreated."""

    number = models.BigIntegerField(default=0)
    token = models.CharField(max_length=32, default=_version_token)
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("league version")
        verbose_name_plural = _("league versions")

    def __str__(self) -> str:
        return f"{self.token}:{self.number}"
