"""The season in the admin (R43): its status and dates move only through its own buttons (the start and
the season end check that a team runs in one season at a time), and its ruleset is fixed once it has
begun (a season is played under one version)."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Ruleset, Season
from league.seasons import services

pytestmark = pytest.mark.django_db


def admin_page(board, season: Season) -> str:
    client = Client()
    client.force_login(board)
    response = client.get(reverse("admin:league_season_change", args=[season.pk]))
    assert response.status_code == 200
    return response.content.decode()


def a_season(teams) -> Season:
    plan = [services.DivisionPlan(1, "1. divisjon", 6, teams)]
    return services.create_season(name="Høst", ruleset=Ruleset.default(), divisions=plan)


def test_a_planned_season_keeps_its_ruleset_open_and_its_status_to_the_buttons(make_teams, board_member):
    html = admin_page(board_member, a_season(make_teams(2)))
    assert 'name="ruleset"' in html
    assert 'name="status"' not in html and 'name="started_at"' not in html and 'name="ended_at"' not in html


def test_a_begun_season_shows_its_status_and_ruleset_without_a_field_r43(make_teams, board_member):
    season = a_season(make_teams(2))
    services.generate_fixtures(season.divisions.get())  # its first match: it has begun (R43), not yet started
    html = admin_page(board_member, season)
    assert 'name="ruleset"' not in html and 'name="status"' not in html
    assert Ruleset.default().name in html  # shown, read only
