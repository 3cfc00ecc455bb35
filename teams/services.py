"""Writes that span several rows of a team: creating it, hiring and firing, purchases.

The money goes through teams.ledger; registration (teams.registration) and the board's corrections
(teams.corrections) have their own modules."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import rules
from league.lib.refusals import AlreadyDone
from league.lib.writes import league_write
from league.models import Ruleset, Season
from league.rules.messages import N_, Msg
from teams.ledger import ensure_not_done, lock_team, pay, post_entry
from teams.models import Facility, Player, PlayerSkill, Position, Race, Skill, Stadium, Team, TreasuryEntry
from teams.registration import create_team_row
from teams.rosters import (
    TeamRuleError,
    check_roster,
    current_plan,
    next_number,
    problem_messages,
    race_spec,
    roster_counts,
)


def reroll_phase(team: Team) -> str:
    """R7: "season" from a season's first match until it ends, "offseason" between seasons."""

    return "season" if Season.objects.running_with_matches_for(team).exists() else "offseason"


# --- creating a team -----------------------------------------------------------------------------


@league_write
def create_team(
    *,
    coach: Any,
    name: str,
    race: Race,
    hires: Mapping[int, int],
    rerolls: int = 0,
    fan_factor: int = 0,
    assistant_coaches: int = 0,
    cheerleaders: int = 0,
    apothecary: bool = False,
    names: Mapping[int, Sequence[str]] | None = None,
    ruleset: Ruleset | None = None,
    idempotency_key: str | None = None,
) -> Team:
    """A new team bought from the starting treasury (R5). Refused whole, nothing saved, on any problem.
    The form's key goes on the starting treasury's line: the same form sent twice founds one team."""
    ensure_not_done(idempotency_key)
    ruleset = ruleset or Ruleset.default()
    r = ruleset.rules
    spec = race_spec(race)
    plan = rules.RosterPlan(
        players={k: v for k, v in hires.items() if v},
        rerolls=rerolls,
        fan_factor=fan_factor,
        assistant_coaches=assistant_coaches,
        cheerleaders=cheerleaders,
        apothecary=apothecary,
    )
    problems = r.creation_problems(spec, plan)
    if Team.objects.filter(name__iexact=name.strip()).exists():
        # the same form sent twice at once: the first send's team, committed since the check above
        ensure_not_done(idempotency_key)
        raise TeamRuleError([_("A team called %(name)s already exists.") % {"name": name}])
    if problems:
        raise TeamRuleError(problem_messages(problems))
    team = create_team_row(
        idempotency_key,
        name=name.strip(),
        race=race,
        coach=coach,
        ruleset=ruleset,
        rerolls=rerolls,
        fan_factor=fan_factor,
        assistant_coaches=assistant_coaches,
        cheerleaders=cheerleaders,
        apothecary=apothecary,
        mvps_received=0,
    )
    Stadium.objects.create(team=team, capacity=r.start_capacity(first_division=False))
    team = lock_team(team)
    post_entry(
        team,
        r.settings.starting_treasury,
        kind=TreasuryEntry.Kind.STARTING,
        description=Msg(N_("Starting treasury")),
        by=coach,
        idempotency_key=idempotency_key,
    )
    positions = {p.pk: p for p in Position.objects.filter(pk__in=plan.players)}
    number = 1
    for position_id, count in plan.players.items():
        position = positions[position_id]
        given = list((names or {}).get(position_id, ()))
        for i in range(count):
            player_name = (given[i].strip() if i < len(given) else "") or f"{position.name} {i + 1}"
            player = _add_player(team, position, player_name, number)
            pay(
                team,
                position.price,
                Msg(N_("Hired %(player)s (%(position)s)"), player=player.name, position=position.name),
                by=coach,
                cause=player,
            )
            number += 1
    s = r.settings
    # Msg translates one message id: a count of one has its own, singular, line
    for count, price, label in (
        (rerolls, race.reroll_price, N_("%(n)s team re-roll") if rerolls == 1 else N_("%(n)s team re-rolls")),
        (fan_factor, s.fan_factor_price, N_("Fan factor %(n)s")),
        (
            assistant_coaches,
            s.assistant_coach_price,
            N_("%(n)s assistant coach") if assistant_coaches == 1 else N_("%(n)s assistant coaches"),
        ),
    ):
        if count:
            pay(team, count * price, Msg(label, n=count), by=coach)
    if cheerleaders:
        label = N_("%(n)s cheerleader") if cheerleaders == 1 else N_("%(n)s cheerleaders")
        pay(team, r.cheerleaders_value(cheerleaders), Msg(label, n=cheerleaders), by=coach)
    if apothecary:
        pay(team, s.apothecary_price, Msg(N_("Apothecary")), by=coach)
    return team


def _add_player(team: Team, position: Position, name: str, number: int) -> Player:
    player = Player.objects.create(team=team, position=position, name=name, number=number)
    if position.random_mutation:
        _starting_mutation(team, player)
    return player


def _starting_mutation(team: Team, player: Player) -> None:
    """Tzeentch Cultists and Warriors start with one random mutation from the 2D6 table (R10)."""
    d1, d2 = secrets.randbelow(6) + 1, secrets.randbelow(6) + 1
    result = team.ruleset.rules.tzeentch_mutation(d1, d2)
    roll = f"2D6 {d1}+{d2}={d1 + d2}"
    if result == "choice":
        player.mutation_choice_pending = True
        player.save(update_fields=["mutation_choice_pending"])
        return
    PlayerSkill.objects.create(
        player=player, skill=Skill.objects.get(name=result), origin=PlayerSkill.Origin.STARTING_MUTATION, roll=roll
    )


@league_write
def choose_starting_mutation(player: Player, skill_name: str, *, by: Any) -> PlayerSkill:
    """The coach's pick after a 12 on the Tzeentch table: any of the table's other results."""
    lock_team(player.team_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player.mutation_choice_pending:
        raise TeamRuleError([_("This player has no mutation to choose.")])
    allowed = tzeentch_choices(player.team.ruleset.rules)
    if skill_name not in allowed:
        raise TeamRuleError([_("Choose one of: %(list)s.") % {"list": ", ".join(allowed)}])
    if player.gained_skills.filter(skill__name=skill_name).exists():
        raise TeamRuleError([_("The player already has %(skill)s.") % {"skill": skill_name}])
    player.mutation_choice_pending = False
    player.save(update_fields=["mutation_choice_pending"])
    return PlayerSkill.objects.create(
        player=player,
        skill=Skill.objects.get(name=skill_name),
        origin=PlayerSkill.Origin.STARTING_MUTATION,
        roll=_("2D6 12: chosen"),
    )


def tzeentch_choices(r: rules.Ruleset) -> list[str]:
    return [b.value for b in r.tables.tzeentch_mutations.bands if b.value != "choice"]


# --- managing a team -----------------------------------------------------------------------------


@league_write
def hire_player(
    team: Team, position: Position, *, name: str, number: int | None, by: Any, idempotency_key: str | None = None
) -> Player:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    counts = roster_counts(team)
    counts[position.pk] = counts.get(position.pk, 0) + 1
    check_roster(team, current_plan(team, players=counts))
    number = number or next_number(team)
    if team.players.on_roster().filter(number=number).exists():
        raise TeamRuleError([_("Number %(n)s is already taken.") % {"n": number}])
    player = _add_player(team, position, name.strip() or f"{position.name} {counts[position.pk]}", number)
    pay(
        team,
        position.price,
        Msg(N_("Hired %(player)s (%(position)s)"), player=player.name, position=position.name),
        by=by,
        cause=player,
        idempotency_key=idempotency_key,
    )
    return player


@league_write
def fire_player(player: Player, *, by: Any) -> Player:
    lock_team(player.team_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.status == Player.Status.FIRED:
        raise AlreadyDone(result=player)  # the same button sent twice: no token needed, he leaves once
    if not player.on_roster:
        raise TeamRuleError([_("%(player)s is not on the roster.") % {"player": player}])
    player.status = Player.Status.FIRED
    player.left_at = timezone.now()
    player.save(update_fields=["status", "left_at"])
    return player


@league_write
def retire_player(player: Player, *, by: Any) -> Player:
    """A living player retired from the roster brings a free assistant coach (R8); nothing is refunded."""
    team = lock_team(player.team_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.status == Player.Status.RETIRED:
        raise AlreadyDone(result=player)  # one retirement, one free assistant coach (R8)
    if not player.on_roster:
        raise TeamRuleError([_("%(player)s is not on the roster.") % {"player": player}])
    player.status = Player.Status.RETIRED
    player.left_at = timezone.now()
    player.save(update_fields=["status", "left_at"])
    if team.ruleset.rules.settings.retire_gives_assistant_coach:
        team.assistant_coaches += 1
        team.save(update_fields=["assistant_coaches"])
    return player


def _buy_one(team: Team, field: str, price: int, description: Msg, *, by: Any, idempotency_key: str | None) -> int:
    """Pay for one more re-roll, assistant coach or cheerleader (team already locked)."""
    pay(team, price, description, by=by, idempotency_key=idempotency_key)
    setattr(team, field, getattr(team, field) + 1)
    team.save(update_fields=[field])
    return price


@league_write
def buy_reroll(team: Team, *, by: Any, phase: str | None = None, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    check_roster(team, current_plan(team, rerolls=team.rerolls + 1))
    phase = phase or reroll_phase(team)
    price = team.ruleset.rules.reroll_price(team.race.reroll_price, phase)
    # R7's two prices, named in words, not by the key "season"/"offseason"
    description = Msg(
        N_("Team re-roll (in-season price)") if phase == "season" else N_("Team re-roll (off-season price)")
    )
    return _buy_one(team, "rerolls", price, description, by=by, idempotency_key=idempotency_key)


@league_write
def buy_assistant_coach(team: Team, *, by: Any, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    price = team.ruleset.rules.settings.assistant_coach_price
    return _buy_one(
        team, "assistant_coaches", price, Msg(N_("Assistant coach")), by=by, idempotency_key=idempotency_key
    )


@league_write
def buy_cheerleader(team: Team, *, by: Any, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    price = team.ruleset.rules.cheerleader_price(team.cheerleaders)
    description = Msg(N_("Cheerleader no. %(n)s"), n=team.cheerleaders + 1)
    return _buy_one(team, "cheerleaders", price, description, by=by, idempotency_key=idempotency_key)


@league_write
def buy_apothecary(team: Team, *, by: Any, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    if team.apothecary:
        raise TeamRuleError([_("The team already has an apothecary.")])
    check_roster(team, current_plan(team, apothecary=True))
    price = team.ruleset.rules.settings.apothecary_price
    pay(team, price, Msg(N_("Apothecary")), by=by, idempotency_key=idempotency_key)
    team.apothecary = True
    team.save(update_fields=["apothecary"])
    return price


@league_write
def expand_stadium(team: Team, *, steps: int, by: Any, idempotency_key: str | None = None) -> int:
    """Any number of +10,000 steps, each at half the capacity it starts from (R16)."""
    if steps < 1:
        raise TeamRuleError([_("Choose at least one expansion.")])
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    stadium = Stadium.objects.select_for_update().get(team=team)
    r = team.ruleset.rules
    cost = r.expansion_cost(stadium.capacity, steps, roof=stadium.roof)
    new_capacity = stadium.capacity + steps * r.settings.expansion_step
    pay(
        team,
        cost,
        Msg(N_("Stadium %(old)s → %(new)s seats"), old=stadium.capacity, new=new_capacity),
        by=by,
        cause=stadium,
        idempotency_key=idempotency_key,
    )
    stadium.capacity = new_capacity
    stadium.save(update_fields=["capacity"])
    return cost


@league_write
def buy_facility(team: Team, key: str, *, by: Any, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    stadium = Stadium.objects.select_for_update().get(team=team)
    r = team.ruleset.rules
    try:
        facility = r.facility(key)
    except ValueError as exc:
        raise TeamRuleError([_("Unknown facility.")]) from exc
    if key == "roof":
        if stadium.roof:
            raise TeamRuleError([_("The stadium already has a roof.")])
        cost = r.roof_cost(stadium.capacity)
        description = Msg(N_("Roof over %(n)s seats"), n=stadium.capacity)
        pay(team, cost, description, by=by, cause=stadium, idempotency_key=idempotency_key)
        stadium.roof = True
        stadium.save(update_fields=["roof"])
        return cost
    if stadium.facilities.filter(key=key).exists():
        raise TeamRuleError([_("The stadium already has %(facility)s.") % {"facility": facility.name}])
    cost = r.facility_price(key, capacity=stadium.capacity)
    pay(team, cost, facility.name, by=by, cause=stadium, idempotency_key=idempotency_key)
    try:
        with transaction.atomic():
            Facility.objects.create(stadium=stadium, key=key)
    except IntegrityError as exc:
        raise TeamRuleError([_("The stadium already has %(facility)s.") % {"facility": facility.name}]) from exc
    return cost


@league_write
def update_player(player: Player, *, name: str, number: int) -> Player:
    lock_team(player.team_id)
    if player.team.players.on_roster().filter(number=number).exclude(pk=player.pk).exists():
        raise TeamRuleError([_("Number %(n)s is already taken.") % {"n": number}])
    player.name, player.number = name.strip(), number
    player.save(update_fields=["name", "number"])
    return player
