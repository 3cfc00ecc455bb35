"""Bad input in the team forms gets a message beside its field and changes nothing (issue 10)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.lib.once import new_token
from teams import services
from teams.models import Player, Team, TreasuryEntry
from tests.factories import human_team, position
from tests.teams.test_register_team import CSV, form, team_json

pytestmark = pytest.mark.django_db


def counts():
    return (Team.objects.count(), Player.objects.count(), TreasuryEntry.objects.count())


# --- query strings ------------------------------------------------------------------------------


@pytest.mark.parametrize("race", ["%00", "x" * 500, "%C2%B2", "human%00"])
def test_a_race_that_is_not_a_slug_shows_the_race_list(client, coach, race):
    client.force_login(coach)
    response = client.get(reverse("team_create") + f"?race={race}")
    assert response.status_code == 200 and "teams/team_create_race.html" in [t.name for t in response.templates]


# --- the open redirect (player edit's next) ------------------------------------------------------


@pytest.mark.parametrize(
    ("next_url", "safe"),
    [
        ("https://evil.example/phish", False),
        ("//evil.example/phish", False),
        ("javascript:alert(1)", False),
        ("/teams/{team}/manage/", True),
    ],
)
def test_player_edit_only_follows_a_next_inside_the_site(client, coach, next_url, safe):
    team = human_team(coach)
    player = team.players.order_by("number").first()
    client.force_login(coach)
    next_url = next_url.format(team=team.pk)
    response = client.post(reverse("player_edit", args=[player.pk]), {"name": "Ny", "number": "42", "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == (next_url if safe else player.get_absolute_url())
    assert Player.objects.get(pk=player.pk).name == "Ny"  # the rename is saved either way


# --- team management and creation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field_error"),
    [
        ({"name": "N\x00ull"}, "Null characters are not allowed."),
        ({"name": "x" * 81}, "at most 80 characters"),
        ({"number": "100"}, "less than or equal to 99"),
        ({"number": "-1"}, "greater than or equal to 1"),
        ({"number": "9" * 40}, "less than or equal to 99"),
    ],
)
def test_hire_with_bad_input_is_shown_beside_the_field(client, coach, data, field_error):
    team = human_team(coach)
    client.force_login(coach)
    before = counts()
    post = {"position": position("Human", "Lineman").pk, "name": "Ny", "number": "", "token": new_token(), **data}
    response = client.post(reverse("team_hire", args=[team.pk]), post)
    assert response.status_code == 422 and field_error in response.content.decode()
    assert counts() == before


@pytest.mark.parametrize("steps", ["0", "51", "9" * 30, "-3", "two"])
def test_a_bad_expansion_is_shown_beside_its_field_with_what_was_typed_r16(client, coach, steps):
    team = human_team(coach)
    client.force_login(coach)
    before = counts()
    response = client.post(reverse("team_buy", args=[team.pk, "expansion"]), {"steps": steps, "token": new_token()})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'class="errorlist' in html and f'value="{steps}"' in html
    assert counts() == before and Team.objects.get(pk=team.pk).stadium.capacity == 60_000


@pytest.mark.parametrize(
    "extra",
    [
        {"rerolls": "9" * 30},
        {"cheerleaders": "40000"},
        {"fan_factor": "-1"},
        {"name": "x" * 81},
        {"name": "Nul\x00l"},
        {"linemen": "100"},
    ],
)
def test_team_creation_refuses_out_of_range_numbers_and_names_r5(client, coach, extra):
    client.force_login(coach)
    linemen = position("Human", "Lineman").pk
    data = {
        "race": "human",
        "name": "Bounds",
        "rerolls": "0",
        "fan_factor": "0",
        "assistant_coaches": "0",
        "cheerleaders": "0",
        f"pos_{linemen}": extra.pop("linemen", "11"),
        "token": new_token(),
        **extra,
    }
    response = client.post(reverse("team_create"), data)
    assert response.status_code == 422 and 'class="errorlist' in response.content.decode()
    assert counts() == (0, 0, 0)


# --- registration by the board --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"name": "x" * 81}, "at most 80 characters"),
        ({"treasury": "99999999999"}, "less than or equal to 10000000"),
        ({"capacity": "9999999999"}, "less than or equal to 1000000"),
        ({"cheerleaders": "40000"}, "less than or equal to 32767"),
        ({"facilities": "kiosk, kiosk"}, "A facility is listed twice."),
        ({"players": CSV.replace("Block;Guard", "Block;Block")}, "A skill is listed twice."),
        ({"players": CSV.replace("3,Urg,", "3," + "U" * 81 + ",")}, "longer than 80 characters"),
        ({"players": CSV.replace("0,1,0,0,1,0\n2,", "0,1,0,0,1,40000\n2,")}, "miss_matches must be between"),
        ({"players": CSV.replace("3,Urg,Lineorc,1,", "3,Urg,Lineorc," + "9" * 5000 + ",")}, "must be a whole number"),
    ],
)
def test_registration_refuses_bad_values_beside_the_field_r27(client, board_member, coach, overrides, message):
    client.force_login(board_member)
    response = client.post(reverse("team_register"), form(coach, **overrides))
    assert response.status_code == 422
    html = response.content.decode()
    assert message in html
    if "name" in overrides:
        assert f'value="{overrides["name"]}"' in html  # what was typed is kept
    assert counts() == (0, 0, 0)


def upload(data) -> SimpleUploadedFile:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return SimpleUploadedFile("team.json", raw, content_type="application/json")


def with_(**overrides):
    data = json.loads(team_json())
    data.update(overrides)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (with_(apothecary="no"), "apothecary must be true or false"),
        (with_(roof=1), "roof must be true or false"),
        (with_(treasury="40000"), "treasury must be a whole number"),
        (with_(rerolls=2.5), "rerolls must be a whole number"),
        (with_(capacity=10**12), "capacity must be a whole number from 0 to 1000000"),
        (with_(name="x" * 81), "longer than 80 characters"),
        (with_(name="Nul\x00l"), "null character"),
        (with_(name=["a list"]), "name is missing"),
        (with_(facilities="kiosk"), "facilities must be a list"),
        (with_(facilities=["kiosk", "kiosk"]), "A facility is listed twice."),
        (with_(players={"1": {}}), "players must be a list"),
        (with_(coach="someone"), "Unknown field: coach"),
        (with_(players=[{"number": "1", "name": "A", "position": "Skink"}]), "Player 1: number must be a whole"),
        (with_(players=[{"number": 1, "name": "A", "position": "Skink", "skills": "Dodge"}]), "skills must be a list"),
        (with_(players=[{"number": 1, "name": "A", "position": "Skink", "mvps": True}]), "mvps must be a whole"),
        (b"[" * 100_000 + b"]" * 100_000, "nests deeper"),
        (b'{"name": "x", "race": "Lizardmen", "players": [], "treasury": ' + b"9" * 5000 + b"}", "Not a JSON file"),
        (b"\xff\xfe", "Not a JSON file"),
    ],
)
def test_json_import_is_strictly_typed_and_bounded(client, board_member, coach, data, message):
    client.force_login(board_member)
    response = client.post(reverse("team_import"), {"file": upload(data), "coach": coach.pk, "token": new_token()})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert counts() == (0, 0, 0)


def test_a_true_apothecary_in_json_is_granted(client, board_member, coach):
    client.force_login(board_member)
    data = {"file": upload(with_(apothecary=True)), "coach": coach.pk, "token": new_token()}
    client.post(reverse("team_import"), data)
    assert Team.objects.get().apothecary


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "x" * 81, "number": "42"}, "at most 80 characters"),
        ({"name": "N\x00", "number": "42"}, "Null characters are not allowed."),
        ({"name": "Ny", "number": "9" * 30}, "less than or equal to 99"),
        ({"name": "Ny", "number": "2"}, "Number 2 is already taken."),
    ],
)
def test_a_refused_player_edit_is_shown_beside_the_field_with_what_was_typed(client, coach, data, message):
    team = human_team(coach)
    player = team.players.order_by("number").first()
    client.force_login(coach)
    next_url = reverse("team_manage", args=[team.pk])
    response = client.post(reverse("player_edit", args=[player.pk]), {**data, "next": next_url})
    html = response.content.decode()
    assert response.status_code == 422 and message in html
    assert f'value="{data["number"]}"' in html and f'name="next" value="{next_url}"' in html
    assert Player.objects.get(pk=player.pk).name == player.name


def test_a_starting_mutation_off_the_table_is_refused_beside_the_field_r10(client, coach):
    team = human_team(coach)
    player = team.players.order_by("number").first()
    Player.objects.filter(pk=player.pk).update(mutation_choice_pending=True)  # a 12 on the Tzeentch table
    client.force_login(coach)
    url = reverse("player_mutation", args=[player.pk])
    response = client.post(url, {"skill": "Wings of Doom"})
    assert response.status_code == 422 and "Select a valid choice" in response.content.decode()
    assert Player.objects.get(pk=player.pk).mutation_choice_pending
    choice = services.tzeentch_choices(team.ruleset.rules)[0]
    assert client.post(url, {"skill": choice}).status_code == 302
    assert list(player.gained_skills.values_list("skill__name", flat=True)) == [choice]
    response = client.post(url, {"skill": choice})  # a page left open: no mutation left to choose
    assert response.status_code == 422 and "This player has no mutation to choose." in response.content.decode()


def test_a_team_the_rules_refuse_comes_back_with_the_refusal_by_the_button_r5(client, coach):
    client.force_login(coach)
    linemen, blitzers = position("Human", "Lineman").pk, position("Human", "Blitzer").pk
    data = {
        "race": "human",
        "name": "For mange",
        "rerolls": "0",
        "fan_factor": "0",
        "assistant_coaches": "0",
        "cheerleaders": "0",
        f"pos_{linemen}": "6",
        f"pos_{blitzers}": "5",
        "token": new_token(),
    }
    response = client.post(reverse("team_create"), data)
    assert response.status_code == 422
    html = response.content.decode()
    start = html.index('id="quote"')
    quote = html[start : html.index("</form>", start)]  # beside the button the coach clicked
    assert "Blitzer: at most 4 (you have 5)." in quote and 'value="For mange"' in html
    assert counts() == (0, 0, 0)
