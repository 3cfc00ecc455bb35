"""A team's roster ("Ditt Lag") and its treasury ledger as CSV files (issue 27): the sheet's columns
with Norwegian headers by default, the roster page's numbers, the ledger for whom its page is for,
amounts as plain integers, times in ISO 8601, a few queries whatever the team's size."""

import csv
import io
from datetime import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from teams import services
from teams.models import PlayerSkill, Skill, StatChange
from teams.selectors import ledger_entries, roster_sheet
from tests.factories import human_team, position
from tests.html_tables import table_rows

pytestmark = pytest.mark.django_db


def read_csv(response) -> list[list[str]]:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


@pytest.fixture
def team(coach):
    team = human_team(coach, name="Trøndelag Trolls", rerolls=2, fan_factor=3)
    blitzer = team.players.get(position__name="Blitzer")
    blitzer.ma_change, blitzer.niggling, blitzer.miss_matches = -1, 1, 1
    blitzer.casualties, blitzer.foul_casualties, blitzer.touchdowns, blitzer.mvps = 3, 2, 4, 1
    blitzer.save()
    StatChange.objects.create(player=blitzer, stat="MA", change=-1, reason=StatChange.Reason.INJURY)
    PlayerSkill.objects.create(player=blitzer, skill=Skill.objects.get(name="Dodge"), origin="development")
    return team


# --- the roster ----------------------------------------------------------------------------------


def test_roster_headers_are_the_sheets_in_norwegian_by_default_and_english_with_the_cookie(client, team):
    url = reverse("team_roster_csv", args=[team.pk])
    english = read_csv(client.get(url))[0]
    client.cookies.pop("django_language")
    nb = read_csv(client.get(url))[0]
    assert nb == [
        "Nummer", "Spillernavn", "Posisjon", "MA", "ST", "AG", "AV", "Skills", "Skader",
        "COM", "TD", "INT", "CAS", "Skader ved foul", "MVP", "SPP", "Skillpoeng", "Verdi",
    ]  # fmt: skip
    assert english[:3] == ["Number", "Player name", "Position"] and english[-2:] == ["Skill points", "Value"]


def test_roster_rows_are_the_sheets_lines_and_the_pages_numbers(client, team):
    client.cookies["django_language"] = "nb"
    rows = read_csv(client.get(reverse("team_roster_csv", args=[team.pk])))[1:]
    sheet = roster_sheet(team.pk)
    assert len(rows) == len(sheet.lines) == 11
    for row, line in zip(rows, sheet.lines, strict=True):
        p = line.player
        numbers = [int(row[i]) for i in (0, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17)]  # plain integers
        assert numbers == [
            p.number, p.ma, p.st, p.ag, p.av, p.completions, p.touchdowns, p.interceptions,
            p.casualties, p.foul_casualties, p.mvps, line.spp, line.skill_points, line.value,
        ]  # fmt: skip
        assert row[1:3] == [p.name, p.position.name]
        assert row[7] == ", ".join(line.skills) and row[8] == ", ".join(line.injuries)
    page = table_rows(client.get(reverse("team", args=[team.pk])).content.decode(), "roster-cards")
    blitzer = next(r for r in page if r.cells and r.cells[2].text == "Blitzer").texts()
    exported = next(r for r in rows if r[2] == "Blitzer")
    assert exported[:9] == [*blitzer[:1], blitzer[1], *blitzer[2:8], blitzer[8]]
    assert exported[8] == "1 NI, -1 MA, står over 1 kamp"
    assert blitzer[12] == f"{exported[12]}+{exported[13]}f"  # the sheet's "3+2f", two numbers here
    assert blitzer[16].replace(" ", "") == exported[17] == "90000"  # no thousands separator


def test_the_roster_file_name_spells_the_team_in_ascii(client, team):
    client.cookies.pop("django_language")
    response = client.get(reverse("team_roster_csv", args=[team.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="torshov-stall-trondelag-trolls.csv"'


def test_a_name_a_spreadsheet_would_run_as_a_formula_stays_text(client, team):
    team.players.filter(number=1).update(name='=HYPERLINK("http://x")')
    rows = read_csv(client.get(reverse("team_roster_csv", args=[team.pk])))
    assert rows[1][1] == '\'=HYPERLINK("http://x")'


def test_the_team_page_links_to_the_roster_file_for_everyone(client, team):
    html = client.get(reverse("team", args=[team.pk])).content.decode()
    assert f'href="{reverse("team_roster_csv", args=[team.pk])}" download' in html


def test_an_unknown_team_is_a_norwegian_404(client, coach):
    client.cookies.pop("django_language")
    client.force_login(coach)
    for name in ("team_roster_csv", "team_ledger_csv"):
        response = client.get(reverse(name, args=[99999]))
        assert response.status_code == 404 and "Fant ikke siden" in response.content.decode(), name


# --- the ledger ----------------------------------------------------------------------------------


@pytest.fixture
def spent(team, coach):
    """A few entries: the starting treasury, two purchases."""
    services.buy_reroll(team, by=coach)
    services.hire_player(team, position("Human", "Lineman"), name="Ny", number=None, by=coach)
    return team


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("another coach", 200), ("the team's coach", 200), ("the board", 200)],
)
def test_the_ledger_file_is_for_whom_the_ledger_page_is_for(
    client, spent, coach, other_coach, board_member, who, status
):
    user = {"anonymous": None, "another coach": other_coach, "the team's coach": coach, "the board": board_member}[who]
    if user is not None:
        client.force_login(user)
    page = client.get(reverse("team_ledger", args=[spent.pk]))
    response = client.get(reverse("team_ledger_csv", args=[spent.pk]))
    assert page.status_code == response.status_code == status
    if status == 302:
        assert response["Location"].startswith(reverse("login"))
        assert b"Trolls" not in response.content


def test_anonymous_visitors_get_the_ledger_file_when_the_board_publishes_the_ledgers(client, spent, settings):
    settings.PUBLIC_TEAM_DETAILS = True
    assert len(read_csv(client.get(reverse("team_ledger_csv", args=[spent.pk])))) == 1 + spent.ledger.count()


def test_the_ledger_rows_are_the_pages_entries_with_plain_amounts_and_iso_times(client, spent, coach):
    client.force_login(coach)
    client.cookies.pop("django_language")
    rows = read_csv(client.get(reverse("team_ledger_csv", args=[spent.pk])))
    assert rows[0] == ["#", "Når", "Hva", "Type", "Beløp", "Saldo", "Av"]
    entries = list(ledger_entries(spent))
    assert len(rows[1:]) == len(entries) == spent.ledger.count() > 3
    for row, entry in zip(rows[1:], entries, strict=True):
        assert int(row[0]) == entry.seq
        assert datetime.fromisoformat(row[1]) == timezone.localtime(entry.created_at).replace(
            microsecond=0, tzinfo=None
        )
        with translation.override("nb"):
            assert row[2] == entry.text  # in the reader's language, as on the page
        assert [int(row[4]), int(row[5])] == [entry.amount, entry.balance]  # e.g. -50000, no "gp"
    assert [int(r[0]) for r in rows[1:]] == list(range(len(entries), 0, -1))  # the newest first, as on the page
    assert rows[1][6] == coach.username and [rows[1][3], rows[-1][3]] == ["Kjøp", "Startkapital"]
    assert int(rows[2][4]) < 0 and int(rows[1][5]) == int(rows[2][5]) + int(rows[1][4])
    html = client.get(reverse("team_ledger", args=[spent.pk])).content.decode()
    assert f'href="{reverse("team_ledger_csv", args=[spent.pk])}" download' in html and "Last ned CSV" in html


@pytest.mark.parametrize("extra", [0, 5])
def test_the_files_read_a_few_queries_whatever_the_teams_size(client, coach, extra, django_assert_max_num_queries):
    team = human_team(coach, name="Big Roster")
    for _ in range(extra):
        services.hire_player(team, position("Human", "Lineman"), name="", number=None, by=coach)
    client.force_login(coach)
    for name in ("team_roster_csv", "team_ledger_csv"):
        client.get(reverse(name, args=[team.pk]))  # warm: the per-version catalogue
        # the session and the user, then the roster sheet's reads (as the team page's) or the ledger's one
        with django_assert_max_num_queries(7):
            read_csv(client.get(reverse(name, args=[team.pk])))
