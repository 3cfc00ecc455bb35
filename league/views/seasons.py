"""The seasons: the list, a new season, the season page with the board's forms (fixtures, a fixture,
a division's teams, the tiebreak game, the cup draw), the start and the end; the seasons as JSON."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league.accounts import is_board, sees_private
from league.lib.inputs import query_id
from league.lib.pagecache import kept_for_visitors
from league.lib.responses import act_and_redirect, post_form, success
from league.models import Division, Ruleset, Season, SeasonEnd, TiebreakGame
from league.seasons.archive import season_archive
from league.seasons.forms import CupDrawForm, FixtureForm, FixturesForm, SeasonEndForm, SeasonForm, TiebreakForm
from league.seasons.selectors import board_desks, season_board
from league.seasons.services.base import running_elsewhere
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import add_fixture, generate_fixtures, record_tiebreak, withdraw_tiebreak
from league.seasons.services.season_end import commit_season_end, season_end_preview
from league.seasons.services.setup import (
    DivisionPlan,
    create_season,
    default_divisions,
    set_division_teams,
    start_season,
)
from league.views.base import _get_season, _require_board
from league.views.charts import season_races
from teams.models import Team


@require_GET
def season_list(request: HttpRequest) -> HttpResponse:
    seasons = Season.objects.select_related("ruleset").prefetch_related("divisions")
    return render(request, "league/season_list.html", {"seasons": seasons})


@login_required
@require_http_methods(["GET", "POST"])
def season_create(request: HttpRequest) -> HttpResponse:
    _require_board(request)
    form = SeasonForm(request.POST or None, initial={"ruleset": Ruleset.objects.published().first()})

    def page() -> HttpResponse:
        return render(request, "league/season_form.html", {"form": form})

    def create() -> Season:
        d = form.cleaned_data
        divisions = [
            DivisionPlan(level, name, die, list(d[f"division_{level}"]))
            for level, name, die in default_divisions(d["ruleset"])
        ]
        return create_season(
            name=d["name"],
            ruleset=d["ruleset"],
            divisions=divisions,
            first_with_stadium_rules=d["first_with_stadium_rules"],
        )

    if request.method == "GET":
        return page()
    return post_form(
        request,
        form,
        create,
        again=page,
        done=lambda season: success(request, _("%(season)s is created.") % {"season": season}, season),
    )


@require_GET
@kept_for_visitors
def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _season_page(request, _get_season(pk))


def _season_page(
    request: HttpRequest, season: Season, *, division: Division | None = None, **bound: forms.Form
) -> HttpResponse:
    """The season page; after a board form with errors, that form again (for its division, open), the
    errors beside its fields and what was typed kept."""

    board = season_board(season, latest=0, upcoming=0, rounds=True)
    season_races(board.tables, board.rounds, season.ruleset.rules)  # from the fixtures just read
    private = sees_private(request.user)
    context = {
        "season": season,
        "board": board,
        "is_board": is_board(request.user),
        "archive": season_archive(season, private=private),  # an ended season's end
    }
    if bound:  # refused: said at the top too, with a link, for the form may be a long phone page below
        (name,) = bound  # the form's name on the page is its anchor's: "tiebreak_form" → #tiebreak-d3
        context["refused_in"] = (
            (f"{name.removesuffix('_form')}-d{division.pk}", division.name) if division else ("cup", _("the cup draw"))
        )
    if context["is_board"]:
        context["running_elsewhere"] = running_elsewhere(season)  # why it cannot start yet (R43)
        context["ended"] = SeasonEnd.objects.filter(season=season).exists()  # its tiebreak games stay (R31)
        teams = Team.objects.filter(season_entries__season=season).order_by("name")
        desks = board_desks(season)  # the recorded tiebreak games; forms a played match closes are not offered
        for table in board.tables:
            table.desk = desks[table.division.pk]
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
    return render(request, "league/season_detail.html", context)


def _season_post(
    request: HttpRequest,
    season: Season,
    write: Callable[[], str],
    *,
    division: Division | None = None,
    **bound: forms.Form,
) -> HttpResponse:
    """A board form of the season page (`bound`: its one form, by its name on the page) through post_form:
    done, back to the season page with `write`'s message; invalid or refused (a team of a running season,
    R43; a walked pre-match), the form again where the board clicked, its errors and what was typed kept."""
    (form,) = bound.values()
    return post_form(
        request,
        form,
        write,
        again=lambda: _season_page(request, season, division=division, **bound),
        done=lambda message: success(request, message, season),
    )


def _board_action(request: HttpRequest, pk: int, action: Callable[[Season], str]) -> HttpResponse:
    """Run a board button on a season; refusals come back as messages and change nothing."""
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

    def generate() -> str:
        created = generate_fixtures(
            division, start=form.cleaned_data["start"], days_between=form.cleaned_data["days_between"]
        )
        return _("%(n)s fixtures generated for %(division)s.") % {"n": len(created), "division": division.name}

    return _season_post(request, season, generate, division=division, fixtures_form=form)


@require_POST
def season_add_fixture(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    season, division = _board_division(request, pk, division_pk)
    teams = Team.objects.filter(season_entries__division=division).order_by("name")
    form = FixtureForm(request.POST, teams=teams, auto_id=f"id_d{division.pk}_%s")

    def add() -> str:
        match = add_fixture(division, **form.cleaned_data)
        return _("Added %(match)s.") % {"match": match}

    return _season_post(request, season, add, division=division, fixture_form=form)


@require_POST
def season_division_teams(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    def change(season: Season) -> str:
        division = get_object_or_404(Division, pk=division_pk, season=season)
        ids = [pk for pk in map(query_id, request.POST.getlist("teams")) if pk is not None]
        set_division_teams(division, list(Team.objects.active().filter(pk__in=ids)))
        return _("The teams of %(division)s are saved; generate its fixtures again.") % {"division": division.name}

    return _board_action(request, pk, change)


@require_POST
def season_start(request: HttpRequest, pk: int) -> HttpResponse:
    def start(season: Season) -> str:
        start_season(season)
        return _("The season has started.")

    return _board_action(request, pk, start)


@require_POST
def season_tiebreak(request: HttpRequest, pk: int, division_pk: int) -> HttpResponse:
    season, division = _board_division(request, pk, division_pk)
    teams = Team.objects.filter(season_entries__division=division).order_by("name")
    form = TiebreakForm(request.POST, teams=teams, auto_id=f"id_d{division.pk}_%s")

    def record() -> str:
        record_tiebreak(division, by=request.user, **form.cleaned_data)
        return _("Tiebreak game recorded.")

    return _season_post(request, season, record, division=division, tiebreak_form=form)


@require_POST
def season_tiebreak_withdraw(request: HttpRequest, pk: int, game_pk: int) -> HttpResponse:
    """Take back a tiebreak game recorded by mistake (R31); a second press finds it gone."""

    def withdraw(season: Season) -> str:
        game = TiebreakGame.objects.filter(pk=game_pk, division__season=season).select_related("division").first()
        if game is not None:
            withdraw_tiebreak(game)
        return _("The tiebreak game is taken back.")

    return _board_action(request, pk, withdraw)


@require_POST
def cup_draw(request: HttpRequest, pk: int) -> HttpResponse:
    _require_board(request)
    season = _get_season(pk)
    form = CupDrawForm(request.POST, teams=Team.objects.filter(season_entries__season=season).order_by("name"))

    def draw() -> str:
        d = form.cleaned_data
        cup = draw_cup(
            season, teams=list(d["teams"]), name=d["name"], prize=d["prize"], order=d["order_ids"], by=request.user
        )
        return _("%(cup)s is drawn.") % {"cup": cup}

    return _season_post(request, season, draw, cup_form=form)


@require_GET
@kept_for_visitors
def cup_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    season = _get_season(pk)
    cup = getattr(season, "cup", None)  # read with the season
    context = {"season": season, "cup_name": cup and cup.name, "board": season_board(season)}
    return render(request, "league/cup.html", context)


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

    def page() -> HttpResponse:
        plan = season_end_preview(season)
        return render(request, "league/season_end.html", {"season": season, "plan": plan, "form": form})

    def ended(next_season: Season) -> HttpResponse:
        message = _("%(season)s is ended; %(next)s is ready.") % {"season": season, "next": next_season}
        return success(request, message, next_season)

    if request.method == "GET":
        return page()
    return post_form(
        request,
        form,
        lambda: commit_season_end(season, by=request.user, next_name=form.cleaned_data["next_name"]),
        again=page,
        done=ended,
    )


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
