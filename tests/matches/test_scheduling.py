"""Fixture dates agreed in the app (issue 27): propose, accept, counter, the board's date and a round's
deadline; every refusal changes nothing."""

import datetime

import pytest
from django.utils import timezone, translation

from league.lib.refusals import AlreadyDone
from league.models import Notification, RoundDeadline
from league.notices.texts import sentence
from league.seasons.services.fixtures import move_fixture
from matches import scheduling
from matches.models import DateProposal, Match
from matches.prematch.opening import pick_squad, roll_weather
from matches.scheduling import SchedulingError

pytestmark = pytest.mark.django_db

OSLO = datetime.timezone(datetime.timedelta(hours=2))  # the summer's offset, for readable expectations


def days_ahead(days: int, hour: int = 19, minute: int = 0) -> datetime.datetime:
    day = timezone.localdate() + datetime.timedelta(days=days)
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, minute)))


def state(match: Match) -> tuple:
    """What a refusal must leave as it was: the match's date and every proposal's status."""
    match.refresh_from_db()
    return (match.date, match.start_time, list(match.date_proposals.values_list("pk", "status").order_by("pk")))


class TestAgreeing:
    def test_a_coach_proposes_three_and_the_other_accepts_one(self, league_match):
        home, away = league_match.home.coach, league_match.away.coach
        starts = [days_ahead(3), days_ahead(5, 18, 30), days_ahead(7)]
        made = scheduling.propose_dates(league_match, starts=starts, by=home)
        assert [p.starts_at for p in made] == starts and {p.status for p in made} == {"open"}
        assert {p.team_id for p in made} == {league_match.home_id} and made[0].proposed_by == home

        match = scheduling.accept_date(made[1], by=away)
        match.refresh_from_db()
        local = timezone.localtime(starts[1])
        assert (match.date, match.start_time) == (local.date(), datetime.time(18, 30))
        assert match.starts_at == starts[1]
        statuses = dict(league_match.date_proposals.values_list("pk", "status"))
        assert statuses == {made[0].pk: "closed", made[1].pk: "accepted", made[2].pk: "closed"}
        accepted = DateProposal.objects.get(pk=made[1].pk)
        assert accepted.answered_by == away and accepted.answered_at is not None
        # the match's own history records the date and who gave it
        last = match.history.order_by("-history_date").first()
        assert (last.date, last.start_time, last.history_user) == (local.date(), datetime.time(18, 30), away)

    def test_the_other_coach_counters_with_other_dates(self, league_match):
        home, away = league_match.home.coach, league_match.away.coach
        first = scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=home)
        counter = scheduling.propose_dates(league_match, starts=[days_ahead(4), days_ahead(6)], by=away)
        assert DateProposal.objects.get(pk=first[0].pk).status == "declined"
        assert [p.status for p in scheduling.open_proposals(league_match)] == ["open", "open"]
        scheduling.accept_date(counter[0], by=home)
        league_match.refresh_from_db()
        assert league_match.date == timezone.localtime(counter[0].starts_at).date()

    def test_new_dates_replace_the_coachs_own_open_ones(self, league_match):
        home = league_match.home.coach
        first = scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=home)
        scheduling.propose_dates(league_match, starts=[days_ahead(9)], by=home)
        assert DateProposal.objects.get(pk=first[0].pk).status == "closed"
        assert len(scheduling.open_proposals(league_match)) == 1

    def test_the_same_proposal_sent_twice_makes_no_second_set(self, league_match):
        home = league_match.home.coach
        starts = [days_ahead(3), days_ahead(4)]
        first = scheduling.propose_dates(league_match, starts=starts, by=home)
        again = scheduling.propose_dates(league_match, starts=list(reversed(starts)), by=home)
        assert {p.pk for p in again} == {p.pk for p in first}
        assert league_match.date_proposals.count() == 2

    def test_an_agreed_date_can_be_moved_by_agreeing_again(self, league_match):
        home, away = league_match.home.coach, league_match.away.coach
        scheduling.accept_date(scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=home)[0], by=away)
        moved = scheduling.propose_dates(league_match, starts=[days_ahead(10, 20)], by=away)
        match = scheduling.accept_date(moved[0], by=home)
        assert match.date == timezone.localdate() + datetime.timedelta(days=10) and match.start_time.hour == 20
        assert league_match.date_proposals.filter(status="accepted").count() == 2  # both kept

    def test_accepting_twice_is_already_done(self, league_match):
        made = scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=league_match.home.coach)
        scheduling.accept_date(made[0], by=league_match.away.coach)
        with pytest.raises(AlreadyDone):
            scheduling.accept_date(made[0], by=league_match.away.coach)

    def test_the_board_dates_a_fixture_and_closes_the_proposals(self, league_match, board_member):
        made = scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=league_match.home.coach)
        day = timezone.localdate() + datetime.timedelta(days=12)
        match = scheduling.board_schedule(league_match, date=day, time=datetime.time(17, 0), by=board_member)
        assert (match.date, match.start_time) == (day, datetime.time(17, 0))
        assert DateProposal.objects.get(pk=made[0].pk).status == "closed"
        assert match.history.order_by("-history_date").first().history_user == board_member
        # a date without a time is the board's too
        match = scheduling.board_schedule(league_match, date=day, time=None, by=board_member)
        assert match.start_time is None and match.starts_at is None


class TestDeadlines:
    def test_the_board_sets_changes_and_lifts_a_rounds_deadline(self, league_match, board_member):
        season = league_match.season
        day = timezone.localdate() + datetime.timedelta(days=14)
        row = scheduling.set_round_deadline(season, competition="league", round=1, deadline=day, by=board_member)
        assert (row.deadline, row.set_by) == (day, board_member)
        assert scheduling.deadline_for(league_match) == day
        later = day + datetime.timedelta(days=7)
        scheduling.set_round_deadline(season, competition="league", round=1, deadline=later, by=board_member)
        assert RoundDeadline.objects.get().deadline == later
        assert RoundDeadline.history.count() == 2 and RoundDeadline.history.first().history_user == board_member
        assert (
            scheduling.set_round_deadline(season, competition="league", round=1, deadline=None, by=board_member) is None
        )
        assert not RoundDeadline.objects.exists() and RoundDeadline.history.count() == 3

    def test_the_overview_lists_unscheduled_and_overdue_fixtures(self, league_match, board_member):
        season = league_match.season
        today = timezone.localdate()
        scheduling.set_round_deadline(
            season, competition="league", round=1, deadline=today + datetime.timedelta(days=3), by=board_member
        )
        scheduling.board_schedule(league_match, date=today + datetime.timedelta(days=5), time=None, by=board_member)
        rounds = scheduling.schedule_overview(season, today=today)
        first = next(r for r in rounds if r.round == 1 and r.competition == "league")
        assert league_match in first.overdue and league_match not in first.unscheduled  # dated after the deadline
        second = next(r for r in rounds if r.round == 2)
        assert second.unscheduled and second.deadline is None and not second.overdue  # no deadline, not late
        # once the deadline has passed, every fixture of the round not played is overdue
        later = scheduling.schedule_overview(season, today=today + datetime.timedelta(days=4))
        first = next(r for r in later if r.round == 1 and r.competition == "league")
        assert len(first.overdue) == first.fixtures == 1


class TestRefusals:
    """Each refusal speaks and leaves the match and its proposals as they were."""

    def refused(self, match, write, words):
        before = state(match)
        with pytest.raises(SchedulingError, match=words):
            write()
        assert state(match) == before

    def test_a_date_in_the_past(self, league_match):
        home = league_match.home.coach
        past = timezone.now() - datetime.timedelta(hours=1)
        self.refused(league_match, lambda: scheduling.propose_dates(league_match, starts=[past], by=home), "past")

    def test_someone_elses_match(self, league_match, other_coach, board_member):
        for by in (other_coach, board_member):
            self.refused(
                league_match,
                lambda by=by: scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=by),
                "Only the coaches",
            )
        made = scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=league_match.home.coach)
        self.refused(league_match, lambda: scheduling.accept_date(made[0], by=other_coach), "Only the coaches")

    def test_more_than_three_or_none_or_twice_the_same(self, league_match):
        home = league_match.home.coach
        four = [days_ahead(d) for d in (2, 3, 4, 5)]
        self.refused(league_match, lambda: scheduling.propose_dates(league_match, starts=four, by=home), "at most 3")
        self.refused(league_match, lambda: scheduling.propose_dates(league_match, starts=[], by=home), "at least one")
        twice = [days_ahead(2), days_ahead(2)]
        self.refused(league_match, lambda: scheduling.propose_dates(league_match, starts=twice, by=home), "twice")

    def test_after_the_rounds_deadline(self, league_match, board_member):
        day = timezone.localdate() + datetime.timedelta(days=4)
        scheduling.set_round_deadline(league_match.season, competition="league", round=1, deadline=day, by=board_member)
        home = league_match.home.coach
        self.refused(
            league_match,
            lambda: scheduling.propose_dates(league_match, starts=[days_ahead(5)], by=home),
            "deadline",
        )
        assert scheduling.propose_dates(league_match, starts=[days_ahead(4, 23, 30)], by=home)  # on the day is fine

    def test_accepting_ones_own_or_a_closed_proposal(self, league_match):
        home, away = league_match.home.coach, league_match.away.coach
        made = scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=home)
        self.refused(league_match, lambda: scheduling.accept_date(made[0], by=home), "You proposed")
        scheduling.propose_dates(league_match, starts=[days_ahead(4)], by=away)  # declines it
        self.refused(league_match, lambda: scheduling.accept_date(made[0], by=away), "no longer open")

    def test_a_match_whose_prematch_has_begun(self, league_match):
        made = scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=league_match.home.coach)
        for team in (league_match.home, league_match.away):
            pick_squad(league_match, team, [p.pk for p in team.players.all()], by=None)
        assert scheduling.can_schedule(league_match)  # squads are picked ahead of the day
        roll_weather(league_match, entered=[3, 4], by=None)
        away = league_match.away.coach
        self.refused(league_match, lambda: scheduling.accept_date(made[0], by=away), "pre-match")
        self.refused(
            league_match, lambda: scheduling.propose_dates(league_match, starts=[days_ahead(4)], by=away), "pre-match"
        )

    def test_the_board_only_and_not_in_the_past(self, league_match, board_member):
        coach = league_match.home.coach
        tomorrow = timezone.localdate() + datetime.timedelta(days=1)
        self.refused(
            league_match, lambda: scheduling.board_schedule(league_match, date=tomorrow, time=None, by=coach), "board"
        )
        yesterday = timezone.localdate() - datetime.timedelta(days=1)
        self.refused(
            league_match,
            lambda: scheduling.board_schedule(league_match, date=yesterday, time=None, by=board_member),
            "past",
        )
        season = league_match.season
        with pytest.raises(SchedulingError, match="board"):
            scheduling.set_round_deadline(season, competition="league", round=1, deadline=tomorrow, by=coach)
        with pytest.raises(SchedulingError, match="past"):
            scheduling.set_round_deadline(season, competition="league", round=1, deadline=yesterday, by=board_member)
        with pytest.raises(SchedulingError, match="no fixtures"):
            scheduling.set_round_deadline(season, competition="cup", round=1, deadline=tomorrow, by=board_member)
        assert not RoundDeadline.objects.exists()


class TestTheCoachesAreTold:
    """Each date event reaches the coach who must act or know, in his inbox (league.notices), once."""

    def inbox(self, user) -> list[tuple[str, str]]:
        with translation.override("nb"):  # as the coach reads it: Norwegian, times as 18:30
            return [
                (n.kind, sentence(n.kind, n.params)) for n in Notification.objects.filter(recipient=user).order_by("pk")
            ]

    def test_proposed_then_accepted(self, league_match):
        home, away = league_match.home.coach, league_match.away.coach
        made = scheduling.propose_dates(league_match, starts=[days_ahead(3), days_ahead(5, 18, 30)], by=home)
        [(kind, text)] = self.inbox(away)
        assert kind == "date_proposed" and home.username in text and str(league_match) in text
        assert self.inbox(home) == []  # the proposer is not told of his own dates
        scheduling.accept_date(made[1], by=away)
        [(kind, text)] = self.inbox(home)
        assert kind == "date_accepted" and away.username in text and "18:30" in text
        assert len(self.inbox(away)) == 1

    def test_a_date_moved_by_agreeing_again_is_a_change(self, league_match):
        home, away = league_match.home.coach, league_match.away.coach
        scheduling.accept_date(scheduling.propose_dates(league_match, starts=[days_ahead(3)], by=home)[0], by=away)
        scheduling.accept_date(scheduling.propose_dates(league_match, starts=[days_ahead(6)], by=away)[0], by=home)
        assert [kind for kind, _text in self.inbox(away)] == ["date_proposed", "date_changed"]

    def test_the_boards_date_reaches_both_coaches(self, league_match, board_member):
        day = timezone.localdate() + datetime.timedelta(days=4)
        scheduling.board_schedule(league_match, date=day, time=datetime.time(19, 0), by=board_member)
        for coach in (league_match.home.coach, league_match.away.coach):
            [(kind, text)] = self.inbox(coach)
            assert kind == "fixture_scheduled" and "19:00" in text

    def test_a_refused_proposal_tells_no_one(self, league_match):
        with pytest.raises(SchedulingError):
            scheduling.propose_dates(league_match, starts=[days_ahead(-1)], by=league_match.home.coach)
        assert self.inbox(league_match.away.coach) == []

    def test_the_boards_move_of_a_fixture_tells_both_coaches_the_new_day(self, league_match):
        day = timezone.localdate() + datetime.timedelta(days=10)
        move_fixture(league_match, round=league_match.round, date=day)
        for coach in (league_match.home.coach, league_match.away.coach):
            [(kind, text)] = self.inbox(coach)
            assert kind == "date_changed" and str(day.day) in text
        move_fixture(league_match, round=league_match.round, date=day)  # the same day again: nothing new
        assert len(self.inbox(league_match.home.coach)) == 1

    def test_the_board_dating_again_is_a_change_and_the_same_date_twice_is_nothing(self, league_match, board_member):
        day = timezone.localdate() + datetime.timedelta(days=4)
        scheduling.board_schedule(league_match, date=day, time=None, by=board_member)
        scheduling.board_schedule(league_match, date=day, time=None, by=board_member)  # sent twice
        scheduling.board_schedule(league_match, date=day, time=datetime.time(20, 0), by=board_member)
        kinds = [kind for kind, _text in self.inbox(league_match.home.coach)]
        assert kinds == ["fixture_scheduled", "date_changed"]


def test_a_deadline_set_after_the_proposal_holds_at_acceptance(league_match, board_member):
    """The board's deadline for the round (issue 27) binds the date agreed, whenever it was proposed."""
    home, away = league_match.home.coach, league_match.away.coach
    [late] = scheduling.propose_dates(league_match, starts=[days_ahead(9)], by=home)
    RoundDeadline.objects.create(
        season=league_match.season,
        competition=RoundDeadline.Competition.LEAGUE,
        round=league_match.round,
        deadline=timezone.localdate() + datetime.timedelta(days=5),
    )
    before = state(league_match)
    with pytest.raises(SchedulingError, match="deadline"):
        scheduling.accept_date(late, by=away)
    assert state(league_match) == before


class TestProposalMail:
    def test_the_opponent_is_mailed_once_an_hour_about_a_matchs_proposals_and_sees_them_all(self, league_match):
        """Before, twenty proposals sent the other coach twenty e-mails."""
        home, away = league_match.home.coach, league_match.away.coach
        for coach in (home, away):
            coach.email = f"{coach.username}@example.org"
            coach.save(update_fields=["email"])
        for days in range(3, 23):
            scheduling.propose_dates(league_match, starts=[days_ahead(days)], by=home)
        to_away = Notification.objects.filter(recipient=away, kind=Notification.Kind.DATE_PROPOSED)
        assert to_away.count() == 20  # every proposal in his inbox
        assert to_away.exclude(email_state=Notification.Email.NONE).count() == 1
        assert [p.starts_at for p in scheduling.open_proposals(league_match)] == [days_ahead(22)]
        # his answer mails the first coach: a limit per recipient, not per match
        scheduling.propose_dates(league_match, starts=[days_ahead(30)], by=away)
        to_home = Notification.objects.filter(recipient=home, kind=Notification.Kind.DATE_PROPOSED)
        assert to_home.exclude(email_state=Notification.Email.NONE).count() == 1
        to_away.update(created_at=timezone.now() - scheduling.PROPOSALS_MAILED_EVERY)  # an hour on
        scheduling.propose_dates(league_match, starts=[days_ahead(31)], by=home)
        assert to_away.exclude(email_state=Notification.Email.NONE).count() == 2
