from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_slug
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import rules
from league import selectors as league_selectors
from league.accounts import is_board, is_coach, sees_private
from league.confirm import confirm_page, is_confirmed
from league.models import STAT_FIELDS_PLAYER, PlayerStats, Ruleset
from league.numbers import money
from league.once import TokenForm, form_key
from league.pagecache import per_version
from league.paging import SlicePage
from league.refusals import AlreadyDone
from league.responses import act_and_redirect, flash_refusal, refusal_on_form
from league.rules.records import record_spp
from matches.models import Match, PlayerMatch
from matches.selectors import scheduled_for
from teams import ledger, registration, rosters, services
from teams.forms import (
    ExpandForm,
    HireForm,
    ImportTeamForm,
    MutationChoiceForm,
    PlayerEditForm,
    RegisterTeamForm,
    TeamCreateForm,
)
from teams.models import Player, PlayerSkill, Position, Race, Skill, Team
from teams.selectors import player_history, roster_sheet
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


def creation_prices(r: rules.Ruleset) -> dict[str, Any]:
    """The staff prices a new team pays, as the ruleset sets them (R5-R8)."""
    s = r.settings
    return {
        "fan_factor": s.fan_factor_price,
        "assistant_coach": s.assistant_coach_price,
        "cheerleaders": [r.cheerleader_price(n) for n in range(3)],
        "apothecary": s.apothecary_price,
    }


@require_GET
def team_list(request: HttpRequest) -> HttpResponse:
    return render(request, "teams/team_list.html", {"teams": teams_selector()})


FIXTURES_SHOWN = 6


@require_GET
def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = roster_sheet(pk)
    context = {
        "sheet": sheet,
        "team": sheet.team,
        "can_change": can_change(request.user, sheet.team),
        "fixtures": scheduled_for([sheet.team.pk])[:FIXTURES_SHOWN],
    }
    return render(request, "teams/team_detail.html", context)


@require_GET
def team_ledger(request: HttpRequest, pk: int) -> HttpResponse:
    if not sees_private(request.user):
        return redirect_to_login(request.get_full_path())
    team = get_object_or_404(Team, pk=pk)
    entries = SlicePage(team.ledger.select_related("created_by").order_by("-seq"), request.GET.get("page"), 50)
    return render(request, "teams/team_ledger.html", {"team": team, "entries": entries})


@login_required
@require_http_methods(["GET", "POST"])
def team_create(request: HttpRequest) -> HttpResponse:
    if not is_coach(request.user):
        raise PermissionDenied  # founding a team is a coach's right; the board makes coaches (issue 14)
    race = _race_from(request.GET.get("race") or request.POST.get("race"))
    if race is None:
        return render(request, "teams/team_create_race.html", {"races": Race.objects.all()})
    own, big_guys = rosters.race_positions(race)
    quote_only = bool(request.htmx and request.POST.get("quote"))
    form = TeamCreateForm(request.POST or None, race=race, positions=own + big_guys, quote_only=quote_only)
    ruleset = Ruleset.default()
    quote = None
    if request.method == "POST" and form.is_valid():
        quote = _quote(ruleset, race, own, big_guys, form)
        if quote_only:
            return render(request, "teams/team_create.html#quote", {"quote": quote})
        if not quote["problems"]:
            try:
                team = services.create_team(
                    idempotency_key=form_key(form.cleaned_data["token"], "user", request.user.pk, "create"),
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
            except AlreadyDone as exc:
                messages.info(request, exc.messages[0])
                return redirect(exc.result.team)
            except rosters.TeamRuleError as exc:
                quote["problems"] = exc.messages
            else:
                messages.success(
                    request, _("%(team)s is founded. Name your players on the roster.") % {"team": team.name}
                )
                return redirect(team)
    elif request.method == "POST" and quote_only:
        return render(request, "teams/team_create.html#quote", {"quote": None, "form": form})
    context = {
        "race": race,
        "form": form,
        "quote": quote,
        "budget": ruleset.rules.settings.starting_treasury,
        "prices": creation_prices(ruleset.rules),
    }
    return render(request, "teams/team_create.html", context)


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
    """The ledger key of the rendered form this purchase came from (see league.once)."""
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
    """The question and button of a purchase that cannot be undone and costs much (issue 12), or None:
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
    """Stadium expansion: a bad number is shown beside the field, with what was typed."""
    team = _get_team_for_change(request, pk)
    form = ExpandForm(request.POST, seats=team.ruleset.rules.settings.expansion_step)
    if not form.is_valid():
        return render(request, "teams/team_manage.html", _manage_context(team, expand_form=form), status=400)

    steps = form.cleaned_data["steps"]
    if not is_confirmed(request):
        stadium = team.stadium
        price = team.ruleset.rules.expansion_cost(stadium.capacity, steps, roof=stadium.roof)
        question = _("Expand the stadium by %(seats)s seats for %(price)s? It cannot be undone.") % {
            "seats": money(steps * team.ruleset.rules.settings.expansion_step),
            "price": money(price),
        }
        return confirm_page(
            request, question=question, button=_("Yes, expand"), cancel_url=reverse("team_manage", args=[team.pk])
        )

    def expand() -> str:
        key = form_key(form.cleaned_data["token"], "team", team.pk, "expansion")
        price = services.expand_stadium(team, steps=steps, by=request.user, idempotency_key=key)
        return _("Expanded the stadium for %(price)s.") % {"price": money(price)}

    return act_and_redirect(request, expand, reverse("team_manage", args=[team.pk]))


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
            idempotency_key=form_key(form.cleaned_data["token"], "team", team.pk, "hire"),
        )
    except AlreadyDone as exc:
        messages.info(request, exc.messages[0])
        return redirect("team_manage", pk=team.pk)
    except rosters.TeamRuleError as exc:
        flash_refusal(request, exc)
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
    return _player_page(request, pk)


def _player_page(request: HttpRequest, pk: int, edit_form: PlayerEditForm | None = None) -> HttpResponse:
    """The player's page; after a refused edit, the form again with its errors and what was typed (400)."""
    player = get_object_or_404(
        with_career(Player.objects.select_related("team__race", "team__ruleset", "position")).prefetch_related(
            Prefetch("gained_skills", queryset=PlayerSkill.objects.select_related("skill")), "stat_changes"
        ),
        pk=pk,
    )
    position = player.position_id
    starting = per_version(request, ("position_skills", position), lambda: starting_skills(position))
    r = player.team.ruleset.rules
    context = {
        "player": player,
        "starting_skills": starting,
        "spp": player.spp,
        "skill_points": r.skill_points(player.spp),
        "can_change": can_change(request.user, player.team),
        "edit_form": edit_form or PlayerEditForm(initial={"name": player.name, "number": player.number}),
        "mutation_form": MutationChoiceForm(choices=services.tzeentch_choices(r))
        if player.mutation_choice_pending
        else None,
        "matches": player_match_history(player, request.GET.get("page")),
        "career": {name: getattr(player, f"career_{name}") or 0 for name in STAT_FIELDS_PLAYER},
        "history": player_history(player),
    }
    return render(request, "teams/player_detail.html", context, status=400 if edit_form else 200)


MATCHES_PER_PAGE = 20


def starting_skills(position_id: int) -> list[str]:
    """The position's starting skills' names (catalogue data, the same for every player of it)."""
    links = Position.skills.through.objects.filter(position_id=position_id)
    return list(Skill.objects.filter(pk__in=links.values("skill_id")).order_by("name").values_list("name", flat=True))


def with_career(players: QuerySet[Player]) -> QuerySet[Player]:
    """Each player with his kept career counters (league.stats) as `career_<counter>`, read in the
    player's own query (one indexed row each)."""
    career = PlayerStats.objects.filter(player=OuterRef("pk"), season__isnull=True)
    return players.annotate(**{f"career_{name}": Subquery(career.values(name)[:1]) for name in STAT_FIELDS_PLAYER})


def player_match_history(player: Player, page: str | None = None) -> SlicePage:
    """His line in every confirmed match report, newest first, with the SPP it earned (R28); a page
    at a time, so a long career costs what a short one does."""

    r = player.team.ruleset.rules
    lines = (
        PlayerMatch.objects.filter(player=player, match__status=Match.Status.CONFIRMED)
        .select_related("match__home", "match__away", "match__season")
        .order_by("-match__confirmed_at", "-match_id")
    )
    rows = SlicePage(lines, page, MATCHES_PER_PAGE)
    for row in rows:
        row.spp = record_spp(r, row)
    return rows


@require_POST
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    form = PlayerEditForm(request.POST)
    if not form.is_valid():
        return _player_page(request, player.pk, edit_form=form)
    try:
        services.update_player(player, name=form.cleaned_data["name"], number=form.cleaned_data["number"])
    except rosters.TeamRuleError as exc:
        refusal_on_form(form, exc, "number")
        return _player_page(request, player.pk, edit_form=form)
    messages.success(request, _("Saved."))
    return redirect(_safe_next(request) or player.get_absolute_url())


def _safe_next(request: HttpRequest) -> str | None:
    """`next` only when it points inside this site: not https://evil.example/, not javascript:."""
    url = request.POST.get("next") or ""
    safe = url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return url if safe else None


@require_POST
def player_leave(request: HttpRequest, pk: int, how: str) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    if how not in {"retire", "fire"}:
        raise PermissionDenied
    if not is_confirmed(request):
        if how == "retire":
            question = _("Retire %(player)s? The team gets a free assistant coach. It cannot be undone.")
        else:
            question = _("Fire %(player)s? It cannot be undone.")
        return confirm_page(
            request,
            question=question % {"player": player},
            button=_("Yes, retire") if how == "retire" else _("Yes, fire"),
            cancel_url=reverse("team_manage", args=[player.team_id]),
        )
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
    except AlreadyDone as exc:
        messages.info(request, exc.messages[0])
    except rosters.TeamRuleError as exc:
        flash_refusal(request, exc)
    return redirect("team_manage", pk=player.team_id)


@require_POST
def player_mutation(request: HttpRequest, pk: int) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    form = MutationChoiceForm(request.POST, choices=services.tzeentch_choices(player.team.ruleset.rules))
    if form.is_valid():
        try:
            services.choose_starting_mutation(player, form.cleaned_data["skill"], by=request.user)
        except rosters.TeamRuleError as exc:
            flash_refusal(request, exc)
    return redirect(player)


# --- registering existing teams (the board) -----------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def team_register(request: HttpRequest) -> HttpResponse:
    _require_board(request)
    form = RegisterTeamForm(request.POST or None)
    import_form = ImportTeamForm()
    if request.method == "POST" and form.is_valid():
        key = form_key(form.cleaned_data["token"], "user", request.user.pk, "register")
        try:
            team = registration.register_team(form.record(), by=request.user, idempotency_key=key)
        except AlreadyDone as exc:
            messages.info(request, exc.messages[0])
            return redirect(exc.result.team)
        except rosters.TeamRuleError as exc:
            refusal_on_form(form, exc)
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
        key = form_key(import_form.cleaned_data["token"], "user", request.user.pk, "register")
        try:
            team = registration.register_team(import_form.cleaned_data["record"], by=request.user, idempotency_key=key)
        except AlreadyDone as exc:
            messages.info(request, exc.messages[0])
            return redirect(exc.result.team)
        except rosters.TeamRuleError as exc:
            refusal_on_form(import_form, exc)
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
    return JsonResponse({"teams": [_public(request, team) for team in teams]})


@require_GET
def api_team(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(_public(request, roster_sheet(pk).as_dict()))


PRIVATE_FIELDS = ("coach", "treasury")


def _public(request: HttpRequest, team: dict) -> dict:
    """A team as the visitor may see it: without the coach and the treasury for anonymous visitors."""
    if sees_private(request.user):
        return team
    return {key: value for key, value in team.items() if key not in PRIVATE_FIELDS}


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
    matches = SlicePage(matches, request.GET.get("page"), 50)
    return render(
        request,
        "teams/team_history.html",
        {"team": team, "seasons": league_selectors.team_history(team), "matches": matches},
    )
