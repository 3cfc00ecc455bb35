from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import services
from league.accounts import is_board
from league.forms import CupDrawForm, FixtureForm, FixturesForm, SeasonEndForm, SeasonForm, TiebreakForm
from league.models import Division, Ruleset, Season
from league.refusals import act_and_redirect
from league.selectors import current_season, leaders, memorial, season_board
from teams.models import Team


def _require_board(request: HttpRequest) -> None:
    if not is_board(request.user):
        raise PermissionDenied


def _get_season(pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("ruleset", "cup"), pk=pk)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The league board: both tables, latest results, next fixtures, the cup, leaders, memorial."""
    season = current_season()
    context = {
        "board": season_board(season, bracket="current", tables=2),
        "leaders": leaders(season),
        "memorial": memorial(8),
    }
    return render(request, "league/home.html", context)


@require_GET
def standings(request: HttpRequest) -> HttpResponse:
    season = _season_from_query(request)
    seasons = Season.objects.only("id", "name", "status")
    board = season_board(season, latest=0, upcoming=0, bracket="none")
    return render(request, "league/standings.html", {"board": board, "seasons": seasons})


def _season_from_query(request: HttpRequest) -> Season | None:
    pk = request.GET.get("season")
    if pk and pk.isdigit():
        return _get_season(int(pk))
    return current_season()


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The tables of a published ruleset (the newest unless one is picked), as coaches look them up."""
    versions = list(Ruleset.objects.published().only("id", "name", "published_at"))
    chosen = request.GET.get("version")
    ruleset = next((v for v in versions if str(v.pk) == chosen), versions[0] if versions else None)
    if ruleset is not None:
        ruleset = Ruleset.objects.get(pk=ruleset.pk)
    return render(request, "league/rules.html", {"ruleset": ruleset, "versions": versions})


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
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("%(season)s is created.") % {"season": season})
            return redirect(season)
    return render(request, "league/season_form.html", {"form": form})


@require_GET
def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    season = _get_season(pk)
    board = season_board(season, latest=0, upcoming=0, rounds=True)
    context = {"season": season, "board": board, "is_board": is_board(request.user)}
    if context["is_board"]:
        teams = Team.objects.filter(season_entries__season=season).order_by("name")
        context.update(
            fixtures_form=FixturesForm(),
            tiebreak_form=TiebreakForm(teams=teams),
            cup_form=CupDrawForm(
                teams=teams, initial={"name": _("%(season)s cup") % {"season": season.name}, "teams": teams}
            ),
            all_teams=Team.objects.active().order_by("name"),
        )
    return render(request, "league/season_detail.html", context)


def _board_action(request: HttpRequest, pk: int, action: Callable[[Season], str]) -> HttpResponse:
    """Run a board action on a season; refusals come back as messages and change nothing."""
    _require_board(request)
    season = _get_season(pk)
    return act_and_redirect(request, lambda: action(season), season)


def _form_errors(form) -> services.SeasonError:
    return services.SeasonError([e for errors in form.errors.values() for e in errors])


@require_POST
def season_fixtures(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    def generate(season: Season) -> str:
        division = get_object_or_404(Division, pk=division_pk, season=season)
        form = FixturesForm(request.POST)
        if not form.is_valid():
            raise _form_errors(form)
        created = services.generate_fixtures(
            division, start=form.cleaned_data["start"], days_between=form.cleaned_data["days_between"]
        )
        return _("%(n)s fixtures generated for %(division)s.") % {"n": len(created), "division": division.name}

    return _board_action(request, pk, generate)


@require_POST
def season_add_fixture(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    def add(season: Season) -> str:
        division = get_object_or_404(Division, pk=division_pk, season=season)
        form = FixtureForm(request.POST, teams=Team.objects.filter(season_entries__division=division))
        if not form.is_valid():
            raise _form_errors(form)
        match = services.add_fixture(division, **form.cleaned_data)
        return _("Added %(match)s.") % {"match": match}

    return _board_action(request, pk, add)


@require_POST
def season_division_teams(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    def change(season: Season) -> str:
        division = get_object_or_404(Division, pk=division_pk, season=season)
        ids = [int(x) for x in request.POST.getlist("teams") if x.isdigit()]
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
    def record(season: Season) -> str:
        division = get_object_or_404(Division, pk=division_pk, season=season)
        form = TiebreakForm(request.POST, teams=Team.objects.filter(season_entries__division=division))
        if not form.is_valid():
            raise _form_errors(form)
        services.record_tiebreak(division, by=request.user, **form.cleaned_data)
        return _("Tiebreak game recorded.")

    return _board_action(request, pk, record)


@require_POST
def cup_draw(request: HttpRequest, pk: int) -> HttpResponse:
    def draw(season: Season) -> str:
        form = CupDrawForm(request.POST, teams=Team.objects.filter(season_entries__season=season))
        if not form.is_valid():
            raise _form_errors(form)
        d = form.cleaned_data
        cup = services.draw_cup(
            season, teams=list(d["teams"]), name=d["name"], prize=d["prize"], order=d["order_ids"], by=request.user
        )
        return _("%(cup)s is drawn.") % {"cup": cup}

    return _board_action(request, pk, draw)


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
            for message in exc.messages:
                messages.error(request, message)
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
            "standings": [{"team": team.name, "team_id": team.pk, **line.as_dict()} for line, team in t.rows()],
        }
        for t in board.tables
    ]
    return JsonResponse({"season": board.season.name, "divisions": divisions})
