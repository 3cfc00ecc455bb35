"""Writes that span several rows of a team: the ledger, creation, purchases, registration.

Every write locks the team row (select_for_update) inside one transaction, so two purchases at the
same moment are serialized and cannot together spend more than the treasury holds; the ledger's
unique (team, seq) and balance ≥ 0 constraints are the database's backstop.

A write that comes from a rendered form takes its one-time token as `idempotency_key` (league.once)
and checks it right after the lock: the same form sent twice acts once, the second is AlreadyDone.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from league import rules
from league.inputs import NAME_MAX
from league.models import Ruleset
from league.numbers import money, signed
from league.once import FORM_KEY_PREFIX
from league.refusals import AlreadyDone, Refusal
from league.seasons import team_in_season
from teams.models import Facility, Player, PlayerSkill, Position, Race, Skill, Stadium, StatChange, Team, TreasuryEntry

STAT_NAMES = ("MA", "ST", "AG", "AV")


class TeamRuleError(Refusal):
    pass


def problem_messages(problems: Sequence[rules.RosterProblem]) -> list[str]:
    return [translate_problem(p) for p in problems]


def translate_problem(problem: rules.RosterProblem) -> str:
    templates = {
        "over_budget": _("The team costs %(cost)s but the treasury holds %(budget)s."),
        "position_limit": _("At most %(max)s %(position)s (you have %(count)s)."),
        "too_many_players": _("At most %(max)s players on the roster (you have %(count)s)."),
        "too_few_players": _("At least %(min)s players at creation (you have %(count)s)."),
        "big_guy_not_allied": _("%(position)s does not play for %(race)s."),
        "big_guy_limit": _("At most %(max)s Big Guy on a team (you have %(count)s)."),
        "no_apothecary": _("%(race)s may not have an apothecary."),
        "fan_factor_limit": _("Fan factor can be bought up to %(max)s at creation (you asked for %(count)s)."),
        "fan_factor_after_creation": _("Fan factor cannot be bought after the team is created."),
        "reroll_limit": _("At most %(max)s team re-rolls (you would have %(count)s)."),
        "negative": _("%(what)s cannot be negative."),
        "unknown_position": _("%(position)s is not a position of %(race)s."),
    }
    return templates[problem.code] % dict(problem.params)


# --- the ledger ----------------------------------------------------------------------------------


def treasury(team: Team) -> int:
    last = team.ledger.order_by("-seq").values_list("balance", flat=True).first()
    return last or 0


def lock_team(team: Team | int) -> Team:
    """Lock the team row for the rest of the transaction; every gold movement goes through here."""
    pk = team.pk if isinstance(team, Team) else team
    return Team.objects.select_for_update().select_related("race", "ruleset").get(pk=pk)


def ensure_not_done(idempotency_key: str | None) -> None:
    """Refuse a form already carried out. Call after lock_team(): the lock orders two sends of one form,
    so the second sees the first's ledger line; the unique key in the database is the last guard."""
    if not idempotency_key:
        return
    entry = TreasuryEntry.objects.filter(idempotency_key=idempotency_key).first()
    if entry is not None:
        raise AlreadyDone(f"{entry.description}, {signed(entry.amount)}", result=entry)


def post_entry(
    team: Team,
    amount: int,
    *,
    kind: str,
    description: str,
    by: Any = None,
    cause: Model | None = None,
    idempotency_key: str | None = None,
) -> TreasuryEntry:
    """Add one ledger row. Call inside a transaction after lock_team(). Refuses to go below zero."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("post_entry must run inside transaction.atomic() with the team locked")
    if idempotency_key and TreasuryEntry.objects.filter(idempotency_key=idempotency_key).exists():
        return TreasuryEntry.objects.get(idempotency_key=idempotency_key)
    last = team.ledger.order_by("-seq").values_list("seq", "balance").first()
    seq, balance = last if last else (0, 0)
    if balance + amount < 0:
        raise TeamRuleError(
            [
                _("Not enough gold: %(cost)s needed, the treasury holds %(balance)s.")
                % {"cost": money(-amount), "balance": money(balance)}
            ]
        )
    entry = TreasuryEntry(
        team=team,
        seq=seq + 1,
        amount=amount,
        balance=balance + amount,
        kind=kind,
        description=description,
        created_by=by if getattr(by, "is_authenticated", False) else None,
        cause_type=ContentType.objects.get_for_model(cause) if cause is not None else None,
        cause_id=cause.pk if cause is not None else None,
        idempotency_key=idempotency_key,
    )
    if not idempotency_key or not idempotency_key.startswith(FORM_KEY_PREFIX):
        # The sequences' own keys (winnings:<match>:<team>, healer:…) are ordered by their step's row lock.
        entry.save()
        return entry
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        # Another transaction wrote the same key first (one not ordered by this team's lock).
        ensure_not_done(idempotency_key)
        raise
    return entry


def pay(
    team: Team,
    cost: int,
    description: str,
    *,
    by: Any,
    cause: Model | None = None,
    idempotency_key: str | None = None,
) -> TreasuryEntry:
    return post_entry(
        team,
        -cost,
        kind=TreasuryEntry.Kind.PURCHASE,
        description=description,
        by=by,
        cause=cause,
        idempotency_key=idempotency_key,
    )


# --- catalogue helpers ---------------------------------------------------------------------------


def race_positions(race: Race) -> tuple[list[Position], list[Position]]:
    positions = list(Position.objects.for_race(race).prefetch_related("allied_races", "skills"))
    return [p for p in positions if not p.big_guy], [p for p in positions if p.big_guy]


def race_spec(race: Race) -> rules.RaceSpec:
    """The race for the rules: its own positions and every Big Guy, so a non-allied one is named as such."""
    own = list(race.positions.all())
    big_guys = list(Position.objects.filter(big_guy=True).prefetch_related("allied_races"))
    return race.spec(own, big_guys)


def roster_counts(team: Team) -> dict[int, int]:
    counts: dict[int, int] = {}
    for position_id in team.players.on_roster().values_list("position_id", flat=True):
        counts[position_id] = counts.get(position_id, 0) + 1
    return counts


def current_plan(team: Team, **changes: Any) -> rules.RosterPlan:
    values = {
        "players": roster_counts(team),
        "rerolls": team.rerolls,
        "fan_factor": team.fan_factor,
        "assistant_coaches": team.assistant_coaches,
        "cheerleaders": team.cheerleaders,
        "apothecary": team.apothecary,
    }
    values.update(changes)
    return rules.RosterPlan(**values)


def check_roster(team: Team, plan: rules.RosterPlan) -> None:
    problems = team.ruleset.rules.roster_problems(race_spec(team.race), plan, creation=False)
    if problems:
        raise TeamRuleError(problem_messages(problems))


def next_number(team: Team) -> int:
    taken = set(team.players.on_roster().values_list("number", flat=True))
    return next(n for n in range(1, 100) if n not in taken)


def reroll_phase(team: Team) -> str:
    """R7: "season" from a season's first match until it ends, "offseason" between seasons."""

    return "season" if team_in_season(team) else "offseason"


# --- creating a team -----------------------------------------------------------------------------


@transaction.atomic
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
        raise TeamRuleError([_("A team called %(name)s already exists.") % {"name": name}])
    if problems:
        raise TeamRuleError(problem_messages(problems))
    team = _create_team_row(
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
        description=_("Starting treasury"),
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
                _("Hired %(player)s (%(position)s)") % {"player": player.name, "position": position.name},
                by=coach,
                cause=player,
            )
            number += 1
    s = r.settings
    for count, price, label in (
        (rerolls, race.reroll_price, _("%(n)s team re-rolls")),
        (fan_factor, s.fan_factor_price, _("Fan factor %(n)s")),
        (assistant_coaches, s.assistant_coach_price, _("%(n)s assistant coaches")),
    ):
        if count:
            pay(team, count * price, label % {"n": count}, by=coach)
    if cheerleaders:
        pay(team, r.cheerleaders_value(cheerleaders), _("%(n)s cheerleaders") % {"n": cheerleaders}, by=coach)
    if apothecary:
        pay(team, s.apothecary_price, _("Apothecary"), by=coach)
    return team


def _create_team_row(idempotency_key: str | None, **fields: Any) -> Team:
    """The team row; two writers founding the same name at once get "already done" (same form) or
    "already exists", never the database's error."""
    try:
        with transaction.atomic():
            return Team.objects.create(**fields)
    except IntegrityError as exc:
        ensure_not_done(idempotency_key)
        raise TeamRuleError([_("A team called %(name)s already exists.") % {"name": fields["name"]}]) from exc


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


@transaction.atomic
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


@transaction.atomic
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
        _("Hired %(player)s (%(position)s)") % {"player": player.name, "position": position.name},
        by=by,
        cause=player,
        idempotency_key=idempotency_key,
    )
    return player


@transaction.atomic
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


@transaction.atomic
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


def _buy_one(team: Team, field: str, price: int, description: str, *, by: Any, idempotency_key: str | None) -> int:
    """Pay for one more re-roll, assistant coach or cheerleader (team already locked)."""
    pay(team, price, description, by=by, idempotency_key=idempotency_key)
    setattr(team, field, getattr(team, field) + 1)
    team.save(update_fields=[field])
    return price


@transaction.atomic
def buy_reroll(team: Team, *, by: Any, phase: str | None = None, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    check_roster(team, current_plan(team, rerolls=team.rerolls + 1))
    phase = phase or reroll_phase(team)
    price = team.ruleset.rules.reroll_price(team.race.reroll_price, phase)
    description = _("Team re-roll (%(phase)s price)") % {"phase": phase}
    return _buy_one(team, "rerolls", price, description, by=by, idempotency_key=idempotency_key)


@transaction.atomic
def buy_assistant_coach(team: Team, *, by: Any, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    price = team.ruleset.rules.settings.assistant_coach_price
    return _buy_one(team, "assistant_coaches", price, _("Assistant coach"), by=by, idempotency_key=idempotency_key)


@transaction.atomic
def buy_cheerleader(team: Team, *, by: Any, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    price = team.ruleset.rules.cheerleader_price(team.cheerleaders)
    description = _("Cheerleader no. %(n)s") % {"n": team.cheerleaders + 1}
    return _buy_one(team, "cheerleaders", price, description, by=by, idempotency_key=idempotency_key)


@transaction.atomic
def buy_apothecary(team: Team, *, by: Any, idempotency_key: str | None = None) -> int:
    team = lock_team(team)
    ensure_not_done(idempotency_key)
    if team.apothecary:
        raise TeamRuleError([_("The team already has an apothecary.")])
    check_roster(team, current_plan(team, apothecary=True))
    price = team.ruleset.rules.settings.apothecary_price
    pay(team, price, _("Apothecary"), by=by, idempotency_key=idempotency_key)
    team.apothecary = True
    team.save(update_fields=["apothecary"])
    return price


@transaction.atomic
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
        _("Stadium %(old)s → %(new)s seats") % {"old": money(stadium.capacity), "new": money(new_capacity)},
        by=by,
        cause=stadium,
        idempotency_key=idempotency_key,
    )
    stadium.capacity = new_capacity
    stadium.save(update_fields=["capacity"])
    return cost


@transaction.atomic
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
        description = _("Roof over %(n)s seats") % {"n": money(stadium.capacity)}
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


@transaction.atomic
def update_player(player: Player, *, name: str, number: int) -> Player:
    lock_team(player.team_id)
    if player.team.players.on_roster().filter(number=number).exclude(pk=player.pk).exists():
        raise TeamRuleError([_("Number %(n)s is already taken.") % {"n": number}])
    player.name, player.number = name.strip(), number
    player.save(update_fields=["name", "number"])
    return player


# --- registering an existing team (the board) ---------------------------------------------------


@dataclass
class PlayerRecord:
    number: int
    name: str
    position: str
    completions: int = 0
    touchdowns: int = 0
    interceptions: int = 0
    casualties: int = 0
    foul_casualties: int = 0
    mvps: int = 0
    skills: tuple[str, ...] = ()
    ma: int = 0
    st: int = 0
    ag: int = 0
    av: int = 0
    niggling: int = 0
    miss_matches: int = 0


@dataclass
class TeamRecord:
    name: str
    race: str
    coach: Any
    treasury: int
    rerolls: int = 0
    fan_factor: int = 0
    assistant_coaches: int = 0
    cheerleaders: int = 0
    apothecary: bool = False
    capacity: int = 0
    roof: bool = False
    facilities: tuple[str, ...] = ()
    mvps_received: int = 5
    players: tuple[PlayerRecord, ...] = ()


@transaction.atomic
def register_team(
    record: TeamRecord, *, by: Any, ruleset: Ruleset | None = None, idempotency_key: str | None = None
) -> Team:
    """Enter a team as it stands today, without the creation budget but with every limit checked.
    The form's key goes on the registered treasury's line (written even at 0 then, as the first line)."""
    ensure_not_done(idempotency_key)
    ruleset = ruleset or Ruleset.default()
    r = ruleset.rules
    errors: list[str] = []
    if "\x00" in record.race + record.name:
        raise TeamRuleError([_("A name cannot contain a null character.")])
    race = Race.objects.filter(name__iexact=record.race.strip()).first()
    if race is None:
        raise TeamRuleError([_("Unknown race: %(race)s.") % {"race": record.race}])
    if Team.objects.filter(name__iexact=record.name.strip()).exists():
        errors.append(_("A team called %(name)s already exists.") % {"name": record.name})
    own, big_guys = race_positions(race)
    by_name = {p.name.lower(): p for p in own + big_guys}
    counts: dict[int, int] = {}
    numbers: set[int] = set()
    skills = {s.name.lower(): s for s in Skill.objects.all()}
    for i, p in enumerate(record.players, start=1):
        where = _("Player %(i)s (#%(n)s %(name)s)") % {"i": i, "n": p.number, "name": p.name}
        position = by_name.get(p.position.strip().lower())
        if position is None:
            errors.append(
                where
                + ": "
                + _("%(position)s is not a position of %(race)s.") % {"position": p.position, "race": race.name}
            )
            continue
        counts[position.pk] = counts.get(position.pk, 0) + 1
        if p.number in numbers:
            errors.append(where + ": " + _("Number %(n)s is already taken.") % {"n": p.number})
        numbers.add(p.number)
        for stat in STAT_NAMES:
            if abs(getattr(p, stat.lower())) > r.settings.stat_limit:
                errors.append(
                    where
                    + ": "
                    + _("%(stat)s may change by at most ±%(limit)s.") % {"stat": stat, "limit": r.settings.stat_limit}
                )
        if len(p.name) > NAME_MAX:
            errors.append(where + ": " + _("The name is longer than %(max)s characters.") % {"max": NAME_MAX})
        for skill in p.skills:
            if skill.strip().lower() not in skills:
                errors.append(where + ": " + _("Unknown skill: %(skill)s.") % {"skill": skill})
        if len({s.strip().lower() for s in p.skills}) < len(p.skills):
            errors.append(where + ": " + _("A skill is listed twice."))
        for field in PLAYER_CORRECTABLE:  # the player's counters, defined once below
            if getattr(p, field) < 0:
                errors.append(where + ": " + _("%(what)s cannot be negative.") % {"what": field})
    for key in record.facilities:
        try:
            r.facility(key)
        except ValueError:
            errors.append(_("Unknown facility: %(facility)s.") % {"facility": key})
    if len(set(record.facilities)) < len(record.facilities):
        errors.append(_("A facility is listed twice."))
    if len(record.name.strip()) > NAME_MAX:
        errors.append(_("The team name must be at most %(max)s characters.") % {"max": NAME_MAX})
    if record.treasury < 0:
        errors.append(_("The treasury cannot be negative."))
    plan = rules.RosterPlan(
        players=counts,
        rerolls=record.rerolls,
        fan_factor=record.fan_factor,
        assistant_coaches=record.assistant_coaches,
        cheerleaders=record.cheerleaders,
        apothecary=record.apothecary,
    )
    errors.extend(problem_messages(r.roster_problems(race_spec(race), plan, creation=False)))
    if errors:
        raise TeamRuleError(errors)
    team = _create_team_row(
        idempotency_key,
        name=record.name.strip(),
        race=race,
        coach=record.coach,
        ruleset=ruleset,
        rerolls=record.rerolls,
        fan_factor=record.fan_factor,
        assistant_coaches=record.assistant_coaches,
        cheerleaders=record.cheerleaders,
        apothecary=record.apothecary,
        mvps_received=record.mvps_received,
    )
    stadium = Stadium.objects.create(
        team=team, capacity=record.capacity or r.start_capacity(first_division=False), roof=record.roof
    )
    for key in record.facilities:
        if key != "roof":
            Facility.objects.create(stadium=stadium, key=key)
    team = lock_team(team)
    if record.treasury or idempotency_key:
        post_entry(
            team,
            record.treasury,
            kind=TreasuryEntry.Kind.REGISTERED,
            description=_("Treasury when registered"),
            by=by,
            idempotency_key=idempotency_key,
        )
    for p in record.players:
        position = by_name[p.position.strip().lower()]
        player = Player.objects.create(
            team=team,
            position=position,
            name=p.name,
            number=p.number,
            completions=p.completions,
            touchdowns=p.touchdowns,
            interceptions=p.interceptions,
            casualties=p.casualties,
            foul_casualties=p.foul_casualties,
            mvps=p.mvps,
            niggling=p.niggling,
            miss_matches=p.miss_matches,
            ma_change=p.ma,
            st_change=p.st,
            ag_change=p.ag,
            av_change=p.av,
        )
        for skill in p.skills:
            PlayerSkill.objects.create(
                player=player, skill=skills[skill.strip().lower()], origin=PlayerSkill.Origin.REGISTERED
            )
        for stat in STAT_NAMES:
            change = getattr(p, stat.lower())
            if change:
                StatChange.objects.create(player=player, stat=stat, change=change, reason=StatChange.Reason.REGISTERED)
    return team


# --- the board's corrections ---------------------------------------------------------------------
# A mistake found after the fact is corrected by a new record, never by overwriting: gold by a ledger
# line (Kind.CORRECTION), counters by load-change-save so django-simple-history keeps the old value,
# who changed it and why.

TEAM_CORRECTABLE = ("fan_factor", "rerolls", "assistant_coaches", "cheerleaders", "mvps_received", "trophy_rerolls")
PLAYER_CORRECTABLE = (
    "completions",
    "touchdowns",
    "interceptions",
    "casualties",
    "foul_casualties",
    "mvps",
    "niggling",
    "miss_matches",
)


def _with_reason(obj: Model, reason: str, by: Any) -> None:
    """What the history row of the next save records beside the new values."""
    obj._change_reason = reason[:100]
    if getattr(by, "is_authenticated", False):
        obj._history_user = by


def _apply_deltas(
    obj: Model, fields: Sequence[str], changes: Mapping[str, int], labels: Mapping[str, str]
) -> list[str]:
    unknown = set(changes) - set(fields)
    if unknown:
        raise TeamRuleError([_("%(field)s cannot be corrected here.") % {"field": ", ".join(sorted(unknown))}])
    problems, changed = [], []
    for name, delta in changes.items():
        if not delta:
            continue
        new = getattr(obj, name) + delta
        if new < 0:
            problems.append(
                _("%(what)s would be %(new)s: it cannot be negative.") % {"what": labels.get(name, name), "new": new}
            )
        setattr(obj, name, new)
        changed.append(name)
    if problems:
        raise TeamRuleError(problems)
    return changed


@transaction.atomic
def correct_team(
    team: Team,
    *,
    reason: str,
    by: Any,
    treasury: int = 0,
    capacity: int = 0,
    changes: Mapping[str, int] | None = None,
) -> Team:
    """The board corrects a team: gold as a ledger line, counters and seats with their history.
    Refused whole, nothing saved, on any problem."""
    reason = (reason or "").strip()
    if not reason:
        raise TeamRuleError([_("Say why the board corrects it.")])
    team = lock_team(team)
    labels = {f: str(Team._meta.get_field(f).verbose_name) for f in TEAM_CORRECTABLE}
    changed = _apply_deltas(team, TEAM_CORRECTABLE, changes or {}, labels)
    if not (treasury or capacity or changed):
        raise TeamRuleError([_("Nothing to correct.")])
    if capacity:
        stadium = Stadium.objects.select_for_update().get(team=team)
        if stadium.capacity + capacity < 0:
            raise TeamRuleError([_("The stadium cannot have fewer than 0 seats.")])
        stadium.capacity += capacity
        _with_reason(stadium, _("Correction: %(reason)s") % {"reason": reason}, by)
        stadium.save(update_fields=["capacity"])
    if changed:
        check_roster(team, current_plan(team))  # the limits still hold (R5)
        _with_reason(team, _("Correction: %(reason)s") % {"reason": reason}, by)
        team.save(update_fields=changed)
    if treasury:
        post_entry(
            team,
            treasury,
            kind=TreasuryEntry.Kind.CORRECTION,
            description=(_("Correction: %(reason)s") % {"reason": reason})[:200],
            by=by,
        )
    return team


def correct_treasury(team: Team, *, amount: int, reason: str, by: Any) -> TreasuryEntry:
    """A treasury correction (plus or minus) is one ledger line with its running balance; never below zero."""
    if not amount:
        raise TeamRuleError([_("A correction moves gold: the amount cannot be 0.")])
    correct_team(team, reason=reason, by=by, treasury=amount)
    return TreasuryEntry.objects.filter(team=team).order_by("-seq").first()


@transaction.atomic
def correct_player(
    player: Player,
    *,
    reason: str,
    by: Any,
    changes: Mapping[str, int] | None = None,
    stats: Mapping[str, int] | None = None,
    add_skills: Sequence[str] = (),
    remove_skills: Sequence[str] = (),
    status: str | None = None,
) -> Player:
    """The board corrects a player's SPP counters, injuries, stats, skills or status; the player's
    history records each change and the reason. Refused whole, nothing saved, on any problem."""
    reason = (reason or "").strip()
    if not reason:
        raise TeamRuleError([_("Say why the board corrects it.")])
    team = lock_team(player.team_id)
    player = Player.objects.select_for_update().select_related("position").get(pk=player.pk)
    r = team.ruleset.rules
    note = (_("Correction: %(reason)s") % {"reason": reason})[:200]
    labels = {f: str(Player._meta.get_field(f).verbose_name) for f in PLAYER_CORRECTABLE}
    changed = _apply_deltas(player, PLAYER_CORRECTABLE, changes or {}, labels)
    problems: list[str] = []
    stat_rows = []
    for stat, delta in (stats or {}).items():
        if not delta:
            continue
        if stat not in STAT_NAMES:
            problems.append(_("Unknown stat: %(stat)s.") % {"stat": stat})
            continue
        field = f"{stat.lower()}_change"
        base = getattr(player.position, stat.lower())
        current = base + getattr(player, field)
        if not r.stat_change_allowed(base, current, delta) or current + delta < 1:
            problems.append(
                _("%(stat)s may change by at most ±%(limit)s (R29).") % {"stat": stat, "limit": r.settings.stat_limit}
            )
            continue
        setattr(player, field, getattr(player, field) + delta)
        changed.append(field)
        stat_rows.append(
            StatChange(player=player, stat=stat, change=delta, reason=StatChange.Reason.CORRECTION, note=note)
        )
    catalogue = {s.name.lower(): s for s in Skill.objects.all()}
    owned = set(player.gained_skills.values_list("skill__name", flat=True)) | {
        s.name for s in player.position.skills.all()
    }
    for name in add_skills:
        skill = catalogue.get(name.strip().lower())
        if skill is None:
            problems.append(_("Unknown skill: %(skill)s.") % {"skill": name})
        elif skill.name in owned:
            problems.append(_("The player already has %(skill)s.") % {"skill": skill.name})
    gained = set(player.gained_skills.values_list("skill__name", flat=True))
    for name in remove_skills:
        if name not in gained:
            problems.append(_("%(skill)s is not a skill the player gained.") % {"skill": name})
    if status is not None and status != player.status:
        if status not in Player.Status.values:
            problems.append(_("Unknown status."))
        elif status == Player.Status.ACTIVE:
            if team.players.on_roster().filter(number=player.number).exists():
                problems.append(_("Number %(n)s is already taken.") % {"n": player.number})
            player.left_at = None
        else:
            player.left_at = timezone.now()
        player.status = status
        changed += ["status", "left_at"]
    if problems:
        raise TeamRuleError(problems)
    if not (changed or add_skills or remove_skills):
        raise TeamRuleError([_("Nothing to correct.")])
    skill_notes = [f"+{catalogue[n.strip().lower()].name}" for n in add_skills] + [f"-{n}" for n in remove_skills]
    _with_reason(player, " ".join([note, *skill_notes]), by)
    player.save()  # always: the player's history shows the correction, skills included
    StatChange.objects.bulk_create(stat_rows)
    for name in add_skills:
        PlayerSkill.objects.create(
            player=player, skill=catalogue[name.strip().lower()], origin=PlayerSkill.Origin.CORRECTION, roll=note[:40]
        )
    player.gained_skills.filter(skill__name__in=list(remove_skills)).delete()
    return player
