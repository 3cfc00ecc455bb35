"""A double submit, or both answers at once, never gives a match two dates (PostgreSQL, issue 27): the
requests run together, each with its own connection, and the match row's lock puts them in a line."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import scheduling
from matches.models import DateProposal, Match
from tests.concurrency import require_postgres, run_together

pytestmark = pytest.mark.django_db(transaction=True)


# one day for the whole module: a run across Oslo's midnight compares the same dates
TODAY = timezone.localdate()


def at(days: int, hour: int = 19) -> datetime.datetime:
    day = TODAY + datetime.timedelta(days=days)
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_same_accept_sent_four_times_at_once_dates_the_match_once(league_match):
    require_postgres()
    made = scheduling.propose_dates(league_match, starts=[at(3), at(4)], by=league_match.home.coach)
    url = reverse("match_accept", args=[league_match.pk])
    clients = [client_of(league_match.away.coach) for _ in range(4)]
    results = run_together([lambda c=c: c.post(url, {"proposal": made[0].pk}) for c in clients])
    assert [r.status_code for r in results] == [302] * 4  # the first agrees, the others are told it is done
    assert list(DateProposal.objects.filter(match=league_match, status="accepted").values_list("pk", flat=True)) == [
        made[0].pk
    ]
    assert Match.objects.get(pk=league_match.pk).starts_at == at(3)
    assert league_match.history.filter(date__isnull=False).count() == 1  # one date given, once


def test_two_different_dates_accepted_at_once_give_one_date(league_match):
    require_postgres()
    made = scheduling.propose_dates(league_match, starts=[at(3), at(4), at(5)], by=league_match.home.coach)
    url = reverse("match_accept", args=[league_match.pk])
    away = league_match.away.coach
    results = run_together([lambda p=p: client_of(away).post(url, {"proposal": p.pk}) for p in made])
    assert sorted(r.status_code for r in results) == [302, 422, 422]
    accepted = DateProposal.objects.get(match=league_match, status="accepted")
    assert Match.objects.get(pk=league_match.pk).starts_at == accepted.starts_at


def test_an_accept_racing_a_counter_proposal_leaves_one_consistent_state(league_match):
    require_postgres()
    home, away = league_match.home.coach, league_match.away.coach
    made = scheduling.propose_dates(league_match, starts=[at(3)], by=home)
    results = run_together(
        [
            lambda: scheduling.accept_date(made[0], by=away),
            lambda: scheduling.propose_dates(league_match, starts=[at(6)], by=home),
        ]
    )
    match = Match.objects.get(pk=league_match.pk)
    accepted = DateProposal.objects.filter(match=league_match, status="accepted")
    if isinstance(results[0], Exception):  # the new dates came first: nothing agreed, the new one open
        assert match.date is None and not accepted.exists()
        assert [p.starts_at for p in scheduling.open_proposals(match)] == [at(6)]
    else:  # the accept came first: the date holds, and the new proposal waits for the other coach
        assert match.starts_at == at(3) and accepted.count() == 1
