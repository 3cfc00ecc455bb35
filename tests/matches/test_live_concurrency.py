"""Both phones at once on the match log (PostgreSQL): the same entry sent from two connections at the
same moment records once; the two coaches ending the same turn at once end it once (issue 17)."""

import uuid

import pytest

from matches.live.entries import record
from matches.live.state import EventInput, TurnAlreadyEnded
from matches.models import LiveEvent
from tests.concurrency import require_postgres, run_together

pytestmark = pytest.mark.django_db(transaction=True)


def start(match):
    record(match.pk, EventInput(kind="start", client_id=uuid.uuid4()), by=match.home.coach)


def test_the_same_entry_sent_at_once_from_two_connections_records_once(ready_match):
    require_postgres()
    start(ready_match)
    scorer = ready_match.home.players.order_by("number").first()
    entry = EventInput(kind="touchdown", client_id=uuid.uuid4(), player_id=scorer.pk)
    results = run_together([lambda: record(ready_match.pk, entry, by=ready_match.home.coach) for _ in range(4)])
    assert not [r for r in results if isinstance(r, Exception)]
    assert len({r.pk for r in results}) == 1
    assert LiveEvent.objects.filter(match=ready_match, kind="touchdown").count() == 1


def test_two_coaches_ending_the_same_turn_at_once_end_it_once(ready_match):
    require_postgres()
    start(ready_match)
    coaches = [ready_match.home.coach, ready_match.away.coach]
    results = run_together(
        [
            lambda by=by: record(
                ready_match.pk, EventInput(kind="turn", client_id=uuid.uuid4(), team_id=ready_match.away_id), by=by
            )
            for by in coaches
        ]
    )
    # the second was a moment behind: its turn is ended already, which is done, not refused
    assert len([r for r in results if isinstance(r, TurnAlreadyEnded)]) == 1
    assert LiveEvent.objects.filter(match=ready_match, kind="turn").count() == 1
