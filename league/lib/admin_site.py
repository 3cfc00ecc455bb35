"""The admin site: every POST through it (a save, a delete, an action, a history revert) runs in
`league_writes()`, so the board's edits raise the league version like the services'."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from league.lib.writes import league_writes


class LeagueAdminSite(admin.AdminSite):
    def admin_view(self, view: Callable[..., HttpResponse], cacheable: bool = False) -> Callable[..., HttpResponse]:
        checked = super().admin_view(view, cacheable)

        @functools.wraps(checked)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != "POST":
                return checked(request, *args, **kwargs)
            with league_writes():
                return checked(request, *args, **kwargs)

        return inner
