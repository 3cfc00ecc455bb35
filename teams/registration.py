"""The board registers an existing team with its history (players, SPP, skills, treasury)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from league import rules
from league.lib.inputs import NAME_MAX
from league.lib.writes import league_write
from league.models import Ruleset
from league.rules.messages import N_, Msg
from league.rules.records import RECORD_COUNTERS
from teams.corrections import PLAYER_CORRECTABLE
from teams.ledger import ensure_not_done, lock_team, post_entry
from teams.models import Facility, Player, PlayerSkill, Position, Race, Skill, Stadium, StatChange, Team, TreasuryEntry
from teams.rosters import TeamRuleError, plural_name, problem_messages, race_positions, race_spec

# --- registering an existing team (the board) ---------------------------------------------------


def create_team_row(idempotency_key: str | None, **fields: Any) -> Team:
    """The team row; two writers founding the same name at once get "already done" (same form) or
    "already exists", never the database's error."""
    try:
        with transaction.atomic():
            return Team.objects.create(**fields)
    except IntegrityError as exc:
        ensure_not_done(idempotency_key)
        raise TeamRuleError([_("A team called %(name)s already exists.") % {"name": fields["name"]}]) from exc


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


def registration_problems(
    record: TeamRecord, race: Race, r: rules.Ruleset, *, positions: dict[str, Position], skills: dict[str, Skill]
) -> list[str]:
    """Every reason the record cannot be registered: its players against the race's positions, the
    skills and the stat limit, then the roster against `rules.roster_problems` (no creation budget)."""
    errors: list[str] = []
    if Team.objects.filter(name__iexact=record.name.strip()).exists():
        errors.append(_("A team called %(name)s already exists.") % {"name": record.name})
    counts: dict[int, int] = {}
    numbers: set[int] = set()
    for i, p in enumerate(record.players, start=1):
        where = _("Player %(i)s (#%(n)s %(name)s)") % {"i": i, "n": p.number, "name": p.name}
        position = positions.get(p.position.strip().lower())
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
        for stat in rules.STATS:
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
    return errors


@league_write
def register_team(
    record: TeamRecord, *, by: Any, ruleset: Ruleset | None = None, idempotency_key: str | None = None
) -> Team:
    """Enter a team as it stands today, without the creation budget but with every limit checked.
    The form's key goes on the registered treasury's line (written even at 0 then, as the first line)."""
    ensure_not_done(idempotency_key)
    ruleset = ruleset or Ruleset.default()
    r = ruleset.rules
    if "\x00" in record.race + record.name:
        raise TeamRuleError([_("A name cannot contain a null character.")])
    race = Race.objects.filter(name__iexact=record.race.strip()).first()
    if race is None:
        raise TeamRuleError([_("Unknown race: %(race)s.") % {"race": record.race}])
    own, big_guys = race_positions(race)
    # a position by its name, or by the plural a paper roster writes ("Lineorcs"): the name wins
    by_name = {plural_name(p.name).lower(): p for p in own + big_guys} | {p.name.lower(): p for p in own + big_guys}
    skills = {s.name.lower(): s for s in Skill.objects.all()}
    errors = registration_problems(record, race, r, positions=by_name, skills=skills)
    if errors:
        raise TeamRuleError(errors)
    team = create_team_row(
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
            description=Msg(N_("Treasury when registered")),
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
            **{c: getattr(p, c) for c in RECORD_COUNTERS},
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
        for stat in rules.STATS:
            change = getattr(p, stat.lower())
            if change:
                StatChange.objects.create(player=player, stat=stat, change=change, reason=StatChange.Reason.REGISTERED)
    return team
