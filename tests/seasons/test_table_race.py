"""The season page's table race (issue 40): each division's position of each team after each round, as the
rules rank the confirmed results of that round and the rounds before (R31), ending where the kept table
stands; a voided match moves it; the season page reads nothing more for it."""

import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import rules
from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match
from matches.report.confirmation import void_match
from tests.html_tables import table_rows
from tests.results import record_result

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(season_with, board_member):
    """Two divisions (four teams and three), three rounds of each played with scores from a seeded die."""
    season, _teams = season_with(4, 3)
    die = random.Random(40)
    for division in season.divisions.all():
        generate_fixtures(division)
    for match in Match.objects.filter(season=season, round__lte=3).order_by("round", "pk"):
        record_result(match, home_score=die.randint(0, 3), away_score=die.randint(0, 3), by=board_member)
    return season


def expected_race(division) -> dict[str, list[int]]:
    """Each team's position after each round, from the confirmed matches read here, ranked by the rules."""
    r = division.season.ruleset.rules
    teams = dict(division.season.entries.filter(division=division).values_list("team_id", "team__name"))
    confirmed = Match.objects.filter(division=division, status=Match.Status.CONFIRMED)
    last = max(confirmed.values_list("round", flat=True))
    race = {name: [] for name in teams.values()}
    for n in range(1, last + 1):
        results = [
            rules.Result(*row)
            for row in confirmed.filter(round__lte=n).values_list(
                "home_id", "away_id", "home_score", "away_score", "home_casualties", "away_casualties"
            )
        ]
        for line in r.standings(list(teams), results):
            race[teams[line.team]].append(line.position)
    return race


def shown_race(html: str, division_name: str) -> dict[str, list[int]]:
    """The race's table of the division, as a reader finds it under the chart: each team's positions."""
    tag = '<table class="compact race-table">'
    for part in html.split(tag)[1:]:
        if f"{division_name}:" in part.split("</caption>")[0]:
            rows = table_rows(tag + part.split("</table>")[0] + "</table>", "race-table")[1:]
            return {row.cells[0].text: [int(c.text) for c in row.cells[1:]] for row in rows}
    raise AssertionError(f"no race of {division_name}")


def test_each_division_races_round_by_round_to_its_table(client, season):
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    for division in season.divisions.order_by("level"):
        race = shown_race(html, division.name)
        assert race == expected_race(division)
        assert all(len(positions) == 3 for positions in race.values())
        standings = {
            row.cells[1].text.rsplit(" ", 1)[0]: int(row.cells[0].text.rstrip("="))
            for row in table_rows(html, "standings")
            if row.cells and row.cells[0].text[:1].isdigit()
        }
        assert {name: positions[-1] for name, positions in race.items()} == {
            name: standings[name] for name in race
        }  # the race ends where the kept table stands


def test_a_voided_match_moves_the_race(client, season, board_member):
    division = season.divisions.get(level=1)
    before = shown_race(client.get(reverse("season", args=[season.pk])).content.decode(), division.name)
    void_match(Match.objects.filter(division=division, round=1).order_by("pk").first(), by=board_member)
    after = shown_race(client.get(reverse("season", args=[season.pk])).content.decode(), division.name)
    assert after == expected_race(division) != before


def test_no_race_is_drawn_before_a_match_is_played(client, season_with):
    season, _teams = season_with(4, 3)
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    assert "race-table" not in html and "chart--race" not in html


def test_the_race_reads_nothing_the_season_page_does_not_read_already(client, season):
    """The race is ranked from the season's fixtures, which the page reads for its results by round."""
    url = reverse("season", args=[season.pk])
    client.get(url)
    cache.clear()
    with CaptureQueriesContext(connection) as read:
        assert "chart--race" in client.get(url).content.decode()
    assert sum('"matches_match"' in q["sql"] for q in read) == 1, [q["sql"][:80] for q in read]
