"""Hypothesis feeds garbage to the team forms and the board's registration and import (issue 10): never a
server error, and where the input is refused nothing is written."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from league.lib.once import new_token
from teams.forms import PLAYER_COLUMNS, TEAM_FIELDS
from teams.models import Facility, Player, PlayerSkill, Stadium, Team, TreasuryEntry
from tests.factories import human_team, position
from tests.fuzz import FUZZ, form_data, garbage, json_values

pytestmark = pytest.mark.django_db


def rows():
    return tuple(m.objects.count() for m in (Team, Player, PlayerSkill, Stadium, Facility, TreasuryEntry))


def post_and_check(client, url, data):
    before = rows()
    response = client.post(url, data)
    assert response.status_code < 500
    if response.status_code != 302:  # not done: the form came back with its errors (422), nothing written
        assert rows() == before
    return response


@FUZZ
@given(data=form_data(["position", "name", "number", "token"]))
def test_hire_form_garbage(client, coach, data):
    team = Team.objects.filter(coach=coach).first() or human_team(coach)
    client.force_login(coach)
    post_and_check(client, reverse("team_hire", args=[team.pk]), data)


@FUZZ
@given(
    what=st.sampled_from(["reroll", "expansion", "facility-kiosk", "facility-" + "x" * 300, "cheerleader"]),
    data=form_data(["steps", "token"]),
)
def test_purchase_form_garbage(client, coach, what, data):
    team = Team.objects.filter(coach=coach).first() or human_team(coach)
    client.force_login(coach)
    before = rows()
    response = client.post(reverse("team_buy", args=[team.pk, what]), data)
    assert response.status_code < 500
    if not (isinstance(data.get("token"), str) and len(data["token"]) == 22):  # no valid token: never a purchase
        assert rows() == before


@FUZZ
@given(
    data=form_data(["name", "rerolls", "fan_factor", "assistant_coaches", "cheerleaders", "apothecary", "token"]),
    linemen=garbage,
)
def test_team_creation_garbage(client, coach, data, linemen):
    client.force_login(coach)
    data = {"race": "human", **data}
    if isinstance(linemen, str):
        data[f"pos_{position('Human', 'Lineman').pk}"] = linemen
    post_and_check(client, reverse("team_create"), data)


REGISTER_FIELDS = [
    "name", "race", "coach", "treasury", "rerolls", "fan_factor", "assistant_coaches", "cheerleaders",
    "apothecary", "capacity", "roof", "facilities", "mvps_received", "players",
]  # fmt: skip


@FUZZ
@given(data=form_data(REGISTER_FIELDS), line=st.lists(garbage.filter(lambda v: isinstance(v, str)), max_size=16))
def test_registration_form_garbage(client, board_member, coach, data, line):
    client.force_login(board_member)
    data = {"token": new_token(), "coach": str(coach.pk), **data}
    if line:
        data["players"] = ",".join(v.replace("\x00", "") for v in line)
    post_and_check(client, reverse("team_register"), data)


team_objects = st.fixed_dictionaries(
    {},
    optional={
        **{k: json_values for k in TEAM_FIELDS},
        "players": st.lists(
            st.dictionaries(st.sampled_from([*PLAYER_COLUMNS, "extra"]), json_values, max_size=8), max_size=5
        ),
    },
)


@FUZZ
@given(data=st.one_of(team_objects, json_values))
def test_json_import_garbage(client, board_member, coach, data):
    client.force_login(board_member)
    upload = SimpleUploadedFile("team.json", json.dumps(data).encode(), content_type="application/json")
    post_and_check(client, reverse("team_import"), {"file": upload, "coach": coach.pk, "token": new_token()})
