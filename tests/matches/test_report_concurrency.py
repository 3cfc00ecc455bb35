"""Two confirmations racing, two tabs rolling: counted once, rolled once (PostgreSQL)."""

import pytest

from matches.dice import roll
from matches.models import DiceRoll, Match
from matches.report.confirmation import confirm_report
from matches.report.filing import LineInput, ReportInput, file_report
from teams.models import Player
from tests.concurrency import require_postgres, run_together

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_confirmations_at_once_count_once(ready_match, board_member):
    require_postgres()
    scorer = ready_match.home.players.order_by("number").first()
    file_report(
        ready_match,
        ReportInput(home_score=1, away_score=0, lines=[LineInput(scorer.pk, touchdowns=1)]),
        by=ready_match.home.coach,
    )
    results = run_together(
        [
            lambda: confirm_report(ready_match, by=ready_match.away.coach),
            lambda: confirm_report(ready_match, by=board_member),
            lambda: confirm_report(ready_match, by=board_member),
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)]
    assert Player.objects.get(pk=scorer.pk).touchdowns == 1
    assert Match.objects.get(pk=ready_match.pk).status == "confirmed"


def test_two_tabs_rolling_the_same_purpose_get_the_same_dice(ready_match):
    require_postgres()
    results = run_together([lambda: roll(ready_match, "weather", step="weather", count=2) for _ in range(4)])
    assert not [r for r in results if isinstance(r, Exception)]
    assert len({r.pk for r in results}) == 1 and DiceRoll.objects.filter(purpose="weather").count() == 1
