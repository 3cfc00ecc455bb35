"""The front page's form guide (issue 40): each team of the shown tables with its last five results, the
oldest first, as its confirmed matches read here say; a voided match leaves it."""

import re

import pytest
from django.urls import reverse

from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match
from matches.report.confirmation import void_match
from tests.results import record_result

pytestmark = pytest.mark.django_db

SCORES = [(2, 1), (1, 1), (0, 2), (3, 0), (1, 2), (2, 2)]  # a round's home and away score, round by round


@pytest.fixture
def season(season_with, board_member):
    """Two divisions (four teams and three), every round of the first played (six: each team's first match
    falls off its five), three of the second."""
    season, _teams = season_with(4, 3)
    for division in season.divisions.all():
        generate_fixtures(division)
    for match in Match.objects.filter(season=season).order_by("round", "pk"):
        if match.division.level == 1 or match.round <= 3:
            home, away = SCORES[match.round - 1]
            record_result(match, home_score=home, away_score=away, by=board_member)
    return season


def expected_form(team_id: int) -> list[str]:
    played = Match.objects.filter(status=Match.Status.CONFIRMED).for_team(team_id).order_by("confirmed_at", "pk")
    outcomes = []
    for m in played:
        own, other = (m.home_score, m.away_score) if m.home_id == team_id else (m.away_score, m.home_score)
        outcomes.append("win" if own > other else "loss" if own < other else "draw")
    return outcomes[-5:]


def shown_form(html: str) -> dict[int, list[str]]:
    guide = html.split('class="card form-guide"')[1].split("</section>")[0]
    rows = re.findall(r'<tr><th scope="row"><a href="/teams/(\d+)/">.*?</tr>', guide, re.S)
    found = {}
    for row in re.finditer(r'<tr><th scope="row"><a href="/teams/(\d+)/">(.*?)</tr>', guide, re.S):
        found[int(row.group(1))] = re.findall(r"form-strip__result--(\w+)", row.group(2))
    assert len(found) == len(rows)
    return found


def test_each_team_shows_its_last_five_results_oldest_first(client, season):
    shown = shown_form(client.get(reverse("home")).content.decode())
    teams = list(season.entries.values_list("team_id", flat=True))
    assert set(shown) == set(teams)  # both divisions are shown on the front page
    assert {pk: expected_form(pk) for pk in teams} == shown
    # six played in the first division; two in the second's three rounds, three teams with a bye a round
    assert {len(form) for form in shown.values()} == {5, 2}


def test_a_voided_match_leaves_the_form_guide(client, season, board_member):
    last = Match.objects.filter(season=season, division__level=1).order_by("-confirmed_at", "-pk").first()
    before = shown_form(client.get(reverse("home")).content.decode())
    void_match(last, by=board_member)
    after = shown_form(client.get(reverse("home")).content.decode())
    assert after[last.home_id] == expected_form(last.home_id) != before[last.home_id]
    assert len(after[last.home_id]) == 5  # its first match is back among its last five


def test_the_legend_says_the_guide_counts_the_cup_and_the_last_season_too(client, season):
    """The table beside it counts this season's league matches only: the guide's five may hold a cup
    match and the last season's, and says so (the walk of the new pages)."""
    client.cookies["django_language"] = "nb"
    guide = client.get(reverse("home")).content.decode().split('class="card form-guide"')[1].split("</section>")[0]
    assert "Hvert lags fem siste kamper i liga og cup, også fra forrige sesong, den eldste først" in guide
    assert "S seier, U uavgjort, T tap" in guide


def test_a_phone_hides_the_tables_difference_column_so_the_points_stay_on_screen(client, season):
    """An ended season's table in its card was 18 px wider than a 390 px phone, the points cut off:
    the difference (the TD column has both numbers) and CAS give way on a narrow screen, the points stay."""
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    table = html.split('class="compact standings"')[1].split("</table>")[0]
    head = re.findall(r"<th ([^>]*)>(.*?)</th>", table.split("</thead>")[0], re.S)
    hidden = [text for attrs, text in head if "hide-narrow" in attrs]
    assert hidden == ["+/\u2212", "CAS"]  # the minus sign
    assert table.count('<td class="num hide-narrow">') == 2 * table.count("<tr") - 2  # each row's two
