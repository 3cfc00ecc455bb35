"""The treasury never loses a coin: concurrent purchases on PostgreSQL (issue 4, "Money is a record")."""

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from league.lib.once import new_token
from teams.ledger import treasury
from teams.models import TreasuryEntry
from tests.concurrency import require_postgres, run_together
from tests.factories import human_team

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_purchases_at_once_cannot_spend_more_than_the_treasury(coach):
    require_postgres()
    team = human_team(coach)  # 350,000 in the treasury
    clients = []
    for _ in range(2):
        c = Client()
        c.force_login(coach)
        clients.append(c)
    url = reverse("team_buy", args=[team.pk, "facility-tv_station"])  # 250,000 each, once per stadium
    url2 = reverse("team_buy", args=[team.pk, "facility-vip_lounge"])  # 150,000
    # Either purchase alone fits; both together (400,000) do not.
    results = run_together(
        [
            lambda: clients[0].post(url, {"token": new_token(), "confirmed": "1"}),
            lambda: clients[1].post(url2, {"token": new_token(), "confirmed": "1"}),
        ]
    )
    assert all(r.status_code == 302 for r in results)
    bought = set(team.stadium.facilities.values_list("key", flat=True))
    assert len(bought) == 1
    balance = treasury(team)
    assert balance == 350_000 - (250_000 if bought == {"tv_station"} else 150_000)
    assert balance == sum(team.ledger.values_list("amount", flat=True))


def test_many_cheerleaders_at_once_are_priced_in_order(coach):
    require_postgres()
    team = human_team(coach)
    clients = []
    for _ in range(4):
        c = Client()
        c.force_login(coach)
        clients.append(c)
    url = reverse("team_buy", args=[team.pk, "cheerleader"])
    run_together([lambda c=c: c.post(url, {"token": new_token()}) for c in clients])  # four rendered forms
    team.refresh_from_db()
    assert team.cheerleaders == 4
    # 10,000 + 20,000 + 30,000 + 40,000: each bought at the price after the one before (R6)
    assert treasury(team) == 350_000 - 100_000
    seqs = list(team.ledger.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_the_database_refuses_a_negative_balance_and_a_reused_sequence(coach):
    team = human_team(coach)
    last = team.ledger.order_by("-seq").first()
    with pytest.raises(IntegrityError), transaction.atomic():
        TreasuryEntry.objects.create(
            team=team, seq=last.seq + 1, amount=-400_000, balance=-50_000, kind="purchase", description="too much"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        TreasuryEntry.objects.create(
            team=team, seq=last.seq, amount=-1, balance=last.balance - 1, kind="purchase", description="same seq"
        )
