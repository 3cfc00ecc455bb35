"""The reminders (issue 27): a dated match whose pre-match is not begun, N days ahead; a post-match
sequence unfinished N days after its match was confirmed; each once per match and coach, however often
(or however many at once) `send_reminders` runs."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from league.models import Notification
from league.seasons.reminders import send_reminders
from matches.models import Match, PostMatch
from matches.report.confirmation import confirm_report
from matches.report.filing import file_report
from tests.match_classes import OneScheduledMatch, OneWalkedMatch
from tests.matches.test_report import a_report

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


def run(today, pre=2, post=3):
    return send_reminders(today=today, prematch_days=pre, postmatch_days=post)


def reminded(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", "match_id", "url"))


def dated(match, days):
    Match.objects.filter(pk=match.pk).update(date=timezone.localdate() + timedelta(days=days))


class TestAScheduledMatch(OneScheduledMatch):
    """The league match, built once for the class (tests/conftest.py, set_up_test_data); each test changes it
    in a savepoint of its own."""

    @pytest.mark.parametrize(("days", "expected"), [(3, 0), (2, 2), (0, 2), (-1, 0)])
    def test_a_match_within_the_days_ahead_and_no_pre_match_reminds_both_coaches(self, league_match, days, expected):
        dated(league_match, days)
        assert run(timezone.localdate()).prematch == expected
        if expected:
            url = reverse("match_prematch", args=[league_match.pk])
            assert reminded(Kind.PREMATCH_REMINDER) == sorted(
                (c.username, league_match.pk, url) for c in (league_match.home.coach, league_match.away.coach)
            )

    def test_an_undated_match_reminds_no_one(self, league_match):
        assert league_match.date is None
        assert run(timezone.localdate()).prematch == 0

    def test_a_second_run_reminds_no_one_twice(self, league_match):
        dated(league_match, 1)
        today = timezone.localdate()
        assert run(today).prematch == 2
        assert run(today).prematch == 0
        assert run(today + timedelta(days=1)).prematch == 0
        assert Notification.objects.filter(kind=Kind.PREMATCH_REMINDER).count() == 2

    def test_the_database_refuses_a_second_reminder_for_the_same_match_and_coach(self, league_match):
        day = timezone.localdate()
        row = {
            "recipient": league_match.home.coach,
            "kind": Kind.PREMATCH_REMINDER,
            "match": league_match,
            "reminded_for": day,
        }
        Notification.objects.create(**row)
        with pytest.raises(IntegrityError), transaction.atomic():
            Notification.objects.create(**row)
        Notification.objects.create(**{**row, "kind": Kind.REPORT_FILED})  # other kinds may repeat
        Notification.objects.create(**{**row, "kind": Kind.REPORT_FILED})

    def test_the_command_reads_its_days_from_the_boards_settings(self, league_match, board_member):
        """Issue 37: the reminders' days were a developer's environment variable; the board sets them in the app."""
        from league.notices.services import save_league_settings

        dated(league_match, 4)
        out = StringIO()
        call_command("send_reminders", stdout=out)
        assert "0 before a match" in out.getvalue()  # the default: 2 days ahead
        save_league_settings(by=board_member, prematch_days=5, postmatch_days=3, board_days=7)
        call_command("send_reminders", stdout=out)
        assert "2 before a match" in out.getvalue()
        assert Notification.objects.filter(kind=Kind.PREMATCH_REMINDER).count() == 2
        call_command("send_reminders", "--prematch-days=5", stdout=out)  # a one-run override, none twice
        assert Notification.objects.filter(kind=Kind.PREMATCH_REMINDER).count() == 2

    def test_a_match_moved_to_another_day_is_reminded_of_again_once(self, league_match):
        """The reminder is for the match's day: moved later (the board or the coaches), it comes again for
        the new day, still once however often send_reminders runs."""
        today = timezone.localdate()
        dated(league_match, 1)
        assert run(today).prematch == 2
        dated(league_match, 9)
        assert run(today).prematch == 0  # not yet due for the new day
        later = today + timedelta(days=8)
        assert run(later).prematch == 2 and run(later).prematch == 0
        days = Notification.objects.filter(kind=Kind.PREMATCH_REMINDER).values_list("reminded_for", flat=True)
        assert sorted(set(days)) == [today + timedelta(days=1), today + timedelta(days=9)]


class TestAWalkedMatch(OneWalkedMatch):
    """The league match walked to its report, built once for the class."""

    def test_a_begun_pre_match_reminds_no_one(self, ready_match):
        dated(ready_match, 1)
        assert run(timezone.localdate()).prematch == 0

    @pytest.mark.parametrize(("ago", "expected"), [(2, 0), (3, 2), (10, 2)])
    def test_an_unfinished_post_match_reminds_its_coach_days_after_the_confirmation(self, ready_match, ago, expected):
        file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        confirm_report(ready_match, by=ready_match.away.coach)
        Match.objects.filter(pk=ready_match.pk).update(confirmed_at=timezone.now() - timedelta(days=ago))
        assert run(timezone.localdate()).postmatch == expected
        if expected:
            notice = Notification.objects.get(kind=Kind.POSTMATCH_REMINDER, recipient=ready_match.home.coach)
            assert notice.url == reverse("match_postmatch", args=[ready_match.pk, ready_match.home_id])
            assert notice.params["team"] == ready_match.home.name
            assert run(timezone.localdate()).postmatch == 0

    def test_a_finished_post_match_reminds_no_one(self, ready_match):
        file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        confirm_report(ready_match, by=ready_match.away.coach)
        Match.objects.filter(pk=ready_match.pk).update(confirmed_at=timezone.now() - timedelta(days=5))
        PostMatch.objects.filter(match=ready_match, team=ready_match.home).update(done=PostMatch.Step.TEAM_RATING)
        run(timezone.localdate())
        assert [r[0] for r in reminded(Kind.POSTMATCH_REMINDER)] == [ready_match.away.coach.username]
