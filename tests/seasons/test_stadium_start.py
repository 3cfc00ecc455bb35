"""R16: the stadium rules begin with 80,000 seats in the 1st division and 60,000 elsewhere; a team
founded later starts at the capacity of the division it enters (RULINGS, answers)."""

import pytest

from league.models import Ruleset
from league.seasons.services.setup import DivisionPlan, create_season, set_division_teams
from teams.models import Stadium
from teams.services import expand_stadium

pytestmark = pytest.mark.django_db


def seats(team) -> int:
    return Stadium.objects.get(team=team).capacity


def season(name, first, second, *, stadium_rules=False, previous=None):
    return create_season(
        name=name,
        ruleset=Ruleset.default(),
        divisions=[
            DivisionPlan(1, "1st division", 6, first),
            DivisionPlan(2, "2nd division", 5, second),
        ],
        first_with_stadium_rules=stadium_rules,
        previous=previous,
    )


def test_the_first_stadium_season_starts_the_1st_division_at_80_000(make_teams):
    teams = make_teams(5)
    assert {seats(t) for t in teams} == {60_000}  # as founded
    season("S1", teams[:3], teams[3:], stadium_rules=True)
    assert [seats(t) for t in teams] == [80_000, 80_000, 80_000, 60_000, 60_000]
    # R16: a step costs half the current capacity, rounded down to whole thousands
    assert expand_stadium(teams[0], steps=1, by=None) == 40_000
    assert expand_stadium(teams[3], steps=1, by=None) == 30_000


def test_a_season_before_the_stadium_rules_changes_nothing(make_teams):
    teams = make_teams(4)
    season("S0", teams[:2], teams[2:])
    assert {seats(t) for t in teams} == {60_000}


def test_a_team_founded_later_starts_at_its_divisions_capacity(make_teams):
    old = make_teams(4)
    first = season("S1", old[:2], old[2:], stadium_rules=True)
    newcomers = make_teams(2, prefix="New")
    # the next season: a 2nd-division team goes up, keeps its 60,000; the newcomers enter both divisions
    season("S2", [old[0], old[2], newcomers[0]], [old[1], old[3], newcomers[1]], previous=first)
    assert [seats(t) for t in old] == [80_000, 80_000, 60_000, 60_000]
    assert [seats(t) for t in newcomers] == [80_000, 60_000]


def test_the_board_moving_teams_before_play_in_the_first_stadium_season(make_teams):
    teams = make_teams(4)
    s1 = season("S1", teams[:2], teams[2:], stadium_rules=True)
    late = make_teams(1, prefix="Late")[0]
    set_division_teams(s1.divisions.get(level=1), [teams[0], teams[1], late])
    assert seats(late) == 80_000
    set_division_teams(s1.divisions.get(level=2), [teams[2]])
    set_division_teams(s1.divisions.get(level=1), [teams[0], teams[1], late, teams[3]])
    assert seats(teams[3]) == 80_000  # still at a start capacity: the 1st division's (R16)
