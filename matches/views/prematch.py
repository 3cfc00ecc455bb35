"""The pre-match sequence and the referee sheet."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

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
from matches.notices import acts_for
from matches.postmatch.development import choices_for
from matches.prematch.base import get_prematch
from matches.prematch.chef import buy_chef_dice, choose_inspired_development, inspire, inspired_rolls
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import check_niggling, roll_handicap
from matches.selectors import prematch_turn
from matches.views.base import HtmxHttpRequest, _get_match_for_coach, with_both_teams
from matches.views.steps import StepAction, run_step
from teams.models import Player, Team

# --- the pre-match sequence --------------------------------------------------------------------


SHARED_FORMS = {
    PreMatch.Step.WEATHER: WeatherForm,
    PreMatch.Step.TICKETS: TicketsForm,
    PreMatch.Step.GATE: GateForm,
    PreMatch.Step.HANDICAP: HandicapForm,
}


def _prematch_context(request: HtmxHttpRequest, match: Match, invalid: StepForm | None = None) -> dict:
    """The page, with a form for each step the person may take now (matches.selectors.prematch_turn);
    `invalid` in place of its fresh one."""
    prematch = get_prematch(match)
    rules = prematch.ruleset.rules
    squads = {
        team.pk: {e.player_id: e for e in SquadEntry.objects.filter(match=match, team=team).select_related("player")}
        for team in (match.home, match.away)
    }
    # a draw reads its ruleset's text for its key in the reader's language (the parsed ruleset
    # is already loaded); the text copied at the draw stays for a key the ruleset does not have.
    results = {b.value.key: b.value for b in rules.tables.handicap_results.bands}
    handicaps = list(HandicapDraw.objects.filter(match=match).select_related("team", "player"))
    waiting = {h.team_id: h for h in handicaps if h.key == "inspiration" and not h.player_id}
    # R23: the Inspiration MVP's development rolls wait for the coach's choice before the match
    inspired = {
        t.pk: [(roll, choices_for(roll, rules)) for roll in inspired_rolls(match, t)]
        if prematch.done >= PreMatch.Step.HANDICAP
        else []
        for t in (match.home, match.away)
    }
    turn = prematch_turn(
        match,
        prematch,
        mine=acts_for(request.user, match),
        picked={pk for pk, squad in squads.items() if squad},
        inspire=set(waiting),
        inspired={pk for pk, rolls in inspired.items() if rolls},
    )

    def form(cls: type[StepForm], team: Team | None = None, **kwargs) -> StepForm:
        if isinstance(invalid, InspiredDevelopmentForm) and cls is InspiredDevelopmentForm and invalid.team == team:
            return invalid.with_choices(inspired[team.pk])
        if invalid is not None and type(invalid) is cls and invalid.team == team:
            return invalid
        return cls(match=match, team=team, **kwargs)

    teams = []
    for side in turn.sides:
        team, squad = side.team, squads[side.team.pk]
        roster = list(Player.objects.on_roster().filter(team=team).select_related("position").order_by("number"))
        default = [p.pk for p in roster if not p.miss_matches][: rules.settings.max_squad]
        teams.append(
            {
                "side": side,
                "team": team,
                "roster": roster,
                "squad": squad,
                "squad_form": form(SquadForm, team, roster=roster, initial={"players": list(squad) or default})
                if side.may_squad
                else None,
                "niggling_form": form(NigglingForm, team) if side.may_niggling else None,
                "chef_form": form(ChefForm, team) if side.may_chef else None,
                "inspire_form": form(InspireForm, team) if side.may_inspire else None,
                "inspired_lines": prematch.explanations.get(f"inspiration:{team.pk}", []),
                "inspired_form": form(InspiredDevelopmentForm, team, rolls=inspired[team.pk])
                if side.may_develop
                else None,
            }
        )
    forms_of = {t["team"].pk: t["inspire_form"] for t in teams}
    for h in handicaps:
        h.result = results.get(h.key)
    return {
        "match": match,
        "prematch": prematch,
        "turn": turn,
        "teams": teams,
        "chef_match": any(side.chef for side in turn.sides),
        "Step": PreMatch.Step,
        "step_form": form(SHARED_FORMS[turn.step]) if turn.may_step else None,
        "handicaps": [(h, forms_of[h.team_id] if waiting.get(h.team_id) is h else None) for h in handicaps],
        "errors": invalid.non_field_errors() if invalid is not None else [],
        "explanations": prematch.explanations,
        "max_squad": rules.settings.max_squad,
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
    mine = acts_for(request.user, match)
    if who == "home" and match.home_id not in mine:
        raise PermissionDenied  # the home coach sets the ticket price
    if who != "team":
        return None
    posted = request.POST.get("team", "")
    team = next((t for t in (match.home, match.away) if str(t.pk) == posted and t.pk in mine), None)
    if team is None:
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
