"""The dice counted by kind and face for a team, a coach and a season (matches.dice_stats), typed and
rolled apart, in one query."""

import pytest

from matches.dice_stats import coach_rolls, dice_by_kind, season_rolls, team_rolls
from matches.models import DiceRoll
from tests import factories

pytestmark = pytest.mark.django_db


def _die(match, purpose, values, *, team=None, player=None, entered=False, sides=6, d66=False):
    return DiceRoll.objects.create(
        match=match,
        purpose=purpose,
        step="test",
        sides=sides,
        count=len(values),
        d66=d66,
        values=values,
        entered=entered,
        team=team,
        player=player,
    )


def _counts(kinds):
    """{(typed?, kind): {face: count}} with the faces never rolled left out, and what they were for."""
    return {(k.entered, k.kind): {f.face: f.observed for f in k.faces if f.observed} for k in kinds}, {
        (k.entered, k.kind): dict(k.uses) for k in kinds
    }


@pytest.fixture
def rolled(league_match):
    match = league_match
    home, away = match.home, match.away
    player = home.players.first()
    _die(match, "weather", [3, 4])  # the match's own: in the season, no team's
    _die(match, "fan_factor:h", [6], team=home)
    _die(match, "winnings:h", [6], team=home, entered=True)
    _die(match, "niggling:1", [2, 2, 5], team=home)  # three dice, each a D6
    _die(match, "development:1:0", [6, 6], team=home)
    _die(match, "serious_injury:1", [4, 1], player=player, d66=True)  # names the player, not the team
    _die(match, "gate:home", [5], team=home, sides=5, entered=True)
    _die(match, "fan_factor:a", [1], team=away)
    return match


def test_a_team_counts_its_own_and_its_players_dice_typed_and_rolled_apart(rolled):
    faces, uses = _counts(dice_by_kind(team_rolls(rolled.home_id)))
    assert faces == {
        (False, "D6"): {6: 1, 2: 2, 5: 1},
        (False, "2D6"): {12: 1},
        (False, "D66"): {41: 1},
        (True, "D6"): {6: 1},
        (True, "D5"): {5: 1},
    }
    assert uses[False, "D6"] == {"fan_factor": 1, "niggling": 1}
    assert uses[True, "D6"] == {"winnings": 1}


def test_the_kinds_come_server_first_d6_and_2d6_first(rolled):
    kinds = dice_by_kind(team_rolls(rolled.home_id))
    assert [(k.entered, k.kind) for k in kinds] == [
        (False, "D6"),
        (False, "2D6"),
        (False, "D66"),
        (True, "D6"),
        (True, "D5"),
    ]


def test_a_season_counts_every_die_of_its_matches_the_weather_too(rolled):
    faces, _uses = _counts(dice_by_kind(season_rolls(rolled.season_id)))
    assert faces[False, "2D6"] == {7: 1, 12: 1}
    assert faces[False, "D6"] == {6: 1, 2: 2, 5: 1, 1: 1}


def test_a_coach_counts_every_team_of_the_coach(rolled):
    home = rolled.home
    second = factories.human_team(home.coach, name="Second Team")
    _die(rolled, "fan_factor:second", [3], team=second)
    faces, _uses = _counts(dice_by_kind(coach_rolls(home.coach_id)))
    assert faces[False, "D6"] == {6: 1, 2: 2, 5: 1, 3: 1}
    assert (False, "D6") in _counts(dice_by_kind(team_rolls(second.pk)))[0]
    assert faces[True, "D6"] == {6: 1}


def test_shares_and_odds_of_each_face(rolled):
    (d6,) = [k for k in dice_by_kind(team_rolls(rolled.home_id)) if k.kind == "D6" and not k.entered]
    by_face = {f.face: f for f in d6.faces}
    assert [f.face for f in d6.faces] == [1, 2, 3, 4, 5, 6]
    assert by_face[2].observed_percent == pytest.approx(50.0)
    assert by_face[1].observed == 0 and by_face[1].expected_percent == pytest.approx(100 / 6)
    assert d6.fit.verdict == "too_few"


def test_one_query_whatever_the_number_of_rolls(rolled, django_assert_num_queries):
    for i in range(40):
        _die(rolled, f"niggling:{100 + i}", [1 + i % 6, 1 + (i * 5) % 6], team=rolled.home)
    with django_assert_num_queries(1):
        kinds = dice_by_kind(team_rolls(rolled.home_id))
    assert sum(k.fit.rolls for k in kinds) == 4 + 1 + 1 + 1 + 1 + 40
