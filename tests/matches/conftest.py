import pytest
from django.utils import translation

from league.seasons import services
from tests.shared import shared_fixture


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


@shared_fixture
def league_match(season_with):
    """A scheduled 1st-division match between two Human teams (11 Linemen each; the home team has an
    apothecary)."""
    from matches.models import Match
    from teams.services import buy_apothecary

    season, _teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    services.generate_fixtures(division)
    match = Match.objects.filter(division=division).order_by("round", "pk").first()
    buy_apothecary(match.home, by=match.home.coach)
    match.home.refresh_from_db()
    return match


@shared_fixture
def ready_match(league_match):
    """The league match with its pre-match sequence walked (server dice, full squads): ready to report."""
    from matches import prematch as pm

    match = league_match
    for team in (match.home, match.away):
        pm.pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
    pm.roll_weather(match, entered=[3, 4], by=None)
    pm.set_tickets(match, ticket="ordinary", neutral=False, by=None)
    pm.roll_gate(match, home_dice=None, away_dice=None, by=None)
    pm.roll_handicap(match, by=None)
    match.refresh_from_db()
    return match
