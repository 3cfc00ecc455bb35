"""Small helpers to build users, teams, seasons and matches the way the league does (through the
services). Plain functions: the fixtures of tests/conftest.py return them, and a class's
`setUpTestData` calls them (tests/conftest.py, `set_up_test_data`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from league.accounts import BOARD, COACH, role_group
from league.models import Ruleset
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season, start_season
from matches.models import Match
from matches.prematch.chef import buy_chef_dice
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import roll_handicap
from teams import services
from teams.models import Position, Race, Team

PASSWORD = "correct-horse-battery-staple"


def race(name: str) -> Race:
    return Race.objects.get(name=name)


def position(race_name: str, name: str) -> Position:
    return Position.objects.get(race__name=race_name, name=name)


def big_guy(name: str) -> Position:
    return Position.objects.get(big_guy=True, name=name)


def user(username: str, *, board: bool = False, coach: bool = True, **extra):
    """A user with the password PASSWORD: a coach, or with `board` a board member (staff, in Styret)."""
    made = get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)
    if board:
        made.is_staff = True
        made.save(update_fields=["is_staff"])
        made.groups.add(role_group(BOARD))
    if coach:
        made.groups.add(role_group(COACH))
    return made


def teams(n: int, prefix: str = "Team") -> list[Team]:
    """n Human teams of 11 Linemen, each with its own coach."""
    human = race("Human")
    linemen = Position.objects.get(race=human, name="Lineman")
    return [
        services.create_team(
            coach=user(f"{prefix.lower()}coach{i}"), name=f"{prefix} {chr(65 + i)}", race=human, hires={linemen.pk: 11}
        )
        for i in range(n)
    ]


def season_with(first: int = 4, second: int = 3, name: str = "Season 1"):
    """A season of two divisions, `first` and `second` new teams (teams()), and the teams."""
    made = teams(first + second)
    season = create_season(
        name=name,
        ruleset=Ruleset.default(),
        divisions=[
            DivisionPlan(1, "1st division", 6, made[:first]),
            DivisionPlan(2, "2nd division", 5, made[first:]),
        ],
    )
    return season, made


def league_match():
    """A scheduled 1st-division match between two Human teams (11 Linemen each; the home team has an
    apothecary)."""
    season, _teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    match = Match.objects.filter(division=division).order_by("round", "pk").first()
    services.buy_apothecary(match.home, by=match.home.coach)
    match.home.refresh_from_db()
    return match


def ready_match(match=None):
    """The league match (league_match(), or `match`) with its pre-match sequence walked (server dice,
    full squads): ready to report."""
    match = match or league_match()
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=None, away_dice=None, by=None)
    roll_handicap(match, by=None)
    match.refresh_from_db()
    return match


def human_team(coach, name: str = "Torshov Trolls", **extra) -> Team:
    """11 Humans: 7 Linemen, 2 Catchers, 1 Thrower, 1 Blitzer = 350,000 + 140,000 + 70,000 + 90,000 = 650,000."""
    hires = {
        position("Human", "Lineman").pk: 7,
        position("Human", "Catcher").pk: 2,
        position("Human", "Thrower").pk: 1,
        position("Human", "Blitzer").pk: 1,
    }
    return services.create_team(coach=coach, name=name, race=race("Human"), hires=hires, **extra)


def halflings_against_humans(
    home_coach,
    away_coach,
    *,
    names: tuple[str, str] = ("Hobbits", "Humans"),
    season_name: str = "S",
    division_name: str = "1",
    start: bool = False,
    chef_dice: int = 0,
):
    """A league match of 12 Linehobbits (a Master Chef, R39) against 11 Human Linemen with 2 re-rolls,
    walked through the pre-match sequence: nice weather, ordinary tickets, handicap rolls that touch no
    re-roll, and `chef_dice` Master Chef dice bought. The live log's tests and its browser test play it."""
    hobbits = position("Halfling", "Linehobbit")
    linemen = position("Human", "Lineman")
    home = services.create_team(coach=home_coach, name=names[0], race=hobbits.race, hires={hobbits.pk: 12})
    away = services.create_team(coach=away_coach, name=names[1], race=linemen.race, hires={linemen.pk: 11}, rerolls=2)
    season = create_season(
        name=season_name,
        ruleset=Ruleset.default(),
        divisions=[DivisionPlan(1, division_name, 6, [home, away])],
    )
    division = season.divisions.get()
    generate_fixtures(division)
    if start:
        start_season(season)
    match = Match.objects.filter(division=division, home=home).order_by("round", "pk").first()
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
    roll_weather(match, entered=[3, 4], by=None)  # 7: nice weather
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=None, away_dice=None, by=None)
    roll_handicap(match, entered=[33, 35, 51, 53, 55, 21, 23, 31], by=None)  # none touches the re-rolls
    buy_chef_dice(match, match.home, count=chef_dice, by=match.home.coach)
    match.refresh_from_db()
    return match
