"""The board registers the league's existing teams, by form and by file (issue 4, R27)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.lib.once import new_token
from teams import registration, services
from teams.forms import PLAYER_COLUMNS
from teams.ledger import treasury
from teams.models import Player, Team

pytestmark = pytest.mark.django_db

HEADER = ",".join(PLAYER_COLUMNS)
CSV = (
    HEADER
    + """
1,Grim,Black Orc Blocker,0,1,0,6,0,1,Block;Guard,0,1,0,0,1,0
2,Snik,Goblin,0,4,0,0,2,0,Sure Feet,0,0,0,0,0,2
3,Urg,Lineorc,1,0,0,0,0,0,,0,0,0,0,0,0
4,Brak,Lineorc,0,0,0,0,0,0,,0,0,0,-1,0,0
5,Mog,Lineorc,0,0,0,0,0,0,,0,0,0,0,0,0
6,Dag,Lineorc,0,0,0,0,0,0,,0,0,0,0,0,0
7,Gob,Lineorc,0,0,0,0,0,0,,0,0,0,0,0,0
8,Zug,Blitzer,0,2,0,1,0,0,Mighty Blow,0,0,0,0,0,0
9,Rat,Thrower,12,0,0,0,0,0,Accurate,0,0,1,0,0,0
10,Lug,Lineorc,0,0,0,0,0,0,,0,0,0,0,0,0
11,Mug,Lineorc,0,0,0,0,0,0,,0,0,0,0,0,0
"""
)


def form(coach, **overrides):
    data = {
        "name": "Grønland Grunts",
        "race": "",
        "coach": coach.pk,
        "treasury": "135000",
        "rerolls": "3",
        "fan_factor": "12",
        "assistant_coaches": "2",
        "cheerleaders": "4",
        "apothecary": "on",
        "capacity": "80000",
        "roof": "on",
        "facilities": "kiosk, caretakers",
        "mvps_received": "5",
        "players": CSV,
        "token": new_token(),
    }
    from teams.models import Race

    data["race"] = Race.objects.get(name="Orc").pk
    data.update(overrides)
    return data


def test_the_board_registers_a_team_as_it_stands(client, board_member, coach):
    client.force_login(board_member)
    response = client.post(reverse("team_register"), form(coach))
    assert response.status_code == 302, response.content.decode()[-3000:]
    team = Team.objects.get(name="Grønland Grunts")
    assert team.coach == coach and team.fan_factor == 12 and team.mvps_received == 5  # FF over 9 is fine here
    assert treasury(team) == 135_000 and team.ledger.count() == 1
    assert team.stadium.capacity == 80_000 and team.stadium.roof
    assert set(team.stadium.facilities.values_list("key", flat=True)) == {"kiosk", "caretakers"}
    grim = team.players.get(number=1)
    assert (grim.st, grim.casualties, grim.niggling) == (5, 6, 1)
    assert sorted(grim.gained_skills.values_list("skill__name", flat=True)) == ["Block", "Guard"]
    assert grim.stat_changes.get().change == 1
    assert team.players.get(number=4).av == 8  # 9 - 1
    assert team.players.get(number=2).miss_matches == 2


def test_a_bad_line_is_reported_by_number_and_nothing_is_saved(client, board_member, coach):
    client.force_login(board_member)
    bad = CSV.replace("3,Urg,Lineorc,1,", "3,Urg,Lineorc,x,")
    response = client.post(reverse("team_register"), form(coach, players=bad))
    assert response.status_code == 422
    assert "Line 4: completions must be a whole number, not &#x27;x&#x27;" in response.content.decode()
    assert not Team.objects.filter(name="Grønland Grunts").exists() and not Player.objects.exists()


def test_limits_are_checked_without_the_budget(client, board_member, coach):
    client.force_login(board_member)
    too_many = CSV + "".join(f"{n},Extra {n},Goblin,0,0,0,0,0,0,,0,0,0,0,0,0\n" for n in range(12, 16))
    response = client.post(reverse("team_register"), form(coach, players=too_many))
    assert "Goblin: at most 4 (you have 5)" in response.content.decode()
    assert not Team.objects.exists()


def test_a_paper_roster_may_name_positions_in_the_plural(board_member, coach):
    """The rulebook's roster tables write "Lineorcs" and "Black Orc Blockers"; the catalogue's names are
    singular (issue 26), and a roster copied from paper still registers."""
    from teams.forms import parse_player_csv

    plural = CSV.replace(",Lineorc,", ",Lineorcs,").replace(",Black Orc Blocker,", ",black orc blockers,")
    record = registration.TeamRecord(
        name="X", race="Orc", coach=coach, treasury=0, players=tuple(parse_player_csv(plural))
    )
    team = registration.register_team(record, by=board_member)
    assert team.players.get(number=1).position.name == "Black Orc Blocker"
    assert team.players.filter(position__name="Lineorc").count() == 7


def test_a_stat_past_two_is_refused(board_member, coach):
    from teams.forms import parse_player_csv
    from teams.models import Race

    players = parse_player_csv(CSV.replace("0,1,0,0,1,0\n2,", "0,3,0,0,1,0\n2,"))
    record = registration.TeamRecord(name="X", race="Orc", coach=coach, treasury=0, players=tuple(players))
    with pytest.raises(services.TeamRuleError, match="ST may change by at most ±2"):
        registration.register_team(record, by=board_member)
    assert Race.objects.filter(name="Orc").exists() and not Team.objects.exists()


def team_json(**overrides):
    data = {
        "name": "Sagene Saurians",
        "race": "Lizardmen",
        "treasury": 40000,
        "rerolls": 2,
        "fan_factor": 7,
        "assistant_coaches": 1,
        "cheerleaders": 0,
        "apothecary": True,
        "capacity": 70000,
        "roof": False,
        "facilities": [],
        "mvps_received": 3,
        "players": [
            {
                "number": n,
                "name": f"Skink {n}",
                "position": "Skink",
                "touchdowns": n % 3,
                "skills": ["Sure Feet"] if n == 1 else [],
            }
            for n in range(1, 8)
        ]
        + [{"number": n, "name": f"Saurus {n}", "position": "Saurus"} for n in range(8, 12)],
    }
    data.update(overrides)
    return json.dumps(data).encode()


def test_import_a_team_from_json(client, board_member, coach):
    client.force_login(board_member)
    upload = SimpleUploadedFile("team.json", team_json(), content_type="application/json")
    response = client.post(reverse("team_import"), {"file": upload, "coach": coach.pk, "token": new_token()})
    assert response.status_code == 302
    team = Team.objects.get(name="Sagene Saurians")
    assert team.players.count() == 11 and team.mvps_received == 3 and treasury(team) == 40_000


def test_a_bad_player_in_the_file_is_reported_and_nothing_is_imported(client, board_member, coach):
    client.force_login(board_member)
    data = json.loads(team_json())
    data["players"][4]["touchdowns"] = "many"
    upload = SimpleUploadedFile("team.json", json.dumps(data).encode(), content_type="application/json")
    response = client.post(reverse("team_import"), {"file": upload, "coach": coach.pk, "token": new_token()})
    assert response.status_code == 422
    assert "Player 5: touchdowns must be a whole number" in response.content.decode()
    assert not Team.objects.exists()


@pytest.mark.parametrize(("who", "status"), [("anonymous", 302), ("coach", 403), ("board", 302)])
def test_only_the_board_registers(client, coach, board_member, who, status):
    if who != "anonymous":
        client.force_login({"coach": coach, "board": board_member}[who])
    response = client.post(reverse("team_register"), form(coach))
    assert response.status_code == status
    assert Team.objects.exists() == (who == "board")
