"""The pre-match sequence and the referee sheet."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from league.accounts import is_board
from matches.forms.fields import StepForm
from matches.forms.postmatch import InspiredDevelopmentForm
from matches.forms.prematch import (
    ChefForm,
    GateForm,
    HandicapForm,
    InspireForm,
    NigglingForm,
    SquadForm,
    TicketsForm,
    WeatherForm,
)
from matches.models import HandicapDraw, Match, PreMatch, SquadEntry
from matches.postmatch.development import choices_for
from matches.prematch.base import chef_bought, get_prematch, niggling_checked
from matches.prematch.chef import buy_chef_dice, choose_inspired_development, inspire, inspired_rolls
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import check_niggling, roll_handicap
from matches.views.base import HtmxHttpRequest, _get_match_for_coach, with_both_teams
from matches.views.steps import StepAction, run_step
from teams.models import Player, Race, Team

# --- the pre-match sequence --------------------------------------------------------------------


def _prematch_context(request: HtmxHttpRequest, match: Match, invalid: StepForm | None = None) -> dict:
    """The page, with a form for each step a person may take now; `invalid` in place of its fresh one."""
    prematch = get_prematch(match)
    squads = {
        team.pk: {e.player_id: e for e in SquadEntry.objects.filter(match=match, team=team).select_related("player")}
        for team in (match.home, match.away)
    }
    user = request.user
    board = is_board(user)
    done = prematch.done

    def form(cls: type[StepForm], team: Team | None = None, **kwargs) -> StepForm:
        if invalid is not None and type(invalid) is cls and invalid.team == team:
            return invalid
        return cls(match=match, team=team, **kwargs)

    # R23: the Inspiration MVP's development rolls wait for the coach's choice before the match
    inspired = {
        team.pk: [
            (roll, choices_for(roll, prematch.ruleset.rules))
            for roll in inspired_rolls(match, team)
        ]
        if done >= PreMatch.Step.HANDICAP
        else []
        for team in (match.home, match.away)
    }

    def inspired_form(team: Team) -> InspiredDevelopmentForm:
        if isinstance(invalid, InspiredDevelopmentForm) and invalid.team == team:
            return invalid.with_choices(inspired[team.pk])
        return InspiredDevelopmentForm(match=match, team=team, rolls=inspired[team.pk])

    teams = []
    for team in (match.home, match.away):
        roster = list(Player.objects.on_roster().filter(team=team).select_related("position").order_by("number"))
        mine = board or team.coach_id == user.pk
        squad = squads[team.pk]
        default = [p.pk for p in roster if not p.miss_matches][: prematch.ruleset.rules.settings.max_squad]
        teams.append(
            {
                "team": team,
                "roster": roster,
                "squad": squad,
                "mine": mine,
                "squad_form": form(SquadForm, team, roster=roster, initial={"players": list(squad) or default})
                if mine and done < PreMatch.Step.WEATHER
                else None,
                "niggling_form": form(NigglingForm, team)
                if mine
                and done == PreMatch.Step.FAN_FACTOR_MODIFIER
                and not niggling_checked(match, prematch, team)
                else None,
                "niggling_done": niggling_checked(match, prematch, team),
                "chef": team.race.head_coach == Race.HeadCoach.MASTER_CHEF,
                "chef_done": chef_bought(match, prematch, team),
                "chef_form": form(ChefForm, team) if mine and done == PreMatch.Step.HANDICAP else None,
                "inspired_lines": prematch.explanations.get(f"inspiration:{team.pk}", []),
                "inspired_form": inspired_form(team) if mine and inspired[team.pk] else None,
                "inspired_waiting": bool(inspired.get(team.pk)),
            }
        )
    inspire_forms = {}
    handicaps = list(HandicapDraw.objects.filter(match=match).select_related("team", "player"))
    # Issue 26: a draw reads its ruleset's text for its key in the reader's language (the parsed ruleset
    # is already loaded); the text copied at the draw stays for a key the ruleset does not have.
    results = {b.value.key: b.value for b in prematch.ruleset.rules.tables.handicap_results.bands}
    for h in handicaps:
        h.result = results.get(h.key)
        t = next(t for t in teams if t["team"].pk == h.team_id)
        if h.key == "inspiration" and not h.player_id and t["mine"]:
            inspire_forms[h.pk] = form(InspireForm, t["team"])
    return {
        "match": match,
        "prematch": prematch,
        "teams": teams,
        "chef_match": any(t["chef"] for t in teams),
        "Step": PreMatch.Step,
        "is_home_coach": board or match.home.coach_id == user.pk,
        "weather_form": form(WeatherForm) if done == PreMatch.Step.SQUADS else None,
        "tickets_form": form(TicketsForm) if done == PreMatch.Step.WEATHER else None,
        "gate_form": form(GateForm) if done == PreMatch.Step.TICKETS else None,
        "handicap_form": form(HandicapForm) if done == PreMatch.Step.NIGGLING else None,
        "handicaps": [(h, inspire_forms.get(h.pk)) for h in handicaps],
        "errors": invalid.non_field_errors() if invalid is not None else [],
        "explanations": prematch.explanations,
        "max_squad": prematch.ruleset.rules.settings.max_squad,
    }


@require_GET
def match_prematch(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match = _get_match_for_coach(request, pk)
    return render(request, "matches/prematch.html", _prematch_context(request, match))


PREMATCH_STEPS = {
    "squad": StepAction(SquadForm, pick_squad, "team"),
    "weather": StepAction(WeatherForm, roll_weather),
    "tickets": StepAction(TicketsForm, set_tickets, "home"),
    "gate": StepAction(GateForm, roll_gate),
    "niggling": StepAction(NigglingForm, check_niggling, "team"),
    "handicap": StepAction(HandicapForm, roll_handicap),
    "chef": StepAction(ChefForm, buy_chef_dice, "team"),
    "inspire": StepAction(InspireForm, inspire, "team"),
    "inspired-development": StepAction(InspiredDevelopmentForm, choose_inspired_development, "team"),
}


def _acting_team(request: HtmxHttpRequest, match: Match, who: str) -> Team | None:
    """The team a step is taken for, or 403 for a person who may not take it."""
    board = is_board(request.user)
    if who == "home" and not (board or match.home.coach_id == request.user.pk):
        raise PermissionDenied  # the home coach sets the ticket price
    if who != "team":
        return None
    posted = request.POST.get("team", "")
    team = next((t for t in (match.home, match.away) if str(t.pk) == posted), None)
    if team is None or not (board or team.coach_id == request.user.pk):
        raise PermissionDenied
    return team


@require_POST
def match_prematch_step(request: HtmxHttpRequest, pk: int, step: str) -> HttpResponse:
    """One step of the pre-match sequence, by the table PREMATCH_STEPS."""
    match = _get_match_for_coach(request, pk)
    action = PREMATCH_STEPS.get(step)
    if action is None:
        raise PermissionDenied
    team = _acting_team(request, match, action.who)
    return run_step(
        request,
        action,
        action.form(request.POST, match=match, team=team),
        context=lambda invalid, _result: _prematch_context(request, match, invalid),
        page="matches/prematch.html",
        to=reverse("match_prematch", args=[match.pk]),
    )


SHEET_SKILLS = ("position__skills", "gained_skills__skill")


@require_GET
def referee_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable referee sheet (Dommerskjema) for the table."""
    match = get_object_or_404(
        Match.objects.select_related("season__ruleset", "home__race", "away__race", "cup", "division"), pk=pk
    )
    with_both_teams(match)  # a bye has no sheet (R34)
    prematch = PreMatch.objects.filter(match=match).first()
    squads = []
    for team in (match.home, match.away):
        entries = (
            SquadEntry.objects.filter(match=match, team=team)
            .select_related("player__position")
            .prefetch_related(*(f"player__{name}" for name in SHEET_SKILLS))
        )
        if not entries:  # no pre-match online: the whole roster, its boxes filled in by hand at the table
            roster = Player.objects.on_roster().filter(team=team).select_related("position").order_by("number")
            entries = [SquadEntry(match=match, team=team, player=p) for p in roster.prefetch_related(*SHEET_SKILLS)]
        home = team.pk == match.home_id
        squads.append(
            {
                "team": team,
                "entries": entries,
                "rerolls": match.season.ruleset.rules.match_rerolls(team.rerolls, home=home),
            }
        )
    context = {
        "match": match,
        "prematch": prematch,
        "squads": squads,
        "handicaps": HandicapDraw.objects.filter(match=match),
    }
    return render(request, "matches/referee_sheet.html", context)
