"""Only the other coach (or the board) confirms or disputes a report: the services say so themselves,
the views only pass the refusal on (issue 10)."""

import pytest

from matches.models import Match
from matches.report.confirmation import confirm_report, dispute_report
from matches.report.filing import ReportError, file_report
from tests.match_classes import OneWalkedMatch
from tests.matches.test_report import a_report

pytestmark = pytest.mark.django_db


class TestAWalkedMatch(OneWalkedMatch):
    """The league match walked to its report, built once for the class (tests/conftest.py,
    set_up_test_data); each test changes it in a savepoint of its own."""

    def test_the_filer_cannot_confirm_or_dispute_in_the_service(self, ready_match):
        file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        with pytest.raises(ReportError, match="The other coach confirms the report"):
            confirm_report(ready_match, by=ready_match.home.coach)
        with pytest.raises(ReportError, match="The other coach disputes the report"):
            dispute_report(ready_match, by=ready_match.home.coach, comment="I was wrong")
        assert Match.objects.get(pk=ready_match.pk).status == "reported"

    def test_a_coach_of_another_team_cannot_confirm_in_the_service(self, ready_match, other_coach):
        file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        with pytest.raises(ReportError):
            confirm_report(ready_match, by=other_coach)
        assert Match.objects.get(pk=ready_match.pk).status == "reported"

    def test_the_other_coach_and_the_board_confirm(self, ready_match, board_member):
        file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        dispute_report(ready_match, by=ready_match.away.coach, comment="It was 2-2.")
        assert Match.objects.get(pk=ready_match.pk).status == "disputed"
        confirm_report(ready_match, by=board_member)  # the board may always, even a report it filed
        assert Match.objects.get(pk=ready_match.pk).status == "confirmed"

    def test_the_board_confirms_a_report_it_filed_itself(self, ready_match, board_member):
        file_report(ready_match, a_report(ready_match), by=board_member)
        confirm_report(ready_match, by=board_member)
        assert Match.objects.get(pk=ready_match.pk).status == "confirmed"
