"""Managing a team afterwards: purchases at the rulebook's prices, and who may do it (R6-R8, R16)."""

import pytest
from django.urls import reverse

from league.lib.once import new_token
from teams import services
from teams.ledger import treasury
from teams.models import Player, Team
from tests.factories import big_guy, human_team, position
from tests.shared import shared_fixture

pytestmark = pytest.mark.django_db


@shared_fixture
def team(coach):
    return human_team(coach)  # 650,000 spent: treasury 350,000


def test_reroll_between_seasons_costs_one_and_a_half_r7(team, coach):
    assert services.buy_reroll(team, by=coach) == 75_000
    team.refresh_from_db()
    assert team.rerolls == 1 and treasury(team) == 275_000


def test_reroll_in_season_costs_double_r7(team, coach):
    assert services.buy_reroll(team, by=coach, phase="season") == 100_000


def test_cheerleaders_cost_progressively_r6(team, coach):
    assert [services.buy_cheerleader(team, by=coach) for _ in range(3)] == [10_000, 20_000, 30_000]
    assert treasury(team) == 290_000


def test_retiring_brings_a_free_assistant_coach_and_no_refund_r8(team, coach):
    player = team.players.first()
    services.retire_player(player, by=coach)
    team.refresh_from_db()
    player.refresh_from_db()
    assert player.status == Player.Status.RETIRED and team.assistant_coaches == 1
    assert treasury(team) == 350_000


def test_firing_brings_nothing(team, coach):
    services.fire_player(team.players.first(), by=coach)
    team.refresh_from_db()
    assert team.assistant_coaches == 0 and team.players.on_roster().count() == 10


def test_stadium_expansion_in_steps_r16(team, coach):
    assert services.expand_stadium(team, steps=2, by=coach) == 65_000  # 30,000 + 35,000
    team.stadium.refresh_from_db()
    assert team.stadium.capacity == 80_000


def test_roof_then_expansion_costs_more_r16(team, coach):
    assert services.buy_facility(team, "roof", by=coach) == 60_000
    assert services.expand_stadium(team, steps=1, by=coach) == 50_000  # 30,000 + 20,000 with a roof


def test_a_facility_is_bought_once(team, coach):
    assert services.buy_facility(team, "kiosk", by=coach) == 50_000
    with pytest.raises(services.TeamRuleError, match="already has Kiosk"):
        services.buy_facility(team, "kiosk", by=coach)


def test_hiring_over_the_position_limit_is_refused(team, coach):
    services.hire_player(team, position("Human", "Blitzers"), name="B2", number=None, by=coach)
    services.hire_player(team, position("Human", "Blitzers"), name="B3", number=None, by=coach)
    services.hire_player(team, position("Human", "Blitzers"), name="B4", number=None, by=coach)
    before = treasury(team)
    with pytest.raises(services.TeamRuleError, match="At most 4 Blitzers"):
        services.hire_player(team, position("Human", "Blitzers"), name="B5", number=None, by=coach)
    assert treasury(team) == before


def test_hiring_an_allied_big_guy_and_a_taken_number(team, coach):
    ogre = services.hire_player(team, big_guy("Ogre"), name="Grom", number=12, by=coach)
    assert ogre.number == 12 and treasury(team) == 230_000
    with pytest.raises(services.TeamRuleError, match="Number 12 is already taken"):
        services.hire_player(team, position("Human", "Linemen"), name="L", number=12, by=coach)


def test_not_enough_gold_is_refused_and_nothing_changes(team, coach):
    for _ in range(3):
        services.expand_stadium(team, steps=1, by=coach)  # 30,000 + 35,000 + 40,000 = 105,000
    with pytest.raises(services.TeamRuleError, match="Not enough gold"):
        services.buy_facility(team, "tv_station", by=coach)
    assert treasury(team) == 245_000
    assert not team.stadium.facilities.exists()


def test_an_apothecary_only_once_and_only_where_allowed(team, coach):
    services.buy_apothecary(team, by=coach)
    with pytest.raises(services.TeamRuleError, match="already has an apothecary"):
        services.buy_apothecary(team, by=coach)


# --- the permission matrix on every write ---------------------------------------------------------

WRITES = [
    ("team_buy", {"what": "reroll"}, {}),
    ("team_buy", {"what": "assistant_coach"}, {}),
    ("team_buy", {"what": "cheerleader"}, {}),
    ("team_buy", {"what": "apothecary"}, {}),
    ("team_buy", {"what": "expansion"}, {"steps": "1"}),
    ("team_buy", {"what": "facility-kiosk"}, {}),
    ("team_hire", {}, "hire"),
    ("player_edit", "player", {"name": "Renamed", "number": "42"}),
    ("player_leave", "player-retire", {}),
    ("player_leave", "player-fire", {}),
]


def _url(team, name, kwargs):
    player = team.players.order_by("number").first()
    if kwargs == "player":
        return reverse(name, args=[player.pk])
    if kwargs == "player-retire":
        return reverse(name, args=[player.pk, "retire"])
    if kwargs == "player-fire":
        return reverse(name, args=[player.pk, "fire"])
    return reverse(name, kwargs={"pk": team.pk, **kwargs})


def snapshot(team):
    team = Team.objects.get(pk=team.pk)
    return (
        treasury(team),
        team.rerolls,
        team.assistant_coaches,
        team.cheerleaders,
        team.apothecary,
        team.stadium.capacity,
        team.stadium.facilities.count(),
        list(team.players.order_by("pk").values_list("name", "number", "status")),
    )


@pytest.mark.parametrize(("name", "kwargs", "data"), WRITES)
@pytest.mark.parametrize("who", ["anonymous", "other_coach", "coach", "board"])
def test_permission_matrix(client, team, coach, other_coach, board_member, who, name, kwargs, data):
    if data == "hire":
        data = {"position": position("Human", "Linemen").pk, "name": "New", "number": "30"}
    # its one-time token (league.lib.once), asked twice (issue 12)
    data = {**data, "token": new_token(), "confirmed": "1"}
    user = {"anonymous": None, "other_coach": other_coach, "coach": coach, "board": board_member}[who]
    if user:
        client.force_login(user)
    before = snapshot(team)
    response = client.post(_url(team, name, kwargs), data)
    if who in {"anonymous", "other_coach"}:
        assert response.status_code == 403
        assert snapshot(team) == before
    else:
        assert response.status_code == 302
        assert snapshot(team) != before


def test_manage_page_for_coach_only(client, team, coach, other_coach):
    url = reverse("team_manage", args=[team.pk])
    assert client.get(url).status_code == 302  # log in first
    client.force_login(other_coach)
    assert client.get(url).status_code == 403
    client.force_login(coach)
    assert client.get(url).status_code == 200


def test_a_refused_purchase_shows_a_message(client, team, coach):
    client.force_login(coach)
    services.buy_apothecary(team, by=coach)
    response = client.post(reverse("team_buy", args=[team.pk, "apothecary"]), {"token": new_token()}, follow=True)
    assert "The team already has an apothecary." in response.content.decode()


# --- a form with fields: the one way of a POST (league.lib.responses.post_form) --------------------


def test_a_refused_hire_is_said_on_its_form_and_nothing_changes(client, team, coach):
    client.force_login(coach)
    data = {"position": position("Human", "Blitzers").pk, "name": "Femte", "number": "", "token": new_token()}
    for name in ("Første", "Andre", "Tredje", "Fjerde"):  # a Human team may have 4 Blitzers
        client.post(reverse("team_hire", args=[team.pk]), {**data, "name": name, "token": new_token()})
    before = snapshot(team)
    response = client.post(reverse("team_hire", args=[team.pk]), data)
    assert response.status_code == 422  # the manage page again, the refusal on the hire form
    html = response.content.decode()
    start = html.index(f'action="{reverse("team_hire", args=[team.pk])}"')
    hire_form = html[start : html.index("</form>", start)]
    assert 'class="errorlist nonfield"' in hire_form and "At most 4 Blitzers (you have 5)." in hire_form
    assert 'value="Femte"' in hire_form  # what was typed is kept
    assert snapshot(team) == before


def test_an_expansion_without_the_gold_is_said_on_its_form(client, team, coach):
    client.force_login(coach)
    before = snapshot(team)
    data = {"steps": "20", "token": new_token(), "confirmed": "1"}  # far more than 350,000
    response = client.post(reverse("team_buy", args=[team.pk, "expansion"]), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Not enough gold" in html and 'value="20"' in html
    assert snapshot(team) == before
