"""The board's forms and the league's query strings answer bad input with a message, never a 500
(issue 10): errors beside the field with what was typed, nothing saved."""

import pytest
from django.urls import reverse

from league.lib.inputs import query_id
from league.models import Cup, Season
from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("value", "expected"),
    [("12", 12), ("²", None), ("١٢", None), ("-1", None), ("1" * 40, None), ("", None), (None, None), ("1\x00", None)],
)
def test_query_id_takes_ascii_digits_only(value, expected):
    assert query_id(value) == expected


@pytest.mark.parametrize("season", ["%C2%B2", "abc", "%00", "9" * 40])
def test_standings_with_a_season_that_is_not_an_id_is_404(client, season):
    assert client.get(f"{reverse('standings')}?season={season}").status_code == 404


def test_standings_without_a_season_show_the_current_one(client, season_with):
    season, _teams = season_with(2, 2)
    assert client.get(reverse("standings")).status_code == 200
    assert client.get(f"{reverse('standings')}?season={season.pk}").status_code == 200
    assert client.get(f"{reverse('standings')}?season=99999999").status_code == 404


def test_division_teams_ignore_ids_that_are_not_numbers(client, board_member, season_with):
    season, teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    client.force_login(board_member)
    url = reverse("season_division_teams", args=[season.pk, division.pk])
    ids = [str(teams[0].pk), str(teams[1].pk), "²", "9" * 40, "x\x00"]
    assert client.post(url, {"teams": ids}).status_code == 302
    assert set(division.entries.values_list("team_id", flat=True)) == {teams[0].pk, teams[1].pk}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"start": "9999-12-31", "days_between": "14"}, "Choose a date until 2199-12-31."),
        ({"start": "99999-01-01", "days_between": "14"}, "Enter a valid date."),
        ({"start": "1066-10-14", "days_between": "14"}, "Choose a date from 2000-01-01."),
        ({"start": "", "days_between": "9" * 30}, "less than or equal to 60"),
    ],
)
def test_fixture_generation_refuses_dates_that_would_overflow_r31(client, board_member, season_with, data, message):
    season, _teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    client.force_login(board_member)
    response = client.post(reverse("season_fixtures", args=[season.pk, division.pk]), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert message in html and f'value="{data["start"]}"' in html if data["start"] else message in html
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"round": "100"}, "less than or equal to 99"),
        ({"round": "1", "date": "9999-12-31"}, "Choose a date until 2199-12-31."),
        ({"round": "1", "home": "²"}, "Select a valid choice"),
    ],
)
def test_adding_a_fixture_shows_errors_beside_the_fields(client, board_member, season_with, data, message):
    season, teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    client.force_login(board_member)
    post = {"home": teams[0].pk, "away": teams[1].pk, **data}
    response = client.post(reverse("season_add_fixture", args=[season.pk, division.pk]), post)
    assert response.status_code == 422 and message in response.content.decode()
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"prize": "9" * 30}, "less than or equal to 10000000"),
        ({"prize": "-5"}, "greater than or equal to 0"),
        ({"name": "C" * 81}, "at most 80 characters"),
        ({"name": "Cu\x00p"}, "Null characters are not allowed."),
        ({"order": "Nobody\nTeam A"}, "Not a chosen cup team: Nobody"),
    ],
)
def test_the_cup_draw_shows_errors_beside_the_fields_r34(client, board_member, season_with, data, message):
    season, teams = season_with(2, 2)
    client.force_login(board_member)
    post = {"name": "Cup", "prize": "0", "teams": [t.pk for t in teams], "order": "", **data}
    response = client.post(reverse("cup_draw", args=[season.pk]), post)
    assert response.status_code == 422 and message in response.content.decode()
    assert not Cup.objects.exists() and not Match.objects.filter(cup__isnull=False).exists()


@pytest.mark.parametrize(("name", "message"), [("S" * 81, "at most 80 characters"), ("S\x00", "Null characters")])
def test_season_creation_refuses_long_names(client, board_member, name, message):
    from league.models import Ruleset

    client.force_login(board_member)
    response = client.post(reverse("season_create"), {"name": name, "ruleset": Ruleset.default().pk})
    assert response.status_code == 422 and message in response.content.decode()
    assert not Season.objects.exists()


def test_a_team_that_is_not_a_choice_is_named_beside_the_division(client, board_member):
    from league.models import Ruleset

    client.force_login(board_member)
    data = {"name": "S", "ruleset": Ruleset.default().pk, "division_1": ["²"], "division_2": ["9" * 40]}
    response = client.post(reverse("season_create"), data)
    html = response.content.decode()
    assert response.status_code == 422 and html.count("errorlist") >= 2 and "is not a valid value" in html
    assert 'value="S"' in html and not Season.objects.exists()


@pytest.mark.parametrize("day", ["9999-12-31", "1999-12-31", "99999-01-01"])
def test_moving_a_fixture_refuses_a_date_outside_the_league(day):
    from league.seasons.forms import MoveFixtureForm

    form = MoveFixtureForm({"round": "1", "date": day})
    assert not form.is_valid() and "date" in form.errors
    assert MoveFixtureForm({"round": "1", "date": "2027-05-01"}).is_valid()
