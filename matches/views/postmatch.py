"""The post-match sequence of each team."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from matches.forms.fields import StepForm
from matches.forms.postmatch import (
    DevelopmentForm,
    EmptyStepForm,
    FanFactorForm,
    InjuriesForm,
    InjuryDiceForm,
    MvpForm,
    RollDevelopmentForm,
    WinningsForm,
)
from matches.models import DevelopmentRoll, Match, PostMatch
from matches.notices import acts_for
from matches.postmatch.base import get_postmatch, progress, steps_not_applicable
from matches.postmatch.development import Earned, choices_for, develop, roll_development, skill_specs, spp_this_match
from matches.postmatch.injury_facts import (
    healer_price,
    injury_dice_shown,
    injury_facts,
    pending_injury_dice,
    roll_injury_dice,
)
from matches.postmatch.injury_step import injuries
from matches.postmatch.mvp import earned_this_match, mvp
from matches.postmatch.steps import complete, fan_factor, purchases_done, purchases_made, stadium, winnings
from matches.views.base import HtmxHttpRequest, with_both_teams
from matches.views.steps import StepAction, run_step
from teams.ledger import treasury
from teams.models import PlayerSkill, Team

# --- the post-match sequence -------------------------------------------------------------------


def _get_team_in_match(request: HttpRequest, pk: int, team_pk: int) -> tuple[Match, Team]:
    """The team's coach or the board walk a team's post-match sequence; everyone else 403."""
    match = with_both_teams(
        get_object_or_404(Match.objects.select_related("season__ruleset", "home__race", "away__race"), pk=pk)
    )
    if team_pk not in acts_for(request.user, match):
        raise PermissionDenied
    return match, match.home if team_pk == match.home_id else match.away


# each step's key in PostMatch.explanations, as the steps' services write them
KEYS = {
    PostMatch.Step.WINNINGS: "winnings",
    PostMatch.Step.INJURIES: "injuries",
    PostMatch.Step.STADIUM: "stadium",
    PostMatch.Step.MVP: "mvp",
    PostMatch.Step.DEVELOPMENT: "development",
    PostMatch.Step.FAN_FACTOR: "fan_factor",
    PostMatch.Step.PURCHASES: "purchases",
    PostMatch.Step.TEAM_RATING: "team_rating",
}


def _postmatch_context(
    match: Match, team: Team, postmatch: PostMatch | None = None, invalid: StepForm | None = None
) -> dict:
    """What the page shows, with the form of the next step only; `invalid` in place of its fresh one."""
    postmatch = postmatch or get_postmatch(match, team)
    r = match.season.ruleset.rules if postmatch.ruleset_id == match.season.ruleset_id else postmatch.ruleset.rules
    # The page shows the sequence as far as it has come: the steps that do not apply (a forfeit, R42) are
    # passed and say why. Only shown: the row is saved by the steps' services alone.
    skipped = steps_not_applicable(match, team.pk)
    postmatch.done = done = progress(match, team.pk, postmatch.done)
    rolls = []
    if done == PostMatch.Step.MVP:
        rolls = list(
            DevelopmentRoll.objects.filter(match=match, player__team=team)
            .select_related("player__position", "dice")
            .prefetch_related(
                "player__position__skills",
                # the skills each rolled player has gained, in one query whatever the number of rolls
                Prefetch("player__gained_skills", queryset=PlayerSkill.objects.select_related("skill")),
            )
        )
    # the SPP the players earned, read once for the SPP list and the development dice still to roll
    earned = (
        earned_this_match(match, team, match.season.ruleset.rules)
        if done == PostMatch.Step.MVP
        else None
    )
    specs = skill_specs() if rolls else []
    rolls_with_choices = [(roll, choices_for(roll, r, skills=specs)) for roll in rolls]

    def form(cls: type[StepForm], **kwargs) -> StepForm:
        if isinstance(invalid, DevelopmentForm) and cls is DevelopmentForm:
            return invalid.with_choices(rolls_with_choices)
        if invalid is not None and type(invalid) is cls:
            return invalid
        return cls(match=match, team=team, **kwargs)

    step_form, facts = None, None
    if done == 0:
        step_form = form(WinningsForm)
    elif done == PostMatch.Step.WINNINGS:
        facts = injury_facts(match, team)
        pending = pending_injury_dice(match, team, facts)
        step_form = form(InjuryDiceForm, facts=facts) if pending else form(InjuriesForm, facts=facts)
    elif done in (PostMatch.Step.INJURIES, PostMatch.Step.FAN_FACTOR, PostMatch.Step.PURCHASES):
        step_form = form(EmptyStepForm)
    elif done == PostMatch.Step.STADIUM:
        step_form = form(MvpForm)
    elif done == PostMatch.Step.MVP:
        step_form = (
            form(DevelopmentForm, rolls=rolls_with_choices) if rolls else form(RollDevelopmentForm, earned=earned)
        )
    elif done == PostMatch.Step.DEVELOPMENT:
        step_form = form(FanFactorForm)
    explanations = {**postmatch.explanations, **{KEYS[step]: [why] for step, why in skipped.items()}}
    if done == PostMatch.Step.PURCHASES:  # a purchase made since "Purchases done" is shown before the new TR keeps it
        explanations["purchases"] = purchases_made(match, team)
    return {
        "match": match,
        "team": team,
        "postmatch": postmatch,
        "Step": PostMatch.Step,
        "explanations": explanations,
        "forfeit": match.forfeited_by_id is not None,
        "form": step_form,
        "errors": invalid.non_field_errors() if invalid is not None else [],
        "injury_dice": injury_dice_shown(match, team, facts) if facts else [],
        "opponent": match.away if team.pk == match.home_id else match.home,
        # what the healer's attempts are paid from, beside the form that orders them (R25)
        "treasury": treasury(team) if done == PostMatch.Step.WINNINGS else None,
        # the healer's price before any die, and each player's SPP and total at the SPP step
        "healer_price": None if PostMatch.Step.INJURIES in skipped else healer_price(team, r),
        "spp": _spp_shown(match, team, postmatch, earned),
    }


def _spp_shown(match: Match, team: Team, postmatch: PostMatch, earned: Earned | None) -> list | None:
    """The SPP step's players: worked out while it is the next step, as kept once it is done (None for a
    sequence done before they were kept, or not there yet)."""
    if postmatch.done == PostMatch.Step.MVP:
        return spp_this_match(match, team, earned)
    if postmatch.done >= PostMatch.Step.DEVELOPMENT:
        return postmatch.explanations.get("spp")
    return None


@require_GET
def match_postmatch(request: HtmxHttpRequest, pk: int, team_pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match, team = _get_team_in_match(request, pk, team_pk)
    if match.status != Match.Status.CONFIRMED:
        messages.error(request, _("The post-match sequence starts once the report is confirmed."))
        return redirect(match)
    return render(request, "matches/postmatch.html", _postmatch_context(match, team))


POSTMATCH_STEPS = {
    "winnings": StepAction(WinningsForm, winnings),
    "injury-dice": StepAction(InjuryDiceForm, roll_injury_dice),
    "injuries": StepAction(InjuriesForm, injuries),
    "stadium": StepAction(EmptyStepForm, stadium),
    "mvp": StepAction(MvpForm, mvp),
    "roll-development": StepAction(RollDevelopmentForm, roll_development),
    "development": StepAction(DevelopmentForm, develop),
    "fan-factor": StepAction(FanFactorForm, fan_factor),
    "purchases": StepAction(EmptyStepForm, purchases_done),
    "complete": StepAction(EmptyStepForm, complete),
}


@require_POST
def match_postmatch_step(request: HtmxHttpRequest, pk: int, team_pk: int, step: str) -> HttpResponse:
    """One step of a team's post-match sequence, by the table POSTMATCH_STEPS."""
    match, team = _get_team_in_match(request, pk, team_pk)
    action = POSTMATCH_STEPS.get(step)
    if action is None:
        raise PermissionDenied
    return run_step(
        request,
        action,
        action.form(request.POST, match=match, team=team),
        context=lambda invalid, result: _postmatch_context(
            match, team, result if isinstance(result, PostMatch) else None, invalid
        ),
        page="matches/postmatch.html",
        to=reverse("match_postmatch", args=[match.pk, team.pk]),
    )
