"""One rendered purchase form sent 20 times at the same moment buys one thing (issue 10, PostgreSQL).

The team row lock orders the sends; the second and later ones find the first's ledger line under the
form's key and are told "already done". The unique key in the database is the last guard."""

import pytest
from django.test import Client
from django.urls import reverse

from teams.ledger import treasury
from teams.models import Team, TreasuryEntry
from tests.concurrency import require_postgres, run_together
from tests.factories import human_team, position
from tests.teams.test_once import ALREADY_DONE, rendered_token

pytestmark = pytest.mark.django_db(transaction=True)

SENDS = 20


def clients(user, n=SENDS):
    result = []
    for _ in range(n):
        c = Client()
        c.cookies["django_language"] = "en"
        c.force_login(user)
        result.append(c)
    return result


def send_together(cs, url, data):
    return run_together([lambda c=c: c.post(url, data, follow=True) for c in cs])


def assert_one_and_told(responses, token):
    assert all(not isinstance(r, Exception) for r in responses), [r for r in responses if isinstance(r, Exception)]
    assert all(r.status_code == 200 for r in responses)
    told = [r for r in responses if ALREADY_DONE in r.content.decode()]
    assert len(told) == SENDS - 1
    assert TreasuryEntry.objects.filter(idempotency_key__contains=token).count() == 1


def test_twenty_sends_of_one_reroll_form_buy_one_reroll_r7(coach):
    require_postgres()
    team = human_team(coach)
    cs = clients(coach)
    html = cs[0].get(reverse("team_manage", args=[team.pk])).content.decode()
    action = reverse("team_buy", args=[team.pk, "reroll"])
    token = rendered_token(html, action)
    lines = team.ledger.count()
    responses = send_together(cs, action, {"token": token})
    assert_one_and_told(responses, token)
    team = Team.objects.get(pk=team.pk)
    assert team.rerolls == 1
    assert team.ledger.count() == lines + 1
    assert treasury(team) == 350_000 - 75_000  # one re-roll at 1.5 × 50,000 between seasons (R7)


def test_twenty_sends_of_one_hire_form_hire_one_player(coach):
    require_postgres()
    team = human_team(coach)
    cs = clients(coach)
    html = cs[0].get(reverse("team_manage", args=[team.pk])).content.decode()
    action = reverse("team_hire", args=[team.pk])
    token = rendered_token(html, action)
    players, lines = team.players.count(), team.ledger.count()
    data = {"position": position("Human", "Lineman").pk, "name": "Dobbeltklikk", "number": "", "token": token}
    responses = send_together(cs, action, data)
    assert_one_and_told(responses, token)
    assert team.players.count() == players + 1 and team.players.filter(name="Dobbeltklikk").count() == 1
    assert team.ledger.count() == lines + 1
    assert treasury(team) == 350_000 - 50_000  # one Human lineman


def test_twenty_sends_of_one_team_creation_found_one_team(coach):
    require_postgres()
    cs = clients(coach)
    html = cs[0].get(reverse("team_create") + "?race=human").content.decode()
    token = rendered_token(html, 'id="create-form"')
    data = {
        "race": "human",
        "name": "Samtidig",
        "rerolls": "0",
        "fan_factor": "0",
        "assistant_coaches": "0",
        "cheerleaders": "0",
        f"pos_{position('Human', 'Lineman').pk}": "11",
        "token": token,
    }
    responses = send_together(cs, reverse("team_create"), data)
    assert_one_and_told(responses, token)
    assert Team.objects.filter(name="Samtidig").count() == 1
