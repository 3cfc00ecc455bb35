"""The race catalogue, the team list, the team page, its ledger and its history."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from league.accounts import sees_private
from league.lib.offline import keep_offline
from league.lib.pagecache import kept_for_visitors
from league.seasons import selectors as league_selectors
from league.views.charts import team_charts
from matches.charts import team_matches
from matches.models import Match
from matches.selectors import coming_matches
from teams.models import Position, Race, Skill, Team
from teams.selectors import ledger_entries, sheet_team, team_sheet
from teams.selectors import team_list as teams_selector
from teams.views.base import can_change

# --- catalogue -----------------------------------------------------------------------------------


def _races_with_positions():
    skills = Prefetch("skills", queryset=Skill.objects.order_by("name"))
    positions = Position.objects.filter(big_guy=False).prefetch_related(skills)
    return Race.objects.prefetch_related(Prefetch("positions", queryset=positions))


def _big_guys():
    return Position.objects.filter(big_guy=True).prefetch_related(
        Prefetch("skills", queryset=Skill.objects.order_by("name")), "allied_races"
    )


@require_GET
def race_list(request: HttpRequest) -> HttpResponse:
    return render(request, "teams/race_list.html", {"races": _races_with_positions(), "big_guys": _big_guys()})


@require_GET
def race_detail(request: HttpRequest, slug: str) -> HttpResponse:
    race = get_object_or_404(_races_with_positions(), slug=slug)
    big_guys = _big_guys().filter(allied_races=race)
    return render(request, "teams/race_detail.html", {"race": race, "big_guys": big_guys})


# --- teams ---------------------------------------------------------------------------------------


@require_GET
def team_list(request: HttpRequest) -> HttpResponse:
    return render(request, "teams/team_list.html", {"teams": teams_selector()})


FIXTURES_SHOWN = 6
ROSTER_COLUMNS = 17  # the roster table's, for the printed sheet's blank rows


@require_GET
@kept_for_visitors
def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    team = sheet_team(pk)
    sheet = team_sheet(team)
    context = {
        "sheet": sheet,
        "team": team,
        "can_change": can_change(request.user, team),
        "fixtures": coming_matches(pk, FIXTURES_SHOWN),
        "charts": team_charts(team_matches(pk), private=sees_private(request.user)),
        # the printed sheet has a row to write in up to a full squad, as the paper "Ditt Lag"
        "blank_rows": range(max(0, team.ruleset.rules.settings.max_squad - len(sheet.lines))),
        "blank_cells": range(ROSTER_COLUMNS),
    }
    page = render(request, "teams/team_detail.html", context)
    # the coach's own roster, for the table; another team's page is read online
    return keep_offline(request, page, when=team.coach_id == request.user.pk)


@require_GET
def team_ledger(request: HttpRequest, pk: int) -> HttpResponse:
    if not sees_private(request.user):
        return redirect_to_login(request.get_full_path())
    team = get_object_or_404(Team, pk=pk)
    entries = Paginator(ledger_entries(team), 50).get_page(request.GET.get("page"))
    return render(request, "teams/team_ledger.html", {"team": team, "entries": entries})


@require_GET
def team_history(request: HttpRequest, pk: int) -> HttpResponse:
    """The team across seasons: division, place and record each season, and its matches."""

    team = get_object_or_404(Team.objects.select_related("race"), pk=pk)
    matches = (
        Match.objects.for_team(team)
        .confirmed()
        .select_related("season", "home", "away")
        .order_by("-confirmed_at", "-pk")
    )
    matches = Paginator(matches, 50).get_page(request.GET.get("page"))
    return render(
        request,
        "teams/team_history.html",
        {"team": team, "seasons": league_selectors.team_history(team), "matches": matches},
    )
