"""A season set up by the board: its divisions and their teams, the stadiums' start (R16), the start."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.lib.writes import league_write
from league.models import Division, Ruleset, Season, SeasonEntry
from league.seasons.selectors import TEAMS_FIXED_BY
from league.seasons.services.base import (
    SeasonError,
    is_running,
    refuse_if_prematch_walked,
    refuse_teams_of_another_running_season,
)
from matches.models import Match
from teams.models import Stadium, Team


@dataclass(frozen=True)
class DivisionPlan:
    level: int
    name: str
    die: int
    teams: Sequence[Team]


def default_divisions(ruleset: Ruleset) -> list[tuple[int, str, int]]:
    """1st and 2nd division with the dice of R12 / R20 (D6, D5)."""
    dice = ruleset.rules.settings.division_dice
    return [(1, _("1st division"), dice.get("1", 6)), (2, _("2nd division"), dice.get("2", 5))]


@league_write
def create_season(
    *,
    name: str,
    ruleset: Ruleset,
    divisions: Sequence[DivisionPlan],
    first_with_stadium_rules: bool = False,
    previous: Season | None = None,
) -> Season:
    if not ruleset.is_published:
        raise SeasonError([_("A season is played under a published ruleset.")])
    if Season.objects.filter(name__iexact=name.strip()).exists():
        raise SeasonError([_("A season called %(name)s already exists.") % {"name": name}])
    seen: set[int] = set()
    for plan in divisions:
        for team in plan.teams:
            if team.pk in seen:
                raise SeasonError([_("%(team)s is in two divisions.") % {"team": team}])
            seen.add(team.pk)
    try:
        with transaction.atomic():
            season = Season.objects.create(
                name=name.strip(), ruleset=ruleset, first_with_stadium_rules=first_with_stadium_rules, previous=previous
            )
    except IntegrityError as exc:  # another board created it a moment ago
        raise SeasonError([_("A season called %(name)s already exists.") % {"name": name}]) from exc
    for plan in divisions:
        division = Division.objects.create(season=season, level=plan.level, name=plan.name, die=plan.die)
        SeasonEntry.objects.bulk_create(
            SeasonEntry(season=season, division=division, team=t, coach_id=t.coach_id) for t in plan.teams
        )
        start_stadiums(division, plan.teams)
    return season


def stadium_rules_in_force(season: Season) -> bool:
    """This season or one before it was the first with stadium rules."""
    while season is not None:
        if season.first_with_stadium_rules:
            return True
        season = season.previous
    return False


def start_stadiums(division: Division, teams: Sequence[Team]) -> None:
    """R16: when the stadium rules begin, teams in the 1st division start at 80,000 seats, the others
    at 60,000; a team founded later starts at the capacity of the division it enters. A stadium that is
    no longer at a start capacity (registered bigger, expanded, vandalised) is left as it is."""
    season = division.season
    if not stadium_rules_in_force(season):
        return
    r = season.ruleset.rules
    starts = {r.start_capacity(first_division=True), r.start_capacity(first_division=False)}
    capacity = r.start_capacity(first_division=division.level == 1)
    played_before = set(
        SeasonEntry.objects.filter(team__in=teams).exclude(season=season).values_list("team_id", flat=True)
    )
    for stadium in Stadium.objects.select_for_update().filter(team__in=teams).order_by("pk"):
        newcomer = stadium.team_id not in played_before
        at_start = stadium.capacity in starts and stadium.capacity != capacity
        if at_start and (season.first_with_stadium_rules or newcomer):
            stadium.capacity = capacity
            stadium._change_reason = "R16"
            stadium.save(update_fields=["capacity"])


@league_write
def set_division_teams(division: Division, teams: Sequence[Team]) -> None:
    """Change who plays in a division, until its first match is played."""
    division = Division.objects.select_for_update().get(pk=division.pk)
    if is_running(division.season):  # R43: a started season takes no team of another running one
        refuse_teams_of_another_running_season(
            division.season, _("The teams of the division cannot change."), team_ids=[t.pk for t in teams]
        )
    if division.matches.filter(status__in=TEAMS_FIXED_BY).exists():
        raise SeasonError([_("The division has played matches: its teams can no longer change.")])
    refuse_if_prematch_walked(
        division.matches.filter(status=Match.Status.SCHEDULED), _("The teams of the division cannot change.")
    )
    taken = SeasonEntry.objects.filter(season=division.season_id, team__in=teams).exclude(division=division)
    if taken.exists():
        raise SeasonError([_("%(team)s already plays in another division.") % {"team": taken.first().team}])
    division.entries.all().delete()
    SeasonEntry.objects.bulk_create(
        SeasonEntry(season=division.season, division=division, team=t, coach_id=t.coach_id) for t in teams
    )
    start_stadiums(division, teams)
    division.matches.filter(status=Match.Status.SCHEDULED).delete()


@league_write
def start_season(season: Season) -> Season:
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.status != Season.Status.PLANNED:
        raise SeasonError([_("Only a planned season can start.")])
    if not Match.objects.filter(season=season, division__isnull=False).exists():
        raise SeasonError([_("Generate the fixtures first.")])
    refuse_teams_of_another_running_season(season, _("The season cannot start."))
    season.status = Season.Status.RUNNING
    season.started_at = timezone.now()
    season.save(update_fields=["status", "started_at"])
    return season
