"""Seasons, fixtures, standings, the cup and the season end (issue 5, R31-R34)."""

import pytest

from league.models import Season, SeasonEnd, TiebreakGame
from league.seasons.selectors import division_lines, season_board
from league.seasons.services.base import SeasonError
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures, record_tiebreak, withdraw_tiebreak
from league.seasons.services.season_end import commit_season_end, season_end_preview
from league.seasons.services.setup import DivisionPlan, create_season, start_season
from matches.models import Match
from matches.results import MatchError
from teams.ledger import treasury
from teams.models import Player, Team
from tests.results import record_result

pytestmark = pytest.mark.django_db


def play(match, home, away, board, hc=0, ac=0, tiebreak=None):
    return record_result(
        match,
        home_score=home,
        away_score=away,
        home_casualties=hc,
        away_casualties=ac,
        tiebreak_winner_id=tiebreak,
        by=board,
    )


def test_fixtures_are_a_double_round_robin_per_division(season_with):
    season, _teams = season_with(4, 3)
    d1, d2 = season.divisions.order_by("level")
    assert len(generate_fixtures(d1)) == 12  # 4 × 3
    assert len(generate_fixtures(d2)) == 6  # 3 × 2, byes
    assert set(Match.objects.filter(division=d2).values_list("round", flat=True)) == set(range(1, 7))


def test_fixtures_can_be_regenerated_until_the_first_match(season_with, board_member):
    season, _teams = season_with(4, 3)
    d1 = season.divisions.get(level=1)
    generate_fixtures(d1)
    generate_fixtures(d1)  # again: replaced
    assert Match.objects.filter(division=d1).count() == 12
    play(Match.objects.filter(division=d1).first(), 1, 0, board_member)
    with pytest.raises(SeasonError, match="first match"):
        generate_fixtures(d1)


def test_a_team_in_two_divisions_is_refused(make_teams):
    from league.models import Ruleset

    teams = make_teams(3)
    with pytest.raises(SeasonError, match="two divisions"):
        create_season(
            name="X",
            ruleset=Ruleset.default(),
            divisions=[DivisionPlan(1, "1", 6, teams[:2]), DivisionPlan(2, "2", 5, teams[1:])],
        )


def test_standings_count_confirmed_matches_only_r31(season_with, board_member):
    season, _teams = season_with(4, 3)
    d1 = season.divisions.get(level=1)
    generate_fixtures(d1)
    a, b = Match.objects.filter(division=d1, round=1)[:2]
    play(a, 2, 1, board_member, hc=3, ac=1)
    lines = {line.team: line for line in division_lines(d1)}
    assert lines[a.home_id].points == 3 and lines[a.home_id].casualties_for == 3
    assert lines[a.away_id].lost == 1 and lines[a.away_id].casualties_against == 3
    assert lines[b.home_id].played == 0  # not played yet


def test_a_drawn_cup_match_needs_a_tiebreak_winner_r34(season_with, board_member):
    season, teams = season_with(4, 3)
    cup = draw_cup(season, teams=teams[:4], name="Cup", prize=50_000, order=[t.pk for t in teams[:4]], by=board_member)
    first = cup.matches.get(round=1, cup_slot=0)
    with pytest.raises(MatchError, match="cannot end drawn"):
        play(first, 1, 1, board_member)
    play(first, 1, 1, board_member, tiebreak=first.away_id)
    final = cup.matches.get(round=2, cup_slot=0)
    assert final.home_id == first.away_id  # the tiebreak winner goes through


def test_cup_byes_reach_a_power_of_two_and_advance(season_with, board_member):
    season, teams = season_with(4, 3)
    order = [t.pk for t in teams]  # 7 teams: one bye for the first drawn
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=order, by=board_member)
    first_round = list(cup.matches.filter(round=1).order_by("cup_slot"))
    assert len(first_round) == 4 and first_round[0].status == Match.Status.BYE
    semi = cup.matches.get(round=2, cup_slot=0)
    assert semi.home_id == order[0] and semi.away_id is None
    play(first_round[1], 2, 0, board_member)
    semi.refresh_from_db()
    assert semi.away_id == first_round[1].home_id


def test_a_random_draw_is_recorded(season_with, board_member):
    season, teams = season_with(4, 3)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, by=board_member)
    assert sorted(cup.draw) == sorted(t.pk for t in teams) and cup.drawn_randomly
    with pytest.raises(SeasonError, match="already drawn"):
        draw_cup(season, teams=teams, name="Cup 2", prize=0, by=board_member)


def run_season(season, board_member, scores):
    """Play every league match: scores(match) -> (home, away)."""
    for division in season.divisions.all():
        generate_fixtures(division)
    start_season(season)
    for match in Match.objects.filter(season=season, division__isnull=False).order_by("round", "pk"):
        home, away = scores(match)
        play(match, home, away, board_member)


def test_season_end_pays_prizes_moves_teams_and_is_done_once_r32_r33(season_with, board_member):
    season, teams = season_with(4, 3)
    rank = {t.pk: i for i, t in enumerate(teams)}  # the earlier team wins every match
    run_season(season, board_member, lambda m: (2, 0) if rank[m.home_id] < rank[m.away_id] else (0, 1))
    a, _b, _c, _d, e, _f, _g = teams
    nig = a.players.first()
    nig.niggling = 3
    nig.save()
    plan = season_end_preview(season)
    assert plan.problems == []
    assert [(t.name, amount) for t, amount, _ in plan.prizes] == [
        ("Team A", 60_000),
        ("Team B", 40_000),
        ("Team C", 20_000),
        ("Team E", 30_000),
        ("Team F", 10_000),
    ]
    assert [t.name for t in plan.promoted] == ["Team E"] and [t.name for t in plan.relegated] == ["Team D"]
    before = {t.pk: treasury(t) for t in teams}
    next_season = commit_season_end(season, by=board_member, next_name="Season 2")
    assert treasury(a) == before[a.pk] + 60_000 and treasury(e) == before[e.pk] + 30_000
    assert Team.objects.get(pk=e.pk).fan_factor == e.fan_factor + 1  # promoted: +1 FF (R32)
    assert Team.objects.get(pk=a.pk).trophy_rerolls == 1 and Team.objects.get(pk=e.pk).trophy_rerolls == 1
    assert Player.objects.get(pk=nig.pk).niggling == 1  # R33
    assert season.__class__.objects.get(pk=season.pk).status == Season.Status.FINISHED
    d1, d2 = next_season.divisions.order_by("level")
    assert {x.team.name for x in d1.entries.all()} == {"Team A", "Team B", "Team C", "Team E"}
    assert {x.team.name for x in d2.entries.all()} == {"Team D", "Team F", "Team G"}
    # committing twice does nothing the second time
    again = commit_season_end(season, by=board_member, next_name="Season 3")
    assert again == next_season and treasury(a) == before[a.pk] + 60_000
    assert Season.objects.count() == 2 and SeasonEnd.objects.count() == 1


def test_season_end_waits_for_unplayed_matches_and_ties(season_with, board_member):
    season, _teams = season_with(4, 3)
    for division in season.divisions.all():
        generate_fixtures(division)
    plan = season_end_preview(season)
    assert any("not played" in p for p in plan.problems)
    with pytest.raises(SeasonError):
        commit_season_end(season, by=board_member, next_name="S2")
    # every match drawn 1-1: everyone tied; the table cannot split the top
    for match in Match.objects.filter(season=season):
        play(match, 1, 1, board_member)
    plan = season_end_preview(season)
    assert any("tiebreak" in p for p in plan.problems)


def test_tiebreak_game_splits_a_tie_r31(season_with, board_member):
    season, teams = season_with(2, 2)
    d1 = season.divisions.get(level=1)
    generate_fixtures(d1)
    for match in Match.objects.filter(division=d1):
        play(match, 1, 1, board_member)
    assert [x.tied for x in division_lines(d1)] == [True, True]
    a, b = teams[:2]
    record_tiebreak(d1, winner=b, loser=a, by=board_member)
    assert [(x.team, x.position) for x in division_lines(d1)] == [(b.pk, 1), (a.pk, 2)]


def test_a_tiebreak_game_taken_back_leaves_the_tie_and_an_ended_seasons_stay_r31(season_with, board_member):
    """A tiebreak game recorded by mistake is taken back while the season runs: the table is tied again
    (R31). Once the season has ended its tables are history: no game is recorded or taken back."""
    season, teams = season_with(2, 2)
    d1 = season.divisions.get(level=1)
    generate_fixtures(d1)
    for match in Match.objects.filter(division=d1):
        play(match, 1, 1, board_member)
    a, b = teams[:2]
    wrong = record_tiebreak(d1, winner=a, loser=b, by=board_member)
    assert [(x.team, x.position) for x in division_lines(d1)] == [(a.pk, 1), (b.pk, 2)]
    with pytest.raises(SeasonError, match="take it back first"):  # the other result: one is a mistake
        record_tiebreak(d1, winner=b, loser=a, by=board_member)
    withdraw_tiebreak(wrong)
    assert [x.tied for x in division_lines(d1)] == [True, True]
    withdraw_tiebreak(wrong)  # a second press: already gone, nothing else changes
    right = record_tiebreak(d1, winner=b, loser=a, by=board_member)
    for division in season.divisions.exclude(pk=d1.pk):
        first_match, return_match = generate_fixtures(division)
        play(first_match, 1, 0, board_member)  # 4 points to 1: no tie to split there
        play(return_match, 0, 0, board_member)
    commit_season_end(season, by=board_member, next_name="S2")
    with pytest.raises(SeasonError, match="has ended: its tables are history"):
        withdraw_tiebreak(right)
    with pytest.raises(SeasonError, match="has ended: its tables are history"):
        record_tiebreak(d1, winner=a, loser=b, by=board_member)
    assert list(TiebreakGame.objects.all()) == [right]
    assert [(x.team, x.position) for x in division_lines(d1)] == [(b.pk, 1), (a.pk, 2)]


def test_the_tables_rank_by_head_to_head_and_the_tiebreak_game_in_three_reads_r31(
    season_with, board_member, django_assert_num_queries
):
    """The tables are the divisions, their entries with their kept lines, and the recorded tiebreak games,
    in three reads whatever the league's size; a tie that gets past head-to-head points, touchdown
    difference and touchdowns scored is split by the tiebreak game (R31)."""
    season, teams = season_with(2, 1)  # the 2nd division's one team is no tie
    d1 = season.divisions.get(level=1)
    first, second = generate_fixtures(d1)
    a, b = teams[:2]
    play(first, 2, 1, board_member)  # the home team wins: 3 points to 0 (R31)
    season = Season.objects.select_related("ruleset", "cup").get(pk=season.pk)
    with django_assert_num_queries(3):
        board = season_board(season, latest=0, upcoming=0, bracket="none")
    assert [(x.team, x.points, x.position) for x in board.tables[0].lines] == [
        (first.home_id, 3, 1),
        (first.away_id, 0, 2),
    ]
    play(second, 2, 1, board_member)  # the other home win: 3 points each, 3 head-to-head, TD 3-3 each
    with django_assert_num_queries(3):
        board = season_board(season, latest=0, upcoming=0, bracket="none")
    assert [x.tied for x in board.tables[0].lines] == [True, True]
    record_tiebreak(d1, winner=b, loser=a, by=board_member)
    with django_assert_num_queries(3):
        board = season_board(season, latest=0, upcoming=0, bracket="none")
    assert [(x.team, x.position, x.tied) for x in board.tables[0].lines] == [(b.pk, 1, False), (a.pk, 2, False)]


def test_rerolls_cost_double_once_the_season_has_begun_r7(season_with, board_member):
    from teams.services import reroll_phase

    season, teams = season_with(2, 2)
    for division in season.divisions.all():
        generate_fixtures(division)
    start_season(season)
    assert reroll_phase(teams[0]) == "offseason"  # no match played yet
    play(Match.objects.filter(season=season).first(), 1, 0, board_member)
    assert reroll_phase(teams[0]) == "season"


def test_season_board_reads_everything(season_with, board_member):
    season, _teams = season_with(4, 3)
    run_season(season, board_member, lambda m: (1, 0))
    board = season_board(season)
    assert [t.division.level for t in board.tables] == [1, 2]
    assert len(board.latest) == 8 and board.upcoming == []
