"""The match services tell the coaches (issue 27): each write's notification, to whom, and nothing when
the write is refused. The e-mail goes after the commit, to those with an address who want it."""

import pytest
from django.core import mail
from django.urls import reverse

from league.models import NoticePreference, Notification
from matches.models import Match
from matches.report.confirmation import confirm_report, dispute_report, reopen_report, void_match
from matches.report.filing import ReportError, file_report
from matches.results import record_forfeit
from tests.match_classes import OneWalkedMatch
from tests.matches.test_report import a_report

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


def inbox(user):
    return list(Notification.objects.filter(recipient=user).values_list("kind", "params__ruling"))


class TestAWalkedMatch(OneWalkedMatch):
    """The league match walked to its report, built once for the class (tests/conftest.py,
    set_up_test_data); each test files, confirms or voids it in a savepoint of its own."""

    def test_a_filed_report_goes_to_the_other_coach_with_a_link_to_the_match(self, ready_match):
        home, away = ready_match.home.coach, ready_match.away.coach
        file_report(ready_match, a_report(ready_match), by=home)
        assert inbox(home) == []
        notice = Notification.objects.get(recipient=away)
        assert notice.kind == Kind.REPORT_FILED
        assert notice.url == reverse("match", args=[ready_match.pk]) and notice.match_id == ready_match.pk
        assert notice.params == {"match": str(ready_match), "score": "2–1", "team": ready_match.home.name}

    def test_confirmed_and_disputed_go_to_the_filer(self, ready_match):
        home, away = ready_match.home.coach, ready_match.away.coach
        file_report(ready_match, a_report(ready_match), by=home)
        dispute_report(ready_match, by=away, comment="It was 2-2.")
        assert Notification.objects.get(recipient=home).params["comment"] == "It was 2-2."
        file_report(ready_match, a_report(ready_match), by=home)
        confirm_report(ready_match, by=away)
        assert inbox(home) == [(Kind.REPORT_CONFIRMED, None), (Kind.REPORT_DISPUTED, None)]
        assert inbox(away) == [(Kind.REPORT_FILED, None), (Kind.REPORT_FILED, None)]

    def test_the_boards_confirmation_tells_the_filer_and_the_other_coach(self, ready_match, board_member):
        home, away = ready_match.home.coach, ready_match.away.coach
        file_report(ready_match, a_report(ready_match), by=home)
        confirm_report(ready_match, by=board_member)
        assert inbox(home) == [(Kind.REPORT_CONFIRMED, None)]
        assert inbox(away) == [(Kind.BOARD_RULED, "confirm"), (Kind.REPORT_FILED, None)]
        assert inbox(board_member) == []

    def test_a_report_the_board_files_or_corrects_goes_to_both_coaches(self, ready_match, board_member):
        home, away = ready_match.home.coach, ready_match.away.coach
        file_report(ready_match, a_report(ready_match), by=board_member)
        file_report(ready_match, a_report(ready_match), by=board_member)
        for coach in (home, away):
            assert inbox(coach) == [(Kind.BOARD_RULED, "correct"), (Kind.BOARD_RULED, "file")]

    def test_the_boards_void_goes_to_both_coaches(self, ready_match, board_member):
        file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        confirm_report(ready_match, by=ready_match.away.coach)
        Notification.objects.all().delete()
        void_match(ready_match, by=board_member)
        for coach in (ready_match.home.coach, ready_match.away.coach):
            assert inbox(coach) == [(Kind.BOARD_RULED, "void")]
        assert inbox(board_member) == []

    def test_a_reopened_report_goes_back_to_the_coach_who_filed_it_r47(self, ready_match, board_member):
        """Issue 37: after a reopen the filer got no to-do, and the opponent was asked to confirm the wrong report.
        Now the filer's notice asks him to file it again (its action is on his list), the opponent's tells him
        whom it waits for."""
        file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        confirm_report(ready_match, by=ready_match.away.coach)
        Notification.objects.all().delete()
        reopen_report(ready_match, by=board_member)
        filer = Notification.objects.get(recipient=ready_match.home.coach)
        assert (filer.kind, filer.params["ruling"], filer.action) == (
            Kind.BOARD_RULED,
            "reopen",
            f"refile:{ready_match.pk}",
        )
        other = Notification.objects.get(recipient=ready_match.away.coach)
        assert (other.params["ruling"], other.action) == ("reopen_waits", "")
        assert inbox(board_member) == []

    def test_a_refused_write_tells_no_one(self, ready_match):
        file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        before = Notification.objects.count()
        with pytest.raises(ReportError):
            confirm_report(ready_match, by=ready_match.home.coach)  # the filer may not
        with pytest.raises(ReportError):
            dispute_report(ready_match, by=ready_match.away.coach, comment=" ")
        assert Notification.objects.count() == before
        assert Match.objects.get(pk=ready_match.pk).status == Match.Status.REPORTED

    def test_the_email_goes_after_the_commit_to_a_coach_with_an_address_who_wants_it(
        self, ready_match, django_capture_on_commit_callbacks
    ):
        home, away = ready_match.home.coach, ready_match.away.coach
        away.email = "away@example.org"
        away.save()
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            file_report(ready_match, a_report(ready_match), by=home)
            assert mail.outbox == []  # not before the commit
        assert len(callbacks) >= 1
        assert [m.to for m in mail.outbox] == [["away@example.org"]]
        assert Notification.objects.get(recipient=away).email_state == Notification.Email.SENT
        # The filer has no address: his confirmation waits in the inbox only.
        with django_capture_on_commit_callbacks(execute=True):
            confirm_report(ready_match, by=away)
        assert Notification.objects.get(recipient=home).email_state == Notification.Email.NONE
        assert len(mail.outbox) == 1

    def test_no_email_for_a_kind_the_coach_turned_off(self, ready_match, django_capture_on_commit_callbacks):
        away = ready_match.away.coach
        away.email = "away@example.org"
        away.save()
        NoticePreference.objects.create(user=away, kind=Kind.REPORT_FILED, email=False)
        with django_capture_on_commit_callbacks(execute=True):
            file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        assert Notification.objects.get(recipient=away).email_state == Notification.Email.NONE
        assert mail.outbox == []


def test_a_forfeit_goes_to_both_coaches_naming_the_forfeiter(league_match, board_member):
    record_forfeit(league_match, league_match.away, by=board_member)
    for coach in (league_match.home.coach, league_match.away.coach):
        notice = Notification.objects.get(recipient=coach)
        assert (notice.kind, notice.params["ruling"], notice.params["team"]) == (
            Kind.BOARD_RULED,
            "forfeit",
            league_match.away.name,
        )
