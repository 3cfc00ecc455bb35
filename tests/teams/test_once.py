"""Every money form acts once: the same rendered form sent again is "already done" and changes nothing
(issue 10). The token is the one the page rendered, read back from the HTML as a browser sends it."""

import re
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.lib.once import form_key, is_token, new_token
from teams import services
from teams.models import Player, Team, TreasuryEntry
from tests import factories
from tests.factories import human_team, position

pytestmark = pytest.mark.django_db

ALREADY_DONE = "This is already done"


def rendered_token(html: str, action: str) -> str:
    """The one-time token inside the form posting to `action` (or marked so), as the page rendered it."""
    start = html.index(action if action.startswith("id=") else f'action="{action}"')
    token = re.search(r'name="token" value="([^"]+)"', html[start:]).group(1)
    assert is_token(token)
    return token


def snapshot(team):
    team = Team.objects.get(pk=team.pk)
    return (
        list(team.ledger.values_list("seq", "amount")),
        team.rerolls,
        team.assistant_coaches,
        team.cheerleaders,
        team.apothecary,
        team.stadium.capacity,
        team.stadium.roof,
        sorted(team.stadium.facilities.values_list("key", flat=True)),
        list(team.players.order_by("pk").values_list("status", flat=True)),
    )


PURCHASES = [
    ("reroll", {}),
    ("assistant_coach", {}),
    ("cheerleader", {}),
    ("apothecary", {}),
    ("facility-kiosk", {}),
    ("facility-roof", {}),
    ("expansion", {"steps": "2"}),
]


def test_team_creation_sent_twice_founds_one_team_r5(client, coach):
    from teams.models import Race

    client.force_login(coach)
    race = Race.objects.get(name="Human")
    html = client.get(reverse("team_create") + "?race=human").content.decode()
    token = rendered_token(html, 'id="create-form"')
    data = {
        "race": race.slug,
        "name": "Once Only",
        "rerolls": "0",
        "fan_factor": "0",
        "assistant_coaches": "0",
        "cheerleaders": "0",
        f"pos_{position('Human', 'Lineman').pk}": "11",
        "token": token,
    }
    assert client.post(reverse("team_create"), data).status_code == 302
    data["name"] = "Once Only, renamed"  # the form edited and sent again: still the same form
    response = client.post(reverse("team_create"), data, follow=True)
    assert ALREADY_DONE in response.content.decode()
    assert list(Team.objects.values_list("name", flat=True)) == ["Once Only"]
    assert response.redirect_chain[-1][0] == Team.objects.get().get_absolute_url()


def test_a_second_send_that_meets_the_first_sends_team_is_told_it_is_done(coach):
    """Twenty sends at once (test_once_concurrency.py) once had one answered "a team called Samtidig already
    exists" (422): it passed the key's check before the first send committed, and met its team in the name's
    check after. The name's check asks the key again, as the database's unique name does (R5)."""
    from teams.ledger import AlreadyDone, ensure_not_done

    race, lineman = position("Human", "Lineman").race, position("Human", "Lineman")
    key = form_key(new_token(), "user", coach.pk, "create")
    found = {"coach": coach, "name": "Samtidig", "race": race, "hires": {lineman.pk: 11}, "idempotency_key": key}
    services.create_team(**found)  # the first send, committed
    checks = []

    def before_the_first_committed(idempotency_key):
        if not checks:  # the second send's first check ran while the first send was still writing
            checks.append(idempotency_key)
            return
        ensure_not_done(idempotency_key)

    with mock.patch("teams.services.ensure_not_done", before_the_first_committed), pytest.raises(AlreadyDone):
        services.create_team(**found)
    assert checks == [key]
    assert Team.objects.filter(name="Samtidig").count() == 1


def test_registration_sent_twice_registers_once_even_with_an_empty_treasury(client, board_member, coach):
    from tests.teams.test_register_team import form

    client.force_login(board_member)
    data = form(coach, treasury="0")
    assert client.post(reverse("team_register"), data).status_code == 302
    team = Team.objects.get()
    assert list(team.ledger.values_list("amount", "balance")) == [(0, 0)]  # the line that holds the key
    response = client.post(reverse("team_register"), data, follow=True)
    assert ALREADY_DONE in response.content.decode()
    assert Team.objects.count() == 1 and team.ledger.count() == 1


def test_import_sent_twice_imports_once(client, board_member, coach):
    from tests.teams.test_register_team import team_json

    client.force_login(board_member)
    token = new_token()
    for _ in range(2):
        upload = SimpleUploadedFile("team.json", team_json(), content_type="application/json")
        response = client.post(reverse("team_import"), {"file": upload, "coach": coach.pk, "token": token}, follow=True)
    assert ALREADY_DONE in response.content.decode()
    assert Team.objects.count() == 1 and TreasuryEntry.objects.count() == 1


def test_the_service_key_is_namespaced_and_fits_the_column():
    token = new_token()
    key = form_key(token, "team", 2**63, "facility-" + "x" * 200)
    assert key.startswith(f"form:{token}:team:") and len(key) == 100
    assert len(form_key(token, "team", 1, "reroll")) <= TreasuryEntry._meta.get_field("idempotency_key").max_length


class TestATeam:
    """A coach's Human team, built once for the class (tests/conftest.py, set_up_test_data)."""

    @classmethod
    def setUpTestData(cls):
        cls.coach = factories.user("trener")
        cls.team = human_team(cls.coach)  # treasury 350,000

    @pytest.mark.parametrize(("what", "extra"), PURCHASES)
    def test_one_rendered_purchase_form_sent_twice_buys_once(self, client, what, extra):
        client.force_login(self.coach)
        action = reverse("team_buy", args=[self.team.pk, what])
        token = rendered_token(client.get(reverse("team_manage", args=[self.team.pk])).content.decode(), action)
        first = client.post(action, {"token": token, "confirmed": "1", **extra}, follow=True)
        assert "already done" not in first.content.decode()
        after_first = snapshot(self.team)
        assert len(after_first[0]) == len(snapshot(Team.objects.get(pk=self.team.pk))[0])
        second = client.post(action, {"token": token, "confirmed": "1", **extra}, follow=True)
        assert ALREADY_DONE in second.content.decode()
        assert snapshot(self.team) == after_first
        assert TreasuryEntry.objects.filter(team=self.team, idempotency_key__contains=token).count() == 1
        # A fresh page gives a fresh token: buying another one on purpose still works.
        if what in {"reroll", "assistant_coach", "cheerleader", "expansion"}:
            token = rendered_token(client.get(reverse("team_manage", args=[self.team.pk])).content.decode(), action)
            client.post(action, {"token": token, "confirmed": "1", **extra})
            assert len(snapshot(self.team)[0]) == len(after_first[0]) + 1

    def test_hire_form_sent_twice_hires_one_player(self, client):
        client.force_login(self.coach)
        action = reverse("team_hire", args=[self.team.pk])
        token = rendered_token(client.get(reverse("team_manage", args=[self.team.pk])).content.decode(), action)
        data = {"position": position("Human", "Lineman").pk, "name": "Ny", "number": "", "token": token}
        assert client.post(action, data).status_code == 302
        before = snapshot(self.team)
        response = client.post(action, data, follow=True)
        assert ALREADY_DONE in response.content.decode() and "Hired Ny (Lineman), -50,000" in response.content.decode()
        assert snapshot(self.team) == before and self.team.players.filter(name="Ny").count() == 1

    @pytest.mark.parametrize("what", ["reroll", "expansion", "facility-kiosk"])
    @pytest.mark.parametrize("token", [None, "", "x" * 500, "not a token\x00", "a" * 21])
    def test_a_missing_or_malformed_token_is_refused_and_nothing_is_bought(self, client, what, token):
        client.force_login(self.coach)
        before = snapshot(self.team)
        data = {"steps": "1"} if what == "expansion" else {}
        if token is not None:
            data["token"] = token
        response = client.post(reverse("team_buy", args=[self.team.pk, what]), data, follow=True)
        assert response.status_code in (200, 422)  # a button's refusal is flashed
        assert "This form is out of date: reload the page and try again." in response.content.decode()
        assert snapshot(self.team) == before

    def test_hire_without_a_token_is_refused_beside_the_form(self, client):
        client.force_login(self.coach)
        before = snapshot(self.team)
        data = {"position": position("Human", "Lineman").pk, "name": "Ny", "number": "30"}
        response = client.post(reverse("team_hire", args=[self.team.pk]), data)
        assert response.status_code == 422
        html = response.content.decode()
        assert "This form is out of date" in html and 'value="Ny"' in html  # what was typed is kept
        assert snapshot(self.team) == before

    @pytest.mark.parametrize("how", ["retire", "fire"])
    def test_retire_or_fire_sent_twice_acts_once_r8(self, client, how):
        client.force_login(self.coach)
        player = self.team.players.order_by("number").first()
        url = reverse("player_leave", args=[player.pk, how])
        client.post(url, {"confirmed": "1"})
        before = snapshot(self.team)
        response = client.post(url, {"confirmed": "1"}, follow=True)
        assert ALREADY_DONE in response.content.decode()
        assert snapshot(self.team) == before
        # R8: one retirement brings one free assistant coach, however often the button is sent.
        assert Team.objects.get(pk=self.team.pk).assistant_coaches == (1 if how == "retire" else 0)

    def test_retire_after_fire_is_refused_as_not_on_the_roster(self):
        player = self.team.players.first()
        services.fire_player(player, by=self.coach)
        with pytest.raises(services.TeamRuleError, match="is not on the roster"):
            services.retire_player(player, by=self.coach)
        assert Player.objects.get(pk=player.pk).status == Player.Status.FIRED

    def test_already_done_in_norwegian(self, client):
        from django.utils import translation

        client.cookies["django_language"] = "nb"
        client.force_login(self.coach)
        action = reverse("team_buy", args=[self.team.pk, "reroll"])
        with translation.override("nb"):
            token = rendered_token(client.get(reverse("team_manage", args=[self.team.pk])).content.decode(), action)
            client.post(action, {"token": token})
            html = client.post(action, {"token": token}, follow=True).content.decode()
            assert "Dette er allerede gjort" in html and "ingenting mer ble betalt" in html
            html = client.post(action, {}, follow=True).content.decode()
            assert "Skjemaet er utdatert: last inn siden på nytt og prøv igjen." in html
