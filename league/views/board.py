"""The board's desk ("Styret"): what the league waits for from the board, most urgent first, and the
reminders' timing."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from league.lib.responses import post_form, success
from league.models import LeagueSettings
from league.notices.forms import LeagueSettingsForm
from league.notices.services import save_league_settings
from league.seasons import waiting
from league.views.base import _require_board


def _desk(request: HttpRequest, form: LeagueSettingsForm | None = None) -> HttpResponse:
    context = {
        "items": waiting.board_actions(),
        "form": form or LeagueSettingsForm(instance=LeagueSettings.current()),
        "changes": LeagueSettings.history.select_related("history_user").order_by("-history_date")[:10],
    }
    return render(request, "league/board_desk.html", context)


@login_required
@require_GET
def board_desk(request: HttpRequest) -> HttpResponse:
    _require_board(request)
    return _desk(request)


@login_required
@require_POST
def board_settings(request: HttpRequest) -> HttpResponse:
    """The board sets the reminders' days and when an open action reaches the desk."""
    _require_board(request)
    form = LeagueSettingsForm(request.POST, instance=LeagueSettings.current())
    return post_form(
        request,
        form,
        lambda: save_league_settings(by=request.user, **form.cleaned_data),
        again=lambda: _desk(request, form),
        done=lambda _saved: success(request, _("The reminders are saved."), "board_desk"),
    )
