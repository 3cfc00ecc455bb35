"""Whatever the board does to a match, both teams can walk on from it (issue 24): the next pre-match
opens, or the post-match that holds it can be finished. RULINGS: a direct result on a match page is
kept only for forfeits (R35) and tiebreak games; every played match goes through the report."""

import pytest
from django.urls import reverse

from matches.models import Match, PostMatch, PreMatch
from matches.playthrough import walk_postmatch
from matches.postmatch.steps import complete, fan_factor, purchases_done, winnings
from matches.prematch.base import get_prematch
from matches.prematch.opening import pick_squad
from matches.report.confirmation import confirm_report, reopen_report, void_match
from matches.report.filing import ReportError, file_report
from matches.results import record_forfeit
from teams.models import Team
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
    """Both teams start the pre-match of `match`: pick_squad refuses a team held by its last post-match."""
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.available()], by=team.coach)
    assert get_prematch(match).done == PreMatch.Step.SQUADS


def walk_postmatch_of(match, team):
    """The awarded team's steps after its winnings: fan factor, purchases, the new TR (R42)."""
    fan_factor(match, team, roll=None, by=team.coach)
    purchases_done(match, team, by=team.coach)
    complete(match, team, by=team.coach)


class TestALeagueMatch:
    """factories.league_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.league_match = factories.league_match()

    def test_the_match_page_offers_the_board_a_forfeit_and_no_direct_result(self, client, board_member):
        client.force_login(board_member)
        html = client.get(reverse("match", args=[self.league_match.pk])).content.decode()
        assert reverse("match_result", args=[self.league_match.pk]) not in html and "Record the result" not in html
        assert reverse("match_forfeit", args=[self.league_match.pk]) in html  # R35

    @pytest.mark.parametrize("who", ["anonymous", "other_coach", "own_coach", "board"])
    def test_a_direct_result_is_refused_to_everyone_and_both_teams_play_the_match(
        self, client, board_member, other_coach, who
    ):
        match = self.league_match
        user = {"anonymous": None, "other_coach": other_coach, "own_coach": match.home.coach, "board": board_member}[
            who
        ]
        if user:
            client.force_login(user)
        data = {"home_score": "1", "away_score": "1", "home_casualties": "0", "away_casualties": "0"}
        response = client.post(reverse("match_result", args=[match.pk]), data)
        match.refresh_from_db()
        assert match.status == Match.Status.SCHEDULED and not PostMatch.objects.filter(match=match).exists()
        assert response.status_code == (302 if who == "board" else 403)
        if who == "board":
            html = client.get(response.url).content.decode()
            assert "comes through its report" in html and "R35" in html
        both_pick_their_squads(match)  # the match is still theirs to play, through its report

    def test_after_voiding_a_scheduled_match_both_play_their_next(self, board_member):
        void_match(self.league_match, by=board_member)
        both_pick_their_squads(next_match(self.league_match))

    def test_after_voiding_a_forfeit_both_play_their_next_r35(self, board_member):
        match = self.league_match
        record_forfeit(match, match.home, by=board_member)
        void_match(match, by=board_member)
        assert not PostMatch.objects.filter(match=match).exists()
        assert Team.objects.get(pk=match.home_id).fan_factor == 0  # FF 0 lost nothing, gets nothing back
        both_pick_their_squads(next_match(match))

    def test_after_a_forfeit_both_walk_what_applies_and_play_their_next_r42(self, board_member):
        match = self.league_match
        record_forfeit(match, match.away, by=board_member)
        walk_postmatch(match)
        assert set(PostMatch.objects.filter(match=match).values_list("done", flat=True)) == {PostMatch.Step.TEAM_RATING}
        both_pick_their_squads(next_match(match))

    def test_a_forfeit_is_voided_after_the_forfeiter_walked_what_applies_r35_r42(self, board_member):
        """The forfeiter's purchases and new TR change nothing a void must take back: the board may still
        void the forfeit, and both teams play their next match."""
        match = self.league_match
        record_forfeit(match, match.home, by=board_member)
        purchases_done(match, match.home, by=match.home.coach)
        complete(match, match.home, by=match.home.coach)
        void_match(match, by=board_member)
        assert Match.objects.get(pk=match.pk).status == Match.Status.VOID
        assert not PostMatch.objects.filter(match=match).exists()
        both_pick_their_squads(next_match(match))

    def test_a_forfeit_void_refused_once_the_winnings_are_paid_leaves_both_to_finish_r42(self, board_member):
        match = self.league_match
        record_forfeit(match, match.home, by=board_member)
        winnings(match, match.away, roll=[4], by=match.away.coach)
        with pytest.raises(ReportError, match="post-match sequence has begun"):
            void_match(match, by=board_member)
        walk_postmatch_of(match, match.away)
        purchases_done(match, match.home, by=match.home.coach)
        complete(match, match.home, by=match.home.coach)
        both_pick_their_squads(next_match(match))


class TestAReadyMatch:
    """factories.ready_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.ready_match = factories.ready_match()

    def test_after_reopening_the_report_is_confirmed_again_and_both_play_on(self, board_member):
        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        reopen_report(match, by=board_member)
        confirm_report(match, by=board_member)
        walk_postmatch(match)
        both_pick_their_squads(next_match(match))

    def test_a_void_refused_after_the_post_match_began_leaves_both_to_finish_it(self, board_member):
        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        walk_postmatch(match)
        for undo in (void_match, reopen_report):
            with pytest.raises(ReportError, match="post-match sequence has begun"):
                undo(match, by=board_member)
        both_pick_their_squads(next_match(match))
