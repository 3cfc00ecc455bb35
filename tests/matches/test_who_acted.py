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


def test_a_coach_with_a_name_is_named_by_it_everywhere_members_read_who(rolled, other_coach):
    """A person is named by his full name, else his username (league.accounts.display_name): the report's
    "Levert av", the dice, the history, the date proposals' notices, the team page and list."""
    from django.utils import timezone

    from league.models import Notification
    from matches import scheduling
    from matches.playthrough import walk_prematch
    from matches.report.confirmation import confirm_report
    from matches.report.filing import ReportInput, file_report

    match, _board = rolled
    home, away = match.home.coach, match.away.coach
    for coach, (first, last) in ((home, ("Per", "Hansen")), (away, ("Gro", "Li"))):
        coach.first_name, coach.last_name = first, last
        coach.save()
    walk_prematch(match)
    file_report(match, ReportInput(home_score=1, away_score=0), by=home)
    confirm_report(match, by=away)
    client = Client()
    client.cookies["django_language"] = "nb"
    client.force_login(other_coach)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Levert av Per Hansen" in html and "Bekreftet av Gro Li." in html
    assert "Per Hansen" in dice_column(html) and f">{home.username}<" not in html
    assert "Per Hansen" in client.get(reverse("team", args=[match.home_id])).content.decode()
    assert "Per Hansen" in client.get(reverse("teams")).content.decode()
    coming = match.division.matches.filter(status="scheduled").exclude(pk=match.pk).first()
    when = timezone.now() + timezone.timedelta(days=3)
    assert coming.home.coach == away
    scheduling.propose_dates(coming, starts=[when.replace(minute=0, second=0, microsecond=0)], by=away)
    proposed = Notification.objects.filter(kind=Notification.Kind.DATE_PROPOSED).latest("pk")
    assert proposed.params["by"] == "Gro Li"  # the notice's "%(by)s proposes dates", not "annen_trener"


def test_display_name_is_the_full_name_else_the_username():
    from django.contrib.auth.models import User

    from league.accounts import display_name

    assert display_name(User(username="per", first_name="Per", last_name="Hansen")) == "Per Hansen"
    assert display_name(User(username="per", first_name=" ", last_name="")) == "per"
    assert display_name(None) == ""
