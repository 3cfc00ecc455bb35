"""The demo league a newcomer sees on `make run` (issues 5 and 7)."""

import pytest
from django.core.management import call_command

from league.models import Cup, Season
from matches.models import Match, PostMatch, PreMatch
from teams.models import Team

pytestmark = pytest.mark.django_db


def test_seed_demo_builds_a_living_league_through_the_services():
    call_command("seed_demo", "--rounds", "2")
    season = Season.objects.get(status="running")
    assert Team.objects.count() == 13
    assert [d.entries.count() for d in season.divisions.order_by("level")] == [7, 6]
    assert len({t.race_id for t in Team.objects.all()}) == 13
    assert Cup.objects.filter(season=season).exists()
    played = Match.objects.filter(season=season, status="confirmed")
    assert played.count() >= 6 + 5  # two league rounds (6 + 6 with a bye in the 1st division) and the cup
    for match in played:
        assert PreMatch.objects.get(match=match).done == PreMatch.Step.MASTER_CHEF
        assert PostMatch.objects.filter(match=match, done=PostMatch.Step.TEAM_RATING).count() == 2
    assert Match.objects.filter(season=season, status="scheduled").exists()  # fixtures still to play
    call_command("seed_demo", "--if-empty")  # a second run on a league leaves it alone
    assert Team.objects.count() == 13
