"""The roster sheet ("Ditt Lag"), the player page and the JSON API (issue 4)."""

import json

import pytest
from django.urls import reverse

from teams import services
from teams.models import Player
from teams.selectors import roster_sheet
from tests.conftest import has_amount
from tests.factories import human_team, position
from tests.html_tables import list_items, table_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(coach):
    return human_team(coach, rerolls=3, fan_factor=5, assistant_coaches=2, cheerleaders=3, apothecary=True)


def test_sheet_team_rating_follows_r1_to_r4(team):
    # Give the players of EXAMPLES.md their SPP: Thrower 33, Blitzer 18; a Lineman is out injured.
    Player.objects.filter(team=team, position__name="Thrower").update(completions=33)
    Player.objects.filter(team=team, position__name="Blitzer").update(touchdowns=6)
    injured = team.players.filter(position__name="Lineman").first()
    injured.miss_matches = 2
    injured.save()
    sheet = roster_sheet(team.pk)
    # squad: 6 Linemen 300,000 + 2 Catchers 140,000 + Thrower 70,000 + Blitzer 90,000 = 600,000
    # + 150,000 re-rolls + 50,000 FF + 20,000 AC + 60,000 cheerleaders + 50,000 apothecary = 930,000 → 93
    # skill points: 33 SPP → 6, 18 SPP → 3 (R4): TR 102
    assert sheet.team_rating.value == 102
    assert sheet.treasury == 20_000
    line = next(line for line in sheet.lines if line.player.pk == injured.pk)
    assert line.injuries == ["misses 2 matches"] and not line.available


def test_sheet_columns_and_panel_are_shown(client, team):
    html = client.get(reverse("team", args=[team.pk])).content.decode()
    for column in ("NR", "MA", "ST", "AG", "AV", "INJ", "COM", "TD", "INT", "CAS", "MVP", "SPP", "SK. P."):
        assert f">{column}</th>" in html
    assert "Catch, Dodge" in html  # starting skills of the Human Catchers
    assert has_amount(html, 20_000)


def test_a_roster_row_shows_the_player_as_the_sheet_has_him(client, team):
    """Every cell of a player's row as the reader sees it, in Norwegian: stats with the injury's
    change marked, starting and gained skills, injuries (R36 niggling, MA -1, matches to miss), the
    casualties by block and by foul, SPP (R28) and skill points (R4), the value; a name with markup
    is text. The phone's player cards read each cell's data-label."""
    from teams.models import PlayerSkill, Skill, StatChange

    blitzer = team.players.get(position__name="Blitzer")
    blitzer.name = 'Bo <b>"Hammer"</b> & Co'
    blitzer.ma_change, blitzer.niggling, blitzer.miss_matches = -1, 1, 1
    blitzer.casualties, blitzer.foul_casualties, blitzer.touchdowns, blitzer.mvps = 3, 2, 4, 1
    blitzer.mutation_choice_pending = True
    blitzer.save()
    StatChange.objects.create(player=blitzer, stat="MA", change=-1, reason=StatChange.Reason.INJURY)
    PlayerSkill.objects.create(player=blitzer, skill=Skill.objects.get(name="Dodge"), origin="development")
    client.cookies["django_language"] = "nb"
    rows = table_rows(client.get(reverse("team", args=[team.pk])).content.decode(), "roster-cards")
    row = next(r for r in rows if r.cells and r.cells[1].links == [reverse("player", args=[blitzer.pk])])
    # SPP: 4 TD × 3 + 3 casualties by block × 2 + 2 by foul × 1 + 1 MVP × 5 = 25 (R28); 16–30 SPP: 3 (R4)
    assert row.texts() == [
        str(blitzer.number), 'Bo <b>"Hammer"</b> & Co mutasjon å velge', "Blitzer",
        "6", "3", "3", "8", "Block, Dodge", "1 NI, -1 MA, står over 1 kamp",
        "0", "4", "0", "3+2f", "1", "25", "3", "90 000",  # a no-break space between the thousands
    ]  # fmt: skip
    assert row.attrs == {"class": "unavailable"}  # he misses the next match
    assert [c.attrs.get("data-label") for c in row.cells[3:7]] == ["MA", "ST", "AG", "AV"]
    assert [c.attrs["class"] for c in row.cells[3:5]] == ["num stat changed", "num stat"]
    assert row.cells[12].attrs["title"] == "ved block 3, ved foul 2"
    assert row.cells[16].attrs["data-label"] == "Verdi"


@pytest.mark.parametrize("extra", [0, 5])
def test_roster_page_and_api_use_a_fixed_number_of_queries(client, coach, extra, django_assert_max_num_queries):
    team = human_team(coach, name="Big Roster")  # 350,000 left; 7 Linemen of 12
    for _ in range(extra):
        services.hire_player(team, position("Human", "Lineman"), name="", number=None, by=coach)
    if extra:
        services.buy_facility(team, "kiosk", by=coach)
    assert team.players.on_roster().count() == 11 + extra
    client.force_login(coach)
    # 11 (the team, its facilities, players, gained skills, injuries, starting skills, coming matches, its
    # matches for the charts, the session and user, the roles), and in the member's nav what waits for him:
    # his list (7, whatever the league's size) and his notices (1)
    with django_assert_max_num_queries(19):
        assert client.get(reverse("team", args=[team.pk])).status_code == 200
    with django_assert_max_num_queries(9):
        assert client.get(reverse("api_team", args=[team.pk])).status_code == 200


@pytest.mark.django_db(transaction=True)  # committed writes: a league version, as in production
def test_team_page_lists_the_facilities_in_the_order_bought(client, coach, django_assert_max_num_queries):
    """The stadium's facilities in the order bought; a visitor's page not yet kept costs nine queries
    whatever the roster's size: the league version, the team, its facilities, players, gained skills,
    injuries, starting skills, coming matches and its played matches for the charts (issue 40)."""
    from django.core.cache import cache

    team = human_team(coach, name="Big Roster")  # 350,000 in the treasury
    services.buy_facility(team, "vip_lounge", by=coach)
    services.buy_facility(team, "kiosk", by=coach)
    url = reverse("team", args=[team.pk])
    client.get(url)  # warm: the parsed ruleset
    cache.clear()
    with django_assert_max_num_queries(9):
        html = client.get(url).content.decode()
    assert "VIP-lounge, Kiosk" in html
    assert roster_sheet(team.pk).facility_names == ["VIP-lounge", "Kiosk"]


def test_api_team_returns_the_sheet(client, team, other_coach):
    client.force_login(other_coach)  # the treasury is for members (issue 14)
    data = client.get(reverse("api_team", args=[team.pk])).json()
    assert data["name"] == "Torshov Trolls" and data["race"] == "Human"
    assert data["treasury"] == 20_000 and data["rerolls"] == 3 and data["apothecary"] is True
    assert data["stadium"] == {"capacity": 60000, "roof": False, "facilities": []}
    assert len(data["players"]) == 11
    catcher = next(p for p in data["players"] if p["position"] == "Catcher")
    assert (catcher["ma"], catcher["st"], catcher["ag"], catcher["av"]) == (8, 2, 3, 7)
    assert catcher["skills"] == ["Catch", "Dodge"]


def test_api_teams_lists_teams(client, team):
    data = client.get(reverse("api_teams")).json()
    assert [t["name"] for t in data["teams"]] == ["Torshov Trolls"]


def test_api_races_has_the_catalogue(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        data = client.get(reverse("api_races")).json()
    assert len(data["races"]) == 24 and len(data["big_guys"]) == 8
    human = next(r for r in data["races"] if r["name"] == "Human")
    assert human["reroll_price"] == 50000 and human["apothecary"] is True
    catchers = next(p for p in human["positions"] if p["name"] == "Catcher")
    assert catchers == {
        "name": "Catcher",
        "max": 4,
        "price": 70000,
        "ma": 8,
        "st": 2,
        "ag": 3,
        "av": 7,
        "skills": ["Catch", "Dodge"],
        "normal": "GA",
        "double": "SPM",
    }
    troll = next(b for b in data["big_guys"] if b["name"] == "Troll")
    assert troll["allied"] == ["Chaos", "Chaos Dwarf", "Goblin", "Orc"] and troll["normal"] == "GS"
    # R11 access for a first-fourteen race and R10's fixes
    dark_elf = next(r for r in data["races"] if r["name"] == "Dark Elf")
    assert {p["name"]: p["normal"] for p in dark_elf["positions"]}["Thrower"] == "GAP"
    assert "Witch Elf" in {p["name"] for p in dark_elf["positions"]}


def test_race_pages_render(client):
    assert "Witch Elf" in client.get(reverse("race", args=["dark-elf"])).content.decode()
    html = client.get(reverse("races")).content.decode()
    assert "Beast of Nurgle" in html and "Wood Elf" in html


def test_player_page(client, team):
    player = team.players.first()
    html = client.get(reverse("player", args=[player.pk])).content.decode()
    assert player.name in html and "SPP" in html


def test_ledger_page_lists_every_movement(client, team, other_coach):
    client.force_login(other_coach)  # the ledger is for members (issue 14)
    html = client.get(reverse("team_ledger", args=[team.pk])).content.decode()
    assert has_amount(html, 1_000_000)


def test_renaming_a_player(client, team, coach):
    client.force_login(coach)
    player = team.players.get(number=1)
    client.post(reverse("player_edit", args=[player.pk]), {"name": "Harald Hardrada", "number": "7"})
    player.refresh_from_db()
    assert player.number == 1  # 7 is taken: refused
    client.post(reverse("player_edit", args=[player.pk]), {"name": "Harald Hardrada", "number": "17"})
    player.refresh_from_db()
    assert (player.name, player.number) == ("Harald Hardrada", 17)


def test_api_is_json(client, team):
    response = client.get(reverse("api_team", args=[team.pk]))
    assert response["Content-Type"] == "application/json"
    json.loads(response.content)


def test_the_player_page_shows_a_reason_the_choices_no_longer_have_as_stored(client, team):
    """A stat change whose reason is no longer one of the choices (old data, a hand edit) is shown as
    stored, as Django's get_FOO_display does, not a server error; a known one in the reader's words."""
    from teams.models import StatChange

    player = team.players.order_by("number").first()
    StatChange.objects.create(player=player, stat="AV", change=-1, reason=StatChange.Reason.INJURY)
    StatChange.objects.create(player=player, stat="MA", change=1, reason="development")
    StatChange.objects.filter(player=player, stat="MA").update(reason="old-table")
    client.cookies["django_language"] = "nb"
    items = list_items(client.get(reverse("player", args=[player.pk])).content.decode())
    assert ("AV -1 (Skade)", None) in items and ("MA +1 (old-table)", None) in items


def test_a_player_page_says_why_match_by_match_lists_fewer_than_his_career(client):
    """Issue 26: the career counts every match he played (the squad, R28), "Kamp for kamp" the report's
    lines; a player who played with nothing to report is told so, not "no matches played yet"."""
    from matches.playthrough import walk_prematch
    from matches.report.confirmation import confirm_report
    from matches.report.filing import ReportInput, file_report
    from tests.factories import league_match

    match = league_match()
    walk_prematch(match)
    file_report(match, ReportInput(home_score=0, away_score=0), by=match.home.coach)
    confirm_report(match, by=match.away.coach)
    player = match.home.players.order_by("number").first()
    client.cookies["django_language"] = "nb"
    html = client.get(reverse("player", args=[player.pk])).content.decode()
    # named, not "Han": a player has no gender in the league's rows
    assert f"{player.name} har spilt 1 kamp, uten noe å føre i kamprapporten." in html
    assert "Ingen kamper spilt ennå." not in html


def test_the_kept_roster_shows_a_change_at_once(client, team):
    """The roster is kept rendered by what it shows (issue 25): a new name, a player's SPP are on the page at once."""
    from teams import services

    url = reverse("team", args=[team.pk])
    client.get(url)
    player = team.players.order_by("number").first()
    services.update_player(player, name="Ola «Knusern»", number=player.number)
    Player = type(player)
    Player.objects.filter(pk=player.pk).update(touchdowns=2)  # a correction's counters (R28: 2 TD = 6 SPP)
    from league.lib.writes import raise_league_version

    raise_league_version()
    html = client.get(url).content.decode()
    row = next(
        r
        for r in table_rows(html, "roster-cards")
        if r.cells and r.cells[1].links == [reverse("player", args=[player.pk])]
    )
    assert "Ola «Knusern»" in row.texts()[1] and row.texts()[14] == "6"


def test_the_player_history_names_who_changed_him_to_members_only_at_his_own_times(client, team, coach):
    """The player page's history (kept rendered by its rows, issue 25) shows who saved each change to members
    alone (issue 14): a member's rendered table is never served to a visitor; its times are aware ones, shown
    in the league's time zone on SQLite too."""
    from django.test import Client

    from teams.selectors import player_history

    player = team.players.get(number=1)
    client.force_login(coach)
    client.post(reverse("player_edit", args=[player.pk]), {"name": "Harald Hardrada", "number": "17"})
    url = reverse("player", args=[player.pk])
    visitor = Client()
    client.cookies["django_language"] = visitor.cookies["django_language"] = "nb"  # one language: one key but this
    assert "<td>trener</td>" in client.get(url).content.decode()  # the member's view, kept rendered first
    assert "<td>trener</td>" not in visitor.get(url).content.decode()
    newest = player_history(player)[0]
    assert newest["history_user__username"] == "trener" and newest["history_date"].tzinfo is not None
