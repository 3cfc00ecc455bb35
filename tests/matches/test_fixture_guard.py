"""Regenerating fixtures or changing a division's teams never loses a walked pre-match (issue 11)."""

import pytest
from django.urls import reverse

from league.seasons.services.base import SeasonError
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import set_division_teams
from matches import dice
from matches.models import DiceRoll, HandicapDraw, Match, PreMatch, SquadEntry
from matches.prematch.opening import pick_squad

pytestmark = pytest.mark.django_db


def fixtures_of(match):
    return sorted(Match.objects.filter(division=match.division).values_list("pk", flat=True))


def test_a_picked_squad_stops_regeneration_and_division_changes(league_match):
    match = league_match
    before = fixtures_of(match)
    pick_squad(match, match.home, [p.pk for p in match.home.players.all()], by=match.home.coach)
    with pytest.raises(SeasonError) as err:
        generate_fixtures(match.division)
    assert "The fixtures cannot be regenerated." in err.value.messages
    assert "has begun" in err.value.messages[1]
    with pytest.raises(SeasonError):
        set_division_teams(match.division, [match.home, match.away])
    assert fixtures_of(match) == before and SquadEntry.objects.filter(match=match).count() == 11


def test_an_untouched_division_still_regenerates(league_match):
    # an unwalked pre-match row (an opened page made one before issue 24) is no record
    PreMatch.objects.create(match=league_match, ruleset=league_match.season.ruleset)
    created = generate_fixtures(league_match.division)
    assert len(created) == 2  # two teams, home and away (R31)


def drawn_handicap(match):
    d = dice.roll(match, "handicap:1", step="handicap", d66=True, entered=[1, 5], team=match.away)
    HandicapDraw.objects.create(match=match, team=match.away, index=1, key="x", name="x", effect="x", dice=d)


@pytest.mark.parametrize("url", ["season_fixtures", "season_division_teams"])
def test_a_drawn_handicap_gets_a_message_not_a_500(client, ready_match, board_member, url):
    match = ready_match
    drawn_handicap(match)
    before = (fixtures_of(match), DiceRoll.objects.filter(match=match).count())
    client.force_login(board_member)
    data = {"teams": [match.home_id, match.away_id]} if url == "season_division_teams" else {"days_between": 14}
    response = client.post(reverse(url, args=[match.season_id, match.division_id]), data, follow=True)
    # The fixtures' refusal comes back on their form, where the board clicked (422); the teams' is flashed.
    assert response.status_code == (422 if url == "season_fixtures" else 200)
    assert "has begun" in response.content.decode()
    assert (fixtures_of(match), DiceRoll.objects.filter(match=match).count()) == before
