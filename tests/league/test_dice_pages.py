"""The dice pages of a team, a coach and a season (league.views.dice): open to everyone, in Norwegian,
each kind's faces and the sentence of how unusual they fell."""

import itertools

import pytest
from django.urls import reverse

from matches.models import DiceRoll
from tests import factories
from tests.html_tables import table_rows

pytestmark = pytest.mark.django_db

TOO_FEW = "For få kast til å si noe (minst 5 forventet per side trengs)."
FAIR = "Terningene har falt som forventet."
_purposes = itertools.count()  # a purpose is rolled once per match (dice_once_per_purpose)


def _d6(match, team, faces, *, entered=False):
    rows = [
        DiceRoll(
            match=match, purpose=f"die:{next(_purposes)}", step="x", sides=6, values=[face], entered=entered, team=team
        )
        for face in faces
    ]
    DiceRoll.objects.bulk_create(rows)


def _page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


class TestTheDicePages:
    """A league match whose home team has rolled three D6 (too few), its away team sixty, ten of each face
    (built once for the class)."""

    @classmethod
    def setUpTestData(cls):
        cls.match = made = factories.league_match()
        _d6(made, made.home, [2, 5, 6])
        _d6(made, made.away, [face for face in range(1, 7) for _ in range(10)])

    def test_too_few_rolls_are_said_so(self, client):
        html = _page(client, reverse("team_dice", args=[self.match.home_id]))
        assert TOO_FEW in html and FAIR not in html
        assert "3 kast" in html

    def test_fair_dice_have_fallen_as_expected_and_each_face_is_in_the_table(self, client):
        html = _page(client, reverse("team_dice", args=[self.match.away_id]))
        assert FAIR in html and TOO_FEW not in html
        rows = [row.texts() for row in table_rows(html, "dice-faces")]
        assert rows[0] == ["Side", "Antall", "Andel", "Forventet"]
        assert rows[1:] == [[str(face), "10", "16,7 %", "16,7 %"] for face in range(1, 7)]
        assert 'role="img"' in html  # the chart, whose numbers are the table's

    def test_typed_dice_are_shown_apart_from_the_servers(self, client):
        _d6(self.match, self.match.away, [1] * 30, entered=True)  # a typed die that always shows 1
        html = _page(client, reverse("team_dice", args=[self.match.away_id]))
        rolled, typed = html.split("Skrevet inn ved bordet")
        assert FAIR in rolled
        assert "Svært uvanlig: så skjevt faller terningene i færre enn én av tusen serier." in typed
        assert "p &lt; 0,001" in typed and "p = 1,000" in rolled  # never a very unusual fit shown as p = 0

    def test_the_season_counts_both_teams(self, client):
        html = _page(client, reverse("season_dice", args=[self.match.season_id]))
        rows = [row.texts() for row in table_rows(html, "dice-faces")]
        assert [row[1] for row in rows[1:]] == ["10", "11", "10", "10", "11", "11"]

    def test_the_team_and_season_pages_link_their_dice(self, client):
        match = self.match
        assert reverse("team_dice", args=[match.home_id]) in _page(client, reverse("team", args=[match.home_id]))
        assert reverse("season_dice", args=[match.season_id]) in _page(client, match.season.get_absolute_url())

    @pytest.mark.parametrize("who", ["anonymous", "the team's coach", "another coach", "board"])
    def test_everyone_may_read_the_dice(self, client, board_member, who):
        match = self.match
        people = {"the team's coach": match.home.coach, "another coach": match.away.coach, "board": board_member}
        if who in people:
            client.force_login(people[who])
        for url in (
            reverse("team_dice", args=[match.home_id]),
            reverse("season_dice", args=[match.season_id]),
            reverse("coach_dice", args=[match.home.coach_id]),
        ):
            assert client.get(url).status_code == 200, url

    @pytest.mark.parametrize("name", ["team_dice", "season_dice", "coach_dice"])
    def test_unknown_is_not_found(self, client, name):
        assert client.get(reverse(name, args=[987654])).status_code == 404

    def test_an_account_without_a_team_has_no_dice_page(self, client, board_member):
        assert client.get(reverse("coach_dice", args=[board_member.pk])).status_code == 404

    def test_a_visitor_reads_the_coach_by_the_teams_never_the_username_or_address(self, client):
        coach = self.match.home.coach
        coach.first_name, coach.last_name, coach.email = "Kari", "Nordmann", "kari@example.org"
        coach.save()
        url = reverse("coach_dice", args=[coach.pk])
        html = _page(client, url)
        assert self.match.home.name in html and TOO_FEW in html
        assert coach.username not in html and "kari@example.org" not in html and "Nordmann" not in html
        client.force_login(self.match.away.coach)
        assert "Terningene til Kari Nordmann" in _page(client, url)

    def test_a_page_reads_a_few_queries_whatever_the_number_of_rolls(self, client, django_assert_max_num_queries):
        _d6(self.match, self.match.home, [1 + i % 6 for i in range(300)], entered=True)
        with django_assert_max_num_queries(3):  # the league version, the team, its dice
            _page(client, reverse("team_dice", args=[self.match.home_id]))
