"""Hypothesis feeds garbage to the board's season forms (issue 10): never a server error, and where the
form is refused nothing is written."""

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from league.models import Cup, Division, Season, SeasonEntry
from matches.models import Match
from teams.models import Team
from tests.fuzz import FUZZ, form_data, garbage

pytestmark = pytest.mark.django_db


def rows():
    return tuple(m.objects.count() for m in (Season, Division, SeasonEntry, Cup, Match))


def post_and_check(client, url, data):
    before = rows()
    response = client.post(url, data)
    assert response.status_code < 500
    if response.status_code != 302:  # not done: the form came back with its errors (422), nothing written
        assert rows() == before


@pytest.fixture
def season(season_with):
    return season_with(2, 2)[0]


def team_ids():
    ids = [str(pk) for pk in Team.objects.values_list("pk", flat=True)]
    return st.lists(st.one_of(st.sampled_from(ids), garbage.filter(lambda v: isinstance(v, str))), max_size=5)


@FUZZ
@given(data=form_data(["name", "prize", "order"]), teams=st.data())
def test_cup_draw_garbage(client, board_member, season, data, teams):
    client.force_login(board_member)
    data["teams"] = teams.draw(team_ids())
    post_and_check(client, reverse("cup_draw", args=[season.pk]), data)
    Cup.objects.all().delete()  # a drawn cup would refuse every later example
    Match.objects.filter(cup__isnull=False).delete()


@FUZZ
@given(data=form_data(["start", "days_between"]))
def test_fixture_generation_garbage(client, board_member, season, data):
    client.force_login(board_member)
    division = season.divisions.first()
    post_and_check(client, reverse("season_fixtures", args=[season.pk, division.pk]), data)


@FUZZ
@given(data=form_data(["round", "home", "away", "date"]))
def test_add_fixture_garbage(client, board_member, season, data):
    client.force_login(board_member)
    division = season.divisions.first()
    post_and_check(client, reverse("season_add_fixture", args=[season.pk, division.pk]), data)


@FUZZ
@given(data=form_data(["name", "ruleset", "first_with_stadium_rules"]), teams=st.data())
def test_season_creation_garbage(client, board_member, season, data, teams):
    client.force_login(board_member)
    data["division_1"] = teams.draw(team_ids())
    data["division_2"] = teams.draw(team_ids())
    post_and_check(client, reverse("season_create"), data)
