"""What anonymous visitors get is what the league publishes on paper: results, rosters, TR. Coaches'
usernames and the treasuries are for logged-in members, unless the board publishes them (issue 14)."""

import pytest
from django.urls import reverse

from tests.factories import human_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(make_user):
    coach = make_user("kari_nordmann", first_name="Kari", last_name="Nordmann")
    return human_team(coach, rerolls=3, fan_factor=5)


@pytest.fixture
def member(make_user):
    return make_user("medlem", coach=False)  # logged in, in no group: a member all the same


def test_anonymous_api_has_rosters_and_tr_but_no_coach_or_treasury(client, team):
    listed = client.get(reverse("api_teams")).json()["teams"]
    assert [(t["name"], t["race"], t["fan_factor"]) for t in listed] == [("Torshov Trolls", "Human", 5)]
    assert "coach" not in listed[0] and "treasury" not in listed[0]
    sheet = client.get(reverse("api_team", args=[team.pk])).json()
    assert "coach" not in sheet and "treasury" not in sheet
    assert sheet["team_rating"] > 0 and len(sheet["players"]) == 11 and sheet["rerolls"] == 3
    assert "kari_nordmann" not in client.get(reverse("api_teams")).content.decode()


def test_members_get_the_coach_and_the_treasury(client, team, member):
    client.force_login(member)
    listed = client.get(reverse("api_teams")).json()["teams"]
    assert listed[0]["coach"] == "kari_nordmann" and "treasury" in listed[0]
    sheet = client.get(reverse("api_team", args=[team.pk])).json()
    assert sheet["coach"] == "kari_nordmann" and "treasury" in sheet


def test_anonymous_pages_show_the_roster_without_coach_or_treasury(client, team):
    for url in (reverse("teams"), reverse("team", args=[team.pk])):
        html = client.get(url).content.decode()
        assert "Torshov Trolls" in html, url
        assert "kari_nordmann" not in html and "Kari Nordmann" not in html, url
        assert "Treasury" not in html, url
    assert reverse("team_ledger", args=[team.pk]) not in client.get(reverse("team", args=[team.pk])).content.decode()


def test_the_ledger_sends_anonymous_visitors_to_log_in(client, team, member):
    url = reverse("team_ledger", args=[team.pk])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(member)
    assert client.get(url).status_code == 200


def test_members_see_coach_and_treasury_on_the_pages(client, team, member):
    client.force_login(member)
    assert "Kari Nordmann" in client.get(reverse("teams")).content.decode()  # named, not by her username
    html = client.get(reverse("team", args=[team.pk])).content.decode()
    assert "Kari Nordmann" in html and "Treasury" in html


def test_the_board_may_publish_them_in_a_setting(client, team, settings):
    settings.PUBLIC_TEAM_DETAILS = True
    assert client.get(reverse("api_teams")).json()["teams"][0]["coach"] == "kari_nordmann"
    assert "Kari Nordmann" in client.get(reverse("team", args=[team.pk])).content.decode()
    assert client.get(reverse("team_ledger", args=[team.pk])).status_code == 200


def test_who_filed_a_report_is_for_members(client, season_with, member):
    from league.seasons.services.fixtures import generate_fixtures
    from matches.models import Match

    season, _ = season_with(2, 2)
    generate_fixtures(season.divisions.get(level=1))
    match = Match.objects.filter(season=season).first()
    Match.objects.filter(pk=match.pk).update(
        filed_by=match.home.coach, status=Match.Status.REPORTED, home_score=1, away_score=0
    )
    username = match.home.coach.get_username()
    assert username not in client.get(match.get_absolute_url()).content.decode()
    client.force_login(member)
    assert username in client.get(match.get_absolute_url()).content.decode()
