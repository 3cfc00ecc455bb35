from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import rules
from league.accounts import is_board
from league.models import Ruleset
from league.refusals import act_and_redirect
from teams import services
from teams.forms import (
    ExpandForm,
    HireForm,
    ImportTeamForm,
    MutationChoiceForm,
    PlayerEditForm,
    RegisterTeamForm,
    TeamCreateForm,
)
from teams.models import Player, Position, Race, Skill, Team
from teams.selectors import roster_sheet
from teams.selectors import team_list as teams_selector


def _get_team_for_change(request: HttpRequest, pk: int) -> Team:
    """The one access check for writes: the team's coach or the board; everyone else 403."""
    team = get_object_or_404(Team.objects.select_related("race", "ruleset", "coach"), pk=pk)
    if not can_change(request.user, team):
        raise PermissionDenied
    return team


def can_change(user, team: Team) -> bool:
    return user.is_authenticated and (team.coach_id == user.pk or is_board(user))


def _require_board(request: HttpRequest) -> None:
    if not is_board(request.user):
        raise PermissionDenied


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


@require_GET
def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = roster_sheet(pk)
    return render(
        request,
        "teams/team_detail.html",
        {"sheet": sheet, "team": sheet.team, "can_change": can_change(request.user, sheet.team)},
    )


@require_GET
def team_ledger(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(Team, pk=pk)
    entries = team.ledger.select_related("created_by").order_by("-seq")
    return render(request, "teams/team_ledger.html", {"team": team, "entries": entries})


@login_required
@require_http_methods(["GET", "POST"])
def team_create(request: HttpRequest) -> HttpResponse:
    race = Race.objects.filter(slug=request.GET.get("race") or request.POST.get("race")).first()
    if race is None:
        return render(request, "teams/team_create_race.html", {"races": Race.objects.all()})
    own, big_guys = services.race_positions(race)
    form = TeamCreateForm(request.POST or None, race=race, positions=own + big_guys)
    ruleset = Ruleset.default()
    quote = None
    if request.method == "POST" and form.is_valid():
        quote = _quote(ruleset, race, own, big_guys, form)
        if request.htmx and request.POST.get("quote"):
            return render(request, "teams/team_create.html#quote", {"quote": quote})
        if not quote["problems"]:
            try:
                team = services.create_team(
                    coach=request.user,
                    name=form.cleaned_data["name"],
                    race=race,
                    hires=form.hires(),
                    rerolls=form.cleaned_data["rerolls"],
                    fan_factor=form.cleaned_data["fan_factor"],
                    assistant_coaches=form.cleaned_data["assistant_coaches"],
                    cheerleaders=form.cleaned_data["cheerleaders"],
                    apothecary=form.cleaned_data["apothecary"],
                    ruleset=ruleset,
                )
            except services.TeamRuleError as exc:
                quote["problems"] = exc.messages
            else:
                messages.success(
                    request, _("%(team)s is founded. Name your players on the roster.") % {"team": team.name}
                )
                return redirect(team)
    elif request.method == "POST" and request.htmx and request.POST.get("quote"):
        return render(request, "teams/team_create.html#quote", {"quote": None, "form": form})
    context = {"race": race, "form": form, "quote": quote, "budget": ruleset.rules.settings.starting_treasury}
    return render(request, "teams/team_create.html", context)


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
    spec = services.race_spec(race)
    cost = r.creation_cost(spec, plan)
    budget = r.settings.starting_treasury
    return {
        "cost": cost,
        "left": budget - cost,
        "players": plan.player_count,
        "problems": services.problem_messages(r.creation_problems(spec, plan)),
    }


@login_required
@require_GET
def team_manage(request: HttpRequest, pk: int) -> HttpResponse:
    team = _get_team_for_change(request, pk)
    return render(request, "teams/team_manage.html", _manage_context(team))


def _manage_context(team: Team, **forms) -> dict:
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
        "treasury": services.treasury(team),
        "players": team.players.on_roster().select_related("position").order_by("number"),
        "hire_form": forms.get("hire_form") or HireForm(race=team.race),
        "expand_form": forms.get("expand_form") or ExpandForm(),
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


STAFF_PURCHASES = {
    "reroll": (services.buy_reroll, gettext_lazy("Bought a team re-roll for %(price)s.")),
    "assistant_coach": (services.buy_assistant_coach, gettext_lazy("Hired an assistant coach for %(price)s.")),
    "cheerleader": (services.buy_cheerleader, gettext_lazy("Hired a cheerleader for %(price)s.")),
    "apothecary": (services.buy_apothecary, gettext_lazy("Hired an apothecary for %(price)s.")),
}


@require_POST
def team_buy(request: HttpRequest, pk: int, what: str) -> HttpResponse:
    def buy(team: Team) -> str:
        if what in STAFF_PURCHASES:
            purchase, done = STAFF_PURCHASES[what]
            price = purchase(team, by=request.user)
        elif what == "expansion":
            form = ExpandForm(request.POST)
            if not form.is_valid():
                raise services.TeamRuleError([e for errors in form.errors.values() for e in errors])
            price = services.expand_stadium(team, steps=form.cleaned_data["steps"], by=request.user)
            done = _("Expanded the stadium for %(price)s.")
        elif what.startswith("facility-"):
            price = services.buy_facility(team, what.removeprefix("facility-"), by=request.user)
            done = _("Bought for %(price)s.")
        else:
            raise services.TeamRuleError([_("Unknown purchase.")])
        return done % {"price": f"{price:,}"}

    return _manage_action(request, pk, buy)


@require_POST
def team_hire(request: HttpRequest, pk: int) -> HttpResponse:
    team = _get_team_for_change(request, pk)
    form = HireForm(request.POST, race=team.race)
    if not form.is_valid():
        return render(request, "teams/team_manage.html", _manage_context(team, hire_form=form), status=400)
    try:
        player = services.hire_player(
            team,
            form.cleaned_data["position"],
            name=form.cleaned_data["name"],
            number=form.cleaned_data["number"],
            by=request.user,
        )
    except services.TeamRuleError as exc:
        for message in exc.messages:
            messages.error(request, message)
        return render(request, "teams/team_manage.html", _manage_context(team, hire_form=form), status=400)
    messages.success(request, _("Hired %(player)s.") % {"player": player})
    return redirect("team_manage", pk=team.pk)


# --- players -------------------------------------------------------------------------------------


def _get_player_for_change(request: HttpRequest, pk: int) -> Player:
    player = get_object_or_404(Player.objects.select_related("team", "position"), pk=pk)
    if not can_change(request.user, player.team):
        raise PermissionDenied
    return player


@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(
        Player.objects.select_related("team__race", "team__ruleset", "position").prefetch_related(
            "position__skills", "gained_skills__skill", "stat_changes"
        ),
        pk=pk,
    )
    r = player.team.ruleset.rules
    context = {
        "player": player,
        "spp": player.spp,
        "skill_points": r.skill_points(player.spp),
        "can_change": can_change(request.user, player.team),
        "edit_form": PlayerEditForm(initial={"name": player.name, "number": player.number}),
        "mutation_form": MutationChoiceForm(choices=services.tzeentch_choices(r))
        if player.mutation_choice_pending
        else None,
        "matches": player_match_history(player),
    }
    return render(request, "teams/player_detail.html", context)


def player_match_history(player: Player) -> list:
    """His line in every confirmed match report, newest first, with the SPP it earned (R28)."""
    from matches.models import Match, PlayerMatch

    r = player.team.ruleset.rules
    rows = list(
        PlayerMatch.objects.filter(player=player, match__status=Match.Status.CONFIRMED)
        .select_related("match__home", "match__away", "match__season")
        .order_by("-match__confirmed_at")
    )
    for row in rows:
        row.spp = r.spp(
            completions=row.completions,
            touchdowns=row.touchdowns,
            interceptions=row.interceptions,
            casualties=row.block_casualties,
            fouls=row.foul_casualties,
            mvps=row.mvps,
        )
    return rows


@require_POST
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    form = PlayerEditForm(request.POST)
    if form.is_valid():
        try:
            services.update_player(player, name=form.cleaned_data["name"], number=form.cleaned_data["number"])
        except services.TeamRuleError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Saved."))
    else:
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
    return redirect(request.POST.get("next") or player.get_absolute_url())


@require_POST
def player_leave(request: HttpRequest, pk: int, how: str) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    try:
        if how == "retire":
            services.retire_player(player, by=request.user)
            messages.success(
                request, _("%(player)s is retired: the team gets a free assistant coach.") % {"player": player}
            )
        elif how == "fire":
            services.fire_player(player, by=request.user)
            messages.success(request, _("%(player)s is fired.") % {"player": player})
        else:
            raise PermissionDenied
    except services.TeamRuleError as exc:
        for message in exc.messages:
            messages.error(request, message)
    return redirect("team_manage", pk=player.team_id)


@require_POST
def player_mutation(request: HttpRequest, pk: int) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    form = MutationChoiceForm(request.POST, choices=services.tzeentch_choices(player.team.ruleset.rules))
    if form.is_valid():
        try:
            services.choose_starting_mutation(player, form.cleaned_data["skill"], by=request.user)
        except services.TeamRuleError as exc:
            for message in exc.messages:
                messages.error(request, message)
    return redirect(player)


# --- registering existing teams (the board) -----------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def team_register(request: HttpRequest) -> HttpResponse:
    _require_board(request)
    form = RegisterTeamForm(request.POST or None)
    import_form = ImportTeamForm()
    if request.method == "POST" and form.is_valid():
        try:
            team = services.register_team(form.record(), by=request.user)
        except services.TeamRuleError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("%(team)s is registered.") % {"team": team.name})
            return redirect(team)
    return render(request, "teams/team_register.html", {"form": form, "import_form": import_form})


@login_required
@require_POST
def team_import(request: HttpRequest) -> HttpResponse:
    _require_board(request)
    import_form = ImportTeamForm(request.POST, request.FILES)
    if import_form.is_valid():
        try:
            team = services.register_team(import_form.cleaned_data["record"], by=request.user)
        except services.TeamRuleError as exc:
            for message in exc.messages:
                import_form.add_error(None, message)
        else:
            messages.success(request, _("%(team)s is registered.") % {"team": team.name})
            return redirect(team)
    context = {"form": RegisterTeamForm(), "import_form": import_form}
    return render(request, "teams/team_register.html", context, status=400)


# --- JSON API ------------------------------------------------------------------------------------


def _position_json(p: Position) -> dict:
    return {
        "name": p.name,
        "max": p.max_count,
        "price": p.price,
        "ma": p.ma,
        "st": p.st,
        "ag": p.ag,
        "av": p.av,
        "skills": [s.name for s in p.skills.all()],
        "normal": p.normal_access,
        "double": p.double_access,
    }


@require_GET
def api_races(request: HttpRequest) -> JsonResponse:
    races = [
        {
            "name": r.name,
            "reroll_price": r.reroll_price,
            "apothecary": r.apothecary_allowed,
            "head_coach": r.head_coach,
            "healer": r.healer,
            "positions": [_position_json(p) for p in r.positions.all()],
        }
        for r in _races_with_positions()
    ]
    big_guys = [{**_position_json(p), "allied": [r.name for r in p.allied_races.all()]} for p in _big_guys()]
    for b in big_guys:
        b.pop("max")
    return JsonResponse({"races": races, "big_guys": big_guys})


@require_GET
def api_teams(request: HttpRequest) -> JsonResponse:
    teams = [
        {
            "id": t.pk,
            "name": t.name,
            "race": t.race.name,
            "coach": t.coach.get_username(),
            "treasury": t.treasury or 0,
            "fan_factor": t.fan_factor,
            "url": request.build_absolute_uri(f"/api/teams/{t.pk}/"),
        }
        for t in teams_selector()
    ]
    return JsonResponse({"teams": teams})


@require_GET
def api_team(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(roster_sheet(pk).as_dict())


@require_GET
def team_history(request: HttpRequest, pk: int) -> HttpResponse:
    """The team across seasons: division, place and record each season, and its matches."""
    from league.selectors import team_history as history
    from matches.models import Match

    team = get_object_or_404(Team.objects.select_related("race"), pk=pk)
    matches = (
        Match.objects.for_team(team)
        .filter(status=Match.Status.CONFIRMED)
        .select_related("season", "home", "away")
        .order_by("-confirmed_at")[:50]
    )
    return render(request, "teams/team_history.html", {"team": team, "seasons": history(team), "matches": matches})
