"""Void and reopen take back what the report set in motion and block no team's next match (issue 11)."""

import pytest

from matches.models import Match, PostMatch, PreMatch
from matches.prematch.base import get_prematch
from matches.prematch.opening import pick_squad
from matches.report.confirmation import confirm_report, reopen_report, void_match
from matches.report.filing import ReportError, file_report
from tests import factories
from tests.matches.test_report import a_report

pytestmark = pytest.mark.django_db


def next_match(match):
    return (
        Match.objects.filter(division=match.division, status=Match.Status.SCHEDULED)
        .exclude(pk=match.pk)
        .order_by("round", "pk")
        .first()
    )


def both_pick_their_squads(match):
    following = next_match(match)
    assert {following.home_id, following.away_id} == {match.home_id, match.away_id}  # the return match
    for team in (following.home, following.away):
        pick_squad(following, team, [p.pk for p in team.players.all()], by=team.coach)
    assert get_prematch(following).done == PreMatch.Step.SQUADS


class TestAReadyMatch:
    """factories.ready_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.ready_match = factories.ready_match()

    @pytest.mark.parametrize("undo", [void_match, reopen_report])
    def test_a_void_or_reopened_match_leaves_both_teams_free_for_their_next_match(self, board_member, undo):
        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        assert PostMatch.objects.filter(match=match).count() == 2  # confirmation opened both sequences
        undo(match, by=board_member)
        assert not PostMatch.objects.filter(match=match).exists()
        both_pick_their_squads(match)

    def test_a_reconfirmed_report_opens_the_post_match_sequences_again(self, board_member):
        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        reopen_report(match, by=board_member)
        confirm_report(match, by=board_member)
        assert PostMatch.objects.filter(match=match, done=0).count() == 2

    def test_once_the_post_match_has_begun_the_refusal_says_how_the_board_corrects(self, board_member):
        from matches.postmatch.steps import winnings

        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        winnings(match, match.home, roll=[3], by=None)
        for undo in (void_match, reopen_report):
            with pytest.raises(ReportError) as err:
                undo(match, by=board_member)
            assert "treasury correction" in " ".join(err.value.messages)
        assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
        assert PostMatch.objects.filter(match=match).count() == 2
