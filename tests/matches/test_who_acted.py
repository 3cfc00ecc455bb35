"""Who rolled a die or changed a match: coaches' names are for members; anyone else reads the part
each played in the match, "hjemmetrener", "bortetrener", "styret" or "serveren" (issue 26)."""

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import DiceRoll
from tests.factories import league_match, user
from tests.html_tables import table_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def rolled():
    """A league match whose dice were rolled by each coach, the board and the server."""
    match = league_match()
    board = user("styreleder", board=True, coach=False)
    rollers = {"weather": match.home.coach, "gate:home": match.away.coach, "gate:away": board, "fame": None}
    for purpose, by in rollers.items():
        DiceRoll.objects.create(
            match=match, step="prematch", purpose=purpose, sides=6, count=2, values=[3, 4], rolled_by=by
        )
    return match, board


def dice_column(html: str) -> list[str]:
    """The dice table's "Av" (by) column, as a reader sees it."""
    rows = [row for row in table_rows(html, "dice-table") if row.cells and row.cells[0].attrs.get("class")]
    return [cell.text for row in rows for cell in row.cells if cell.attrs.get("data-label") == "Av"]


def test_anonymous_visitors_read_each_rollers_part_not_his_name(rolled):
    match, board = rolled
    html = Client().get(reverse("match", args=[match.pk])).content.decode()
    assert sorted(dice_column(html)) == ["bortetrener", "hjemmetrener", "serveren", "styret"]
    for name in (match.home.coach.username, match.away.coach.username, board.username):
        assert name not in html


def test_members_read_the_names(rolled, other_coach):
    match, board = rolled
    client = Client()
    client.force_login(other_coach)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    names = [match.home.coach.username, match.away.coach.username, board.username, "serveren"]
    assert sorted(dice_column(html)) == sorted(names)


def test_a_players_history_names_no_one_to_anonymous_visitors(rolled, other_coach):
    match, _board = rolled
    player = match.home.players.first()
    player.name = "Ola Nordmann"
    player._change_reason = "navn"
    player._history_user = match.home.coach
    player.save()
    page = reverse("player", args=[player.pk])
    assert match.home.coach.username not in Client().get(page).content.decode()
    client = Client()
    client.force_login(other_coach)
    assert match.home.coach.username in client.get(page).content.decode()
