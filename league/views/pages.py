from __future__ import annotations

from collections.abc import Callable

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Max, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league.accounts import COACH, client_ip, is_board, role_group
from league.lib.inputs import query_id
from league.lib.pagecache import per_version
from league.lib.responses import act_and_redirect, flash_refusal, refusal_on_form
from league.lib.writes import league_writes
from league.models import Division, Ruleset, Season
from league.seasons import services
from league.seasons.forms import (
    CoachForm,
    CupDrawForm,
    FixtureForm,
    FixturesForm,
    SeasonEndForm,
    SeasonForm,
    TiebreakForm,
)
from league.seasons.leaders import roster_leaders
from league.seasons.selectors import current_season, memorial, season_board
from league.views.ruleset_editor import settings_rows
from matches.live import playing_now
from matches.selectors import coach_todos, next_matches, scheduled_for
from teams.models import Team
from teams.selectors import roster_sheet, with_treasury


def _require_board(request: HttpRequest) -> None:
    if not is_board(request.user):
        raise PermissionDenied


def _get_season(pk: int) -> Season:
    return get_object_or_404(Season.objects.with_rules(), pk=pk)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The league board: both tables, latest results, next fixtures, the cup, leaders, memorial."""
    season = current_season()
    context = {
        "board": season_board(season, bracket="current", tables=2),
        "leaders": roster_leaders(),
        "memorial": memorial(8),
        "playing_now": list(playing_now()),
    }
    return render(request, "league/home.html", context)


@login_required
@require_GET
def coach_home(request: HttpRequest) -> HttpResponse:
    """A coach's own page ("Mitt lag"): his teams, his next match and what waits for him.
    The board and users without a team have the front page instead."""
    teams = list(with_treasury(Team.objects.active().filter(coach=request.user).select_related("race")))
    if not teams:
        return redirect("home")
    scheduled = list(scheduled_for([t.pk for t in teams]))
    sheets: dict[int, object] = {}

    def sheet(team_id: int):
        if team_id not in sheets:
            sheets[team_id] = roster_sheet(team_id)
        return sheets[team_id]

    cards = []
    for team, match in ((t, next_matches([t], scheduled).get(t.pk)) for t in teams):
        opponent_id = None if match is None else (match.away_id if match.home_id == team.pk else match.home_id)
        cards.append(
            {
                "sheet": sheet(team.pk),
                "injured": [line for line in sheet(team.pk).lines if line.injuries],
                "next": match,
                "home": match is not None and match.home_id == team.pk,
                "opponent": sheet(opponent_id) if opponent_id else None,
            }
        )
    todos = coach_todos(request.user, teams, scheduled, today=timezone.localdate())
    return render(request, "league/coach_home.html", {"cards": cards, "todos": todos})


@require_GET
def standings(request: HttpRequest) -> HttpResponse:
    season = _season_from_query(request)
    seasons = per_version(request, "seasons", lambda: list(Season.objects.only("id", "name", "status")))
    board = season_board(season, latest=0, upcoming=0, bracket="none")
    return render(request, "league/standings.html", {"board": board, "seasons": seasons})


def _season_from_query(request: HttpRequest) -> Season | None:
    """?season=<id>; no id means the current season, anything else that is not an id is a 404."""
    value = request.GET.get("season")
    if not value:
        return current_season()
    pk = query_id(value)
    if pk is None:
        raise Http404
    return _get_season(pk)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The tables of a published ruleset (the newest unless one is picked), as coaches look them up."""
    versions = list(Ruleset.objects.published().only("id", "name", "published_at"))
    chosen = request.GET.get("version")
    ruleset = next((v for v in versions if str(v.pk) == chosen), versions[0] if versions else None)
    if ruleset is not None:
        ruleset = Ruleset.objects.get(pk=ruleset.pk)
    settings = settings_rows(ruleset.data) if ruleset is not None else []
    return render(request, "league/rules.html", {"ruleset": ruleset, "versions": versions, "settings": settings})


# --- seasons ------------------------------------------------------------------------------------


@require_GET
def season_list(request: HttpRequest) -> HttpResponse:
    seasons = Season.objects.select_related("ruleset").prefetch_related("divisions")
    return render(request, "league/season_list.html", {"seasons": seasons})


@login_required
@require_http_methods(["GET", "POST"])
def season_create(request: HttpRequest) -> HttpResponse:
    _require_board(request)
    form = SeasonForm(request.POST or None, initial={"ruleset": Ruleset.objects.published().first()})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        divisions = [
            services.DivisionPlan(level, name, die, list(d[f"division_{level}"]))
            for level, name, die in services.default_divisions(d["ruleset"])
        ]
        try:
            season = services.create_season(
                name=d["name"],
                ruleset=d["ruleset"],
                divisions=divisions,
                first_with_stadium_rules=d["first_with_stadium_rules"],
            )
        except services.SeasonError as exc:
            refusal_on_form(form, exc)
        else:
            messages.success(request, _("%(season)s is created.") % {"season": season})
            return redirect(season)
    return render(request, "league/season_form.html", {"form": form})


@require_GET
def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _season_page(request, _get_season(pk))


def _season_page(
    request: HttpRequest, season: Season, *, division: Division | None = None, **bound: forms.Form
) -> HttpResponse:
    """The season page; after a board form with errors, that form again (for its division), the errors
    beside its fields and what was typed kept, with status 400 and nothing saved."""
    board = season_board(season, latest=0, upcoming=0, rounds=True)
    context = {"season": season, "board": board, "is_board": is_board(request.user)}
    if context["is_board"]:
        context["running_elsewhere"] = services.running_elsewhere(season)  # why it cannot start yet (R43)
        teams = Team.objects.filter(season_entries__season=season).order_by("name")
        for table in board.tables:
            mine = division is not None and table.division.pk == division.pk
            division_teams = Team.objects.filter(season_entries__division=table.division).order_by("name")
            auto_id = f"id_d{table.division.pk}_%s"
            table.fixtures_form = (mine and bound.get("fixtures_form")) or FixturesForm(auto_id=auto_id)
            table.fixture_form = (mine and bound.get("fixture_form")) or FixtureForm(
                teams=division_teams, auto_id=auto_id
            )
            table.tiebreak_form = (mine and bound.get("tiebreak_form")) or TiebreakForm(
                teams=division_teams, auto_id=auto_id
            )
            table.open = mine
        cup_initial = {"name": _("%(season)s cup") % {"season": season.name}, "teams": teams}
        context.update(
            cup_form=bound.get("cup_form") or CupDrawForm(teams=teams, initial=cup_initial),
            all_teams=Team.objects.active().order_by("name"),
        )
    return render(request, "league/season_detail.html", context, status=400 if bound else 200)


def _act_or_form_again(
    request: HttpRequest,
    season: Season,
    action: Callable[[], str],
    *,
    division: Division | None = None,
    **bound: forms.Form,
) -> HttpResponse:
    """Run a season page form's write: done, back to the season page with its message; refused (a
    team of a running season, R43; a walked pre-match), the form again where the board clicked, the
    refusal above it and what was typed kept, nothing saved."""
    try:
        done = action()
    except services.SeasonError as exc:
        for form in bound.values():
            refusal_on_form(form, exc)
        return _season_page(request, season, division=division, **bound)
    messages.success(request, done)
    return redirect(season)


def _board_action(request: HttpRequest, pk: int, action: Callable[[Season], str]) -> HttpResponse:
    """Run a board action on a season; refusals come back as messages and change nothing."""
    _require_board(request)
    season = _get_season(pk)
    return act_and_redirect(request, lambda: action(season), season)


def _board_division(request: HttpRequest, pk: int, division_pk: int) -> tuple[Season, Division]:
    _require_board(request)
    season = _get_season(pk)
    return season, get_object_or_404(Division, pk=division_pk, season=season)


@require_POST
def season_fixtures(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    season, division = _board_division(request, pk, division_pk)
    form = FixturesForm(request.POST, auto_id=f"id_d{division.pk}_%s")
    if not form.is_valid():
        return _season_page(request, season, division=division, fixtures_form=form)

    def generate() -> str:
        created = services.generate_fixtures(
            division, start=form.cleaned_data["start"], days_between=form.cleaned_data["days_between"]
        )
        return _("%(n)s fixtures generated for %(division)s.") % {"n": len(created), "division": division.name}

    return _act_or_form_again(request, season, generate, division=division, fixtures_form=form)


@require_POST
def season_add_fixture(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    season, division = _board_division(request, pk, division_pk)
    teams = Team.objects.filter(season_entries__division=division).order_by("name")
    form = FixtureForm(request.POST, teams=teams, auto_id=f"id_d{division.pk}_%s")
    if not form.is_valid():
        return _season_page(request, season, division=division, fixture_form=form)

    def add() -> str:
        match = services.add_fixture(division, **form.cleaned_data)
        return _("Added %(match)s.") % {"match": match}

    return _act_or_form_again(request, season, add, division=division, fixture_form=form)


@require_POST
def season_division_teams(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    def change(season: Season) -> str:
        division = get_object_or_404(Division, pk=division_pk, season=season)
        ids = [pk for pk in map(query_id, request.POST.getlist("teams")) if pk is not None]
        services.set_division_teams(division, list(Team.objects.active().filter(pk__in=ids)))
        return _("The teams of %(division)s are saved; generate its fixtures again.") % {"division": division.name}

    return _board_action(request, pk, change)


@require_POST
def season_start(request: HttpRequest, pk: int) -> HttpResponse:
    def start(season: Season) -> str:
        services.start_season(season)
        return _("The season has started.")

    return _board_action(request, pk, start)


@require_POST
def season_tiebreak(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    season, division = _board_division(request, pk, division_pk)
    teams = Team.objects.filter(season_entries__division=division).order_by("name")
    form = TiebreakForm(request.POST, teams=teams, auto_id=f"id_d{division.pk}_%s")
    if not form.is_valid():
        return _season_page(request, season, division=division, tiebreak_form=form)

    def record() -> str:
        services.record_tiebreak(division, by=request.user, **form.cleaned_data)
        return _("Tiebreak game recorded.")

    return act_and_redirect(request, record, season)


@require_POST
def cup_draw(request: HttpRequest, pk: int) -> HttpResponse:
    _require_board(request)
    season = _get_season(pk)
    form = CupDrawForm(request.POST, teams=Team.objects.filter(season_entries__season=season).order_by("name"))
    if not form.is_valid():
        return _season_page(request, season, cup_form=form)

    def draw() -> str:
        d = form.cleaned_data
        cup = services.draw_cup(
            season, teams=list(d["teams"]), name=d["name"], prize=d["prize"], order=d["order_ids"], by=request.user
        )
        return _("%(cup)s is drawn.") % {"cup": cup}

    return _act_or_form_again(request, season, draw, cup_form=form)


@require_GET
def cup_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    season = _get_season(pk)
    return render(request, "league/cup.html", {"season": season, "board": season_board(season)})


@login_required
@require_http_methods(["GET", "POST"])
def season_end(request: HttpRequest, pk: int) -> HttpResponse:
    """The season end: a preview of every effect, then one commit (a second commit does nothing)."""
    _require_board(request)
    season = _get_season(pk)
    if hasattr(season, "end"):
        messages.info(request, _("This season is already ended."))
        return redirect(season.next if hasattr(season, "next") else season)
    form = SeasonEndForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            next_season = services.commit_season_end(season, by=request.user, next_name=form.cleaned_data["next_name"])
        except services.SeasonError as exc:
            flash_refusal(request, exc)
        else:
            messages.success(
                request, _("%(season)s is ended; %(next)s is ready.") % {"season": season, "next": next_season}
            )
            return redirect(next_season)
    plan = services.season_end_preview(season)
    return render(request, "league/season_end.html", {"season": season, "plan": plan, "form": form})


# --- JSON ----------------------------------------------------------------------------------------


@require_GET
def api_seasons(request: HttpRequest) -> JsonResponse:
    seasons = [
        {
            "id": s.pk,
            "name": s.name,
            "status": s.status,
            "ruleset": s.ruleset.name,
            "divisions": [{"level": d.level, "name": d.name, "die": d.die} for d in s.divisions.all()],
        }
        for s in Season.objects.select_related("ruleset").prefetch_related("divisions")
    ]
    return JsonResponse({"seasons": seasons})


@require_GET
def api_standings(request: HttpRequest, pk: int) -> JsonResponse:
    board = season_board(_get_season(pk), latest=0, upcoming=0, bracket="none")
    divisions = [
        {
            "level": t.division.level,
            "name": t.division.name,
            "standings": [{"team": team.name, "team_id": team.pk, **line} for line, team in t.rows()],
        }
        for t in board.tables
    ]
    return JsonResponse({"season": board.season.name, "divisions": divisions})


# --- accounts ----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def coach_create(request: HttpRequest) -> HttpResponse:
    """The board makes a coach's account: in the coaches' group, not staff, no other rights (issue 14)."""
    _require_board(request)
    form = CoachForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with league_writes():
            coach = form.save()
            coach.groups.add(role_group(COACH))
        messages.success(request, _("%(name)s can now log in as a coach.") % {"name": coach.get_username()})
        return redirect("coach_create")
    return render(request, "league/coach_form.html", {"form": form})


# --- log-in throttling ---------------------------------------------------------------------------


def locked_out(request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None) -> HttpResponse:
    """django-axes' lock-out answer: the log-in page's layout, saying until when (issue 14)."""
    username = get_client_username(request, credentials)
    latest = AccessAttempt.objects.filter(Q(username=username) | Q(ip_address=client_ip(request))).aggregate(
        at=Max("attempt_time")
    )["at"]
    until = (latest or timezone.now()) + get_cool_off(request)
    return render(request, "registration/locked_out.html", {"until": until}, status=429)
