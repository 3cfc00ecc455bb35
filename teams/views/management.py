"""Creating a team, managing it (purchases, staff, hiring), and the board registering existing teams."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_slug
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import rules
from league.accounts import is_coach
from league.lib.confirm import confirm_page, is_confirmed
from league.lib.numbers import money
from league.lib.once import TokenForm, form_key
from league.lib.responses import act_and_redirect, post_form, success
from league.models import Ruleset
from teams import ledger, registration, rosters, services
from teams.forms import (
    ExpandForm,
    HireForm,
    ImportTeamForm,
    RegisterTeamForm,
    TeamCreateForm,
)
from teams.models import Player, Race, Team
from teams.views.base import _get_team_for_change, _require_board


def creation_prices(r: rules.Ruleset) -> dict[str, Any]:
    """The staff prices a new team pays, as the ruleset sets them (R5-R8)."""
    s = r.settings
    return {
        "fan_factor": s.fan_factor_price,
        "assistant_coach": s.assistant_coach_price,
        "cheerleaders": [r.cheerleader_price(n) for n in range(3)],
        "apothecary": s.apothecary_price,
    }


@login_required
@require_http_methods(["GET", "POST"])
def team_create(request: HttpRequest) -> HttpResponse:
    if not is_coach(request.user):
        raise PermissionDenied  # founding a team is a coach's right; the board makes coaches
    race = _race_from(request.GET.get("race") or request.POST.get("race"))
    if race is None:
        return render(request, "teams/team_create_race.html", {"races": Race.objects.all()})
    own, big_guys = rosters.race_positions(race)
    quote_only = bool(request.htmx and request.POST.get("quote"))
    form = TeamCreateForm(request.POST or None, race=race, positions=own + big_guys, quote_only=quote_only)
    ruleset = Ruleset.default()
    if quote_only:  # the running quote while the coach types (htmx): a preview, not a submission
        quote = _quote(ruleset, race, own, big_guys, form) if form.is_valid() else None
        return render(request, "teams/team_create.html#quote", {"quote": quote, "form": form})

    def page() -> HttpResponse:
        quote = None
        if form.is_bound and form.non_field_errors():  # refused: the service's messages, by the button clicked
            quote = {**_quote(ruleset, race, own, big_guys, form), "problems": form.non_field_errors()}
        context = {
            "race": race,
            "form": form,
            "quote": quote,
            "budget": ruleset.rules.settings.starting_treasury,
            "prices": creation_prices(ruleset.rules),
        }
        return render(request, "teams/team_create.html", context)

    def create() -> Team:
        d = form.cleaned_data
        return services.create_team(
            idempotency_key=form_key(d["token"], "user", request.user.pk, "create"),
            coach=request.user,
            name=d["name"],
            race=race,
            hires=form.hires(),
            rerolls=d["rerolls"],
            fan_factor=d["fan_factor"],
            assistant_coaches=d["assistant_coaches"],
            cheerleaders=d["cheerleaders"],
            apothecary=d["apothecary"],
            ruleset=ruleset,
        )

    if request.method == "GET":
        return page()
    return post_form(
        request,
        form,
        create,
        again=page,
        done=lambda team: success(
            request, _("%(team)s is founded. Name your players on the roster.") % {"team": team.name}, team
        ),
        already=lambda exc: redirect(exc.result.team),
    )


def _race_from(slug: str | None) -> Race | None:
    """The race a query string names; anything that is not a slug (a NUL byte, a long string) is none."""
    try:
        validate_slug(slug or "")
    except ValidationError:
        return None
    return Race.objects.filter(slug=slug[:50]).first()


def _quote(ruleset: Ruleset, race: Race, own, big_guys, form: TeamCreateForm) -> dict:
    r = ruleset.rules
    d = form.cleaned_data
    plan = rules.RosterPlan(
        players={k: v for k, v in form.hires().items() if v},
        rerolls=d["rerolls"],
        fan_factor=d["fan_factor"],
        assistant_coaches=d["assistant_coaches"],
        cheerleaders=d["cheerleaders"],
        apothecary=d["apothecary"],
    )
    spec = rosters.race_spec(race)
    cost = r.creation_cost(spec, plan)
    budget = r.settings.starting_treasury
    return {
        "cost": cost,
        "left": budget - cost,
        "players": plan.player_count,
        "problems": rosters.problem_messages(r.creation_problems(spec, plan)),
    }


@login_required
@require_GET
def team_manage(request: HttpRequest, pk: int) -> HttpResponse:
    return _manage_page(request, _get_team_for_change(request, pk))


def _manage_page(request: HttpRequest, team: Team, **forms: Form) -> HttpResponse:
    """The manage page; after its hire or expansion form with errors, that form again with them."""
    return render(request, "teams/team_manage.html", _manage_context(team, **forms))


def _manage_context(team: Team, **forms: Form) -> dict:
    r = team.ruleset.rules
    stadium = team.stadium
    owned = set(stadium.facilities.values_list("key", flat=True))
    phase = services.reroll_phase(team)
    facilities = [
        {
            "facility": f,
            "owned": (stadium.roof if f.key == "roof" else f.key in owned),
            "price": r.facility_price(f.key, capacity=stadium.capacity),
        }
        for f in r.tables.facilities
    ]
    return {
        "team": team,
        "treasury": ledger.treasury(team),
        "players": team.players.on_roster().select_related("position").order_by("number"),
        "hire_form": forms.get("hire_form") or HireForm(race=team.race),
        "expand_form": forms.get("expand_form") or ExpandForm(seats=r.settings.expansion_step),
        "phase": phase,
        "prices": {
            "reroll": r.reroll_price(team.race.reroll_price, phase),
            "assistant_coach": r.settings.assistant_coach_price,
            "cheerleader": r.cheerleader_price(team.cheerleaders),
            "apothecary": r.settings.apothecary_price,
            "expansion": r.expansion_cost(stadium.capacity, 1, roof=stadium.roof),
        },
        "stadium": stadium,
        "facilities": facilities,
    }


def _manage_action(request: HttpRequest, pk: int, action: Callable[[Team], str]) -> HttpResponse:
    """Run one purchase; refusals come back as messages and change nothing."""
    team = _get_team_for_change(request, pk)
    return act_and_redirect(request, lambda: action(team), reverse("team_manage", args=[team.pk]))


def _purchase_key(request: HttpRequest, team: Team, what: str) -> str:
    """The ledger key of the rendered form this purchase came from (see league.lib.once)."""
    form = TokenForm(request.POST)
    if not form.is_valid():
        raise rosters.TeamRuleError(form.errors["token"])
    return form_key(form.cleaned_data["token"], "team", team.pk, what)


STAFF_PURCHASES = {
    "reroll": (services.buy_reroll, gettext_lazy("Bought a team re-roll for %(price)s.")),
    "assistant_coach": (services.buy_assistant_coach, gettext_lazy("Hired an assistant coach for %(price)s.")),
    "cheerleader": (services.buy_cheerleader, gettext_lazy("Hired a cheerleader for %(price)s.")),
    "apothecary": (services.buy_apothecary, gettext_lazy("Hired an apothecary for %(price)s.")),
}


def _second_thought(team: Team, what: str) -> tuple[str, str] | None:
    """The question and button of a purchase that cannot be undone and costs much, or None:
    facilities, and re-rolls at the in-season double price (R7); staff are cheap and leave nothing to regret."""
    r = team.ruleset.rules
    if what == "reroll" and services.reroll_phase(team) == "season":
        price = r.reroll_price(team.race.reroll_price, "season")
        return _("Buy a team re-roll for %(price)s (in-season price, × 2)? It cannot be undone.") % {
            "price": money(price)
        }, _("Yes, buy")
    if what.startswith("facility-"):
        facility = next((f for f in r.tables.facilities if f.key == what.removeprefix("facility-")), None)
        if facility is None:
            return None  # refused as an unknown facility by the purchase itself
        price = r.facility_price(facility.key, capacity=team.stadium.capacity)
        return _("Buy %(facility)s for %(price)s? It cannot be undone.") % {
            "facility": facility.name,
            "price": money(price),
        }, _("Yes, buy")
    return None


@require_POST
def team_buy(request: HttpRequest, pk: int, what: str) -> HttpResponse:
    if what == "expansion":
        return _expand(request, pk)
    if not is_confirmed(request):
        team = _get_team_for_change(request, pk)
        asked = _second_thought(team, what)
        if asked and TokenForm(request.POST).is_valid():  # a stale form is refused, not asked about
            question, button = asked
            return confirm_page(
                request, question=question, button=button, cancel_url=reverse("team_manage", args=[team.pk])
            )

    def buy(team: Team) -> str:
        if what in STAFF_PURCHASES:
            purchase, done = STAFF_PURCHASES[what]
            price = purchase(team, by=request.user, idempotency_key=_purchase_key(request, team, what))
        elif what.startswith("facility-"):
            key = _purchase_key(request, team, what)
            price = services.buy_facility(team, what.removeprefix("facility-"), by=request.user, idempotency_key=key)
            done = _("Bought for %(price)s.")
        else:
            raise rosters.TeamRuleError([_("Unknown purchase.")])
        return done % {"price": money(price)}

    return _manage_action(request, pk, buy)


def _expand(request: HttpRequest, pk: int) -> HttpResponse:
    """Stadium expansion: a bad number, or a refusal, is shown beside the field with what was typed."""
    team = _get_team_for_change(request, pk)
    form = ExpandForm(request.POST, seats=team.ruleset.rules.settings.expansion_step)
    manage = reverse("team_manage", args=[team.pk])
    if form.is_valid() and not is_confirmed(request):
        stadium = team.stadium
        steps = form.cleaned_data["steps"]
        price = team.ruleset.rules.expansion_cost(stadium.capacity, steps, roof=stadium.roof)
        question = _("Expand the stadium by %(seats)s seats for %(price)s? It cannot be undone.") % {
            "seats": money(steps * team.ruleset.rules.settings.expansion_step),
            "price": money(price),
        }
        return confirm_page(request, question=question, button=_("Yes, expand"), cancel_url=manage)

    def expand() -> str:
        key = form_key(form.cleaned_data["token"], "team", team.pk, "expansion")
        price = services.expand_stadium(team, steps=form.cleaned_data["steps"], by=request.user, idempotency_key=key)
        return _("Expanded the stadium for %(price)s.") % {"price": money(price)}

    return post_form(
        request,
        form,
        expand,
        again=lambda: _manage_page(request, team, expand_form=form),
        done=lambda message: success(request, message, manage),
        already=lambda _exc: redirect(manage),
    )


@require_POST
def team_hire(request: HttpRequest, pk: int) -> HttpResponse:
    team = _get_team_for_change(request, pk)
    form = HireForm(request.POST, race=team.race)
    manage = reverse("team_manage", args=[team.pk])

    def hire() -> Player:
        d = form.cleaned_data
        return services.hire_player(
            team,
            d["position"],
            name=d["name"],
            number=d["number"],
            by=request.user,
            idempotency_key=form_key(d["token"], "team", team.pk, "hire"),
        )

    return post_form(
        request,
        form,
        hire,
        again=lambda: _manage_page(request, team, hire_form=form),
        done=lambda player: success(request, _("Hired %(player)s.") % {"player": player}, manage),
        already=lambda _exc: redirect(manage),
    )


# --- registering existing teams (the board) -----------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def team_register(request: HttpRequest) -> HttpResponse:
    _require_board(request)
    form = RegisterTeamForm(request.POST or None)

    def page() -> HttpResponse:
        return render(request, "teams/team_register.html", {"form": form, "import_form": ImportTeamForm()})

    if request.method == "GET":
        return page()
    return _register(request, form, again=page)


@login_required
@require_POST
def team_import(request: HttpRequest) -> HttpResponse:
    _require_board(request)
    import_form = ImportTeamForm(request.POST, request.FILES)

    def page() -> HttpResponse:
        return render(request, "teams/team_register.html", {"form": RegisterTeamForm(), "import_form": import_form})

    return _register(request, import_form, again=page)


def _register(
    request: HttpRequest, form: RegisterTeamForm | ImportTeamForm, *, again: Callable[[], HttpResponse]
) -> HttpResponse:
    """Register the team a form describes (typed in, or a file); the same form sent twice registers once."""

    def register() -> Team:
        key = form_key(form.cleaned_data["token"], "user", request.user.pk, "register")
        return registration.register_team(form.record(), by=request.user, idempotency_key=key)

    return post_form(
        request,
        form,
        register,
        again=again,
        done=lambda team: success(request, _("%(team)s is registered.") % {"team": team.name}, team),
        already=lambda exc: redirect(exc.result.team),
    )
