"""Kept statistics (issue 16): the division lines and the players' counters change in the same
transaction as the result, and `rebuild_stats` gives exactly the rows kept incrementally."""

import io
import random

import pytest
from django.core.management import call_command
from django.db import transaction

from league.models import PlayerStats, TeamSeasonStats
from league.seasons.selectors import division_lines
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match
from matches.report.confirmation import confirm_report, reopen_report, void_match
from matches.report.filing import ReportError, file_report
from matches.results import MatchError, record_forfeit
from tests import factories, kept_stats
from tests.matches.test_report import a_report, players
from tests.results import record_result

pytestmark = pytest.mark.django_db


def counted_from_results(division):
    """The table counted from the confirmed results by the pure rules (what the page showed before)."""
    from league import rules

    teams = list(division.entries.values_list("team_id", flat=True))
    results = [
        rules.Result(*row)
        for row in division.matches.filter(status=Match.Status.CONFIRMED).values_list(
            "home_id", "away_id", "home_score", "away_score", "home_casualties", "away_casualties"
        )
    ]
    winners = list(division.tiebreaks.values_list("winner_id", flat=True))
    return division.season.ruleset.rules.standings(teams, results, winners)


class TestAReadyMatch:
    """factories.ready_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.ready_match = factories.ready_match()

    def test_a_confirmed_report_counts_the_table_line_and_the_players_in_its_transaction(self):
        match = self.ready_match
        home, away = players(match)
        file_report(match, a_report(match), by=match.home.coach)
        assert not TeamSeasonStats.objects.exists()  # a filed report counts nothing yet
        confirm_report(match, by=match.away.coach)
        line = TeamSeasonStats.objects.get(team=match.home, competition="league")
        # R31: a win is 3 points; 2–1; casualties caused 2 (block + crowd push, R38) against 1 (a foul)
        assert (line.played, line.won, line.points, line.touchdowns_for, line.touchdowns_against) == (1, 1, 3, 2, 1)
        assert (line.casualties_for, line.casualties_against) == (2, 1)
        assert line.head_to_head == {str(match.away_id): 3}
        assert TeamSeasonStats.objects.get(team=match.away).head_to_head == {str(match.home_id): 0}
        season_row = PlayerStats.objects.get(player=home[0], season=match.season)
        career_row = PlayerStats.objects.get(player=home[0], season=None)
        # R28: two touchdowns (3 each) and a completion (1) = 7 SPP; he played the match
        for row in (season_row, career_row):
            assert (row.matches, row.touchdowns, row.completions, row.spp) == (1, 2, 1, 7)
        assert PlayerStats.objects.get(player=home[1], season=None).spp == 4  # block + crowd casualty: 2 × 2
        assert PlayerStats.objects.get(player=away[0], season=None).spp == 4  # TD 3 + foul casualty 1
        # every player of both squads played (R3), those without a line too
        assert PlayerStats.objects.filter(season=None, matches=1).count() == 22

    def test_the_report_lines_keep_the_confirmation_time(self):
        """A player's career lists his lines by their match's confirmation, which matches.stats keeps on
        each line (the MVP step's new line: tests/matches/test_postmatch.py)."""
        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        assert set(match.lines.values_list("confirmed_at", flat=True)) == {None}  # filed, not confirmed
        confirm_report(match, by=match.away.coach)
        confirmed_at = Match.objects.get(pk=match.pk).confirmed_at
        assert confirmed_at and set(match.lines.values_list("confirmed_at", flat=True)) == {confirmed_at}

    def test_void_and_reopen_take_the_counts_back(self, board_member):
        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        reopen_report(match, by=board_member)
        teams, people, lines = kept_stats.snapshot()
        assert teams == set() and people == set()
        assert lines and {confirmed_at for _line, confirmed_at in lines} == {None}  # out of the careers
        confirm_report(match, by=board_member)
        void_match(match, by=board_member)
        teams, people, lines = kept_stats.snapshot()
        assert teams == set() and people == set() and {confirmed_at for _line, confirmed_at in lines} == {None}
        assert division_lines(match.division)[0].played == 0

    def test_a_failed_confirmation_counts_nothing(self):
        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        with pytest.raises(RuntimeError), transaction.atomic():
            confirm_report(match, by=match.away.coach)
            raise RuntimeError("the request fails after the confirmation")
        assert not TeamSeasonStats.objects.exists() and not PlayerStats.objects.exists()

    def test_a_forfeit_counts_the_win_but_no_player(self, board_member):
        match = self.ready_match
        record_forfeit(match, match.away, by=board_member)
        line = TeamSeasonStats.objects.get(team=match.home)
        assert (line.won, line.points, line.touchdowns_for) == (1, 3, 2)  # R35: awarded 2–0
        assert not PlayerStats.objects.exists()  # R35: no SPP, no match played

    @pytest.mark.parametrize("seed", [1, 2, 3, 4])
    def test_rebuild_equals_the_rows_kept_after_a_random_sequence(self, board_member, seed):
        """Random confirmations, results, forfeits, voids and reopens (league and cup, R31, R34, R35);
        afterwards the kept rows equal a rebuild, and each table equals the one counted from results."""
        rng = random.Random(seed)
        reported = self.ready_match
        season = reported.season
        file_report(reported, a_report(reported), by=reported.home.coach)
        teams = list(season.entries.values_list("team", flat=True))
        from teams.models import Team

        generate_fixtures(season.divisions.get(level=2))
        draw_cup(
            season, teams=list(Team.objects.filter(pk__in=teams)), name="Cup", prize=0, order=teams, by=board_member
        )
        for _step in range(24):
            others = list(Match.objects.filter(season=season).exclude(pk=reported.pk).order_by("pk"))
            reported.refresh_from_db()
            choice = rng.randrange(4)
            try:
                if choice == 0 and reported.status in (Match.Status.REPORTED, Match.Status.CONFIRMED):
                    undo = rng.choice([reopen_report, void_match]) if reported.status == "confirmed" else confirm_report
                    undo(reported, by=board_member)
                elif others:
                    match = rng.choice(others)
                    if match.status == Match.Status.SCHEDULED and choice == 1 and match.home_id and match.away_id:
                        record_forfeit(match, rng.choice([match.home, match.away]), by=board_member)
                    elif match.status == Match.Status.SCHEDULED:
                        h, a = rng.randint(0, 3), rng.randint(0, 3)
                        tiebreak = rng.choice([match.home_id, match.away_id]) if match.cup_id and h == a else None
                        record_result(
                            match,
                            home_score=h,
                            away_score=a,
                            home_casualties=rng.randint(0, 3),
                            away_casualties=rng.randint(0, 3),
                            tiebreak_winner_id=tiebreak,
                            by=board_member,
                        )
                    elif match.status == Match.Status.CONFIRMED and choice == 3:
                        void_match(match, by=board_member)
            except (ReportError, MatchError):
                pass  # refused (e.g. the next cup round is played): nothing changed
        kept = kept_stats.snapshot()
        assert kept[0]  # something was counted
        for division in season.divisions.all():
            assert [(x.team, x.points, x.position, x.tied) for x in division_lines(division)] == [
                (x.team, x.points, x.position, x.tied) for x in counted_from_results(division)
            ]
        call_command("rebuild_stats", stdout=io.StringIO())
        assert kept_stats.snapshot() == kept
