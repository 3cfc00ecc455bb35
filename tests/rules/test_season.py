"""The double round robin, the cup bracket and the standings (R31, R34), pure and without a database."""

from collections import Counter
from itertools import permutations

import pytest

from league.rules import Result, cup_first_round, cup_rounds, default_ruleset, double_round_robin
from league.rules.season import side_outcome

R = default_ruleset()


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 13])
def test_every_pair_meets_once_at_each_home_r31(n):
    teams = list(range(1, n + 1))
    fixtures = double_round_robin(teams)
    assert Counter((f.home, f.away) for f in fixtures) == Counter(permutations(teams, 2))
    rounds = {f.round for f in fixtures}
    expected_rounds = 2 * (n - 1) if n % 2 == 0 else 2 * n  # byes for odd counts
    assert rounds == set(range(1, expected_rounds + 1))
    for r in rounds:  # nobody plays twice in a round
        playing = [t for f in fixtures if f.round == r for t in (f.home, f.away)]
        assert len(playing) == len(set(playing))
        assert len(playing) == n - (n % 2)  # one bye a round when odd


@pytest.mark.parametrize("n", [6, 7])
def test_home_and_away_are_spread_evenly(n):
    teams = list(range(1, n + 1))
    fixtures = double_round_robin(teams)
    half = max(f.round for f in fixtures) // 2
    for t in teams:
        for rounds in (range(1, half + 1), range(half + 1, 2 * half + 1)):
            home = sum(1 for f in fixtures if f.round in rounds and f.home == t)
            away = sum(1 for f in fixtures if f.round in rounds and f.away == t)
            assert abs(home - away) <= 1, (t, home, away)
        # never more than two home (or away) games in a row
        sequence = [
            ("H" if f.home == t else "A") for f in sorted(fixtures, key=lambda f: f.round) if t in (f.home, f.away)
        ]
        assert "HHH" not in "".join(sequence) and "AAA" not in "".join(sequence)


def test_six_teams_play_ten_rounds_of_three_matches():
    fixtures = double_round_robin(["A", "B", "C", "D", "E", "F"])
    assert len(fixtures) == 30
    assert Counter(f.round for f in fixtures) == {r: 3 for r in range(1, 11)}


def test_seven_teams_play_fourteen_rounds_with_a_bye():
    fixtures = double_round_robin(list("ABCDEFG"))
    assert len(fixtures) == 42
    assert Counter(f.round for f in fixtures) == {r: 3 for r in range(1, 15)}
    byes = Counter(
        t
        for r in range(1, 15)
        for t in "ABCDEFG"
        if t not in {x for f in fixtures if f.round == r for x in (f.home, f.away)}
    )
    assert byes == {t: 2 for t in "ABCDEFG"}


def test_a_team_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        double_round_robin(["A", "A", "B"])


@pytest.mark.parametrize(("n", "byes", "rounds"), [(2, 0, 1), (3, 1, 2), (5, 3, 3), (8, 0, 3), (13, 3, 4)])
def test_cup_first_round_gives_byes_to_reach_a_power_of_two_r34(n, byes, rounds):
    pairs = cup_first_round(list(range(n)))
    assert sum(1 for _, away in pairs if away is None) == byes
    assert len(pairs) & (len(pairs) - 1) == 0  # the next round is a power of two
    assert sorted(t for pair in pairs for t in pair if t is not None) == list(range(n))
    assert cup_rounds(n) == rounds


def res(h, a, hs, as_, hc=0, ac=0):
    return Result(h, a, hs, as_, hc, ac)


def test_standings_count_points_touchdowns_and_casualties_r31():
    lines = R.standings(["A", "B", "C"], [res("A", "B", 2, 1, 3, 1), res("B", "C", 1, 1), res("C", "A", 0, 3, 0, 2)])
    a, b, c = lines
    assert (
        a.team,
        a.played,
        a.won,
        a.points,
        a.touchdowns_for,
        a.touchdowns_against,
        a.casualties_for,
        a.casualties_against,
    ) == ("A", 2, 2, 6, 5, 1, 5, 1)
    assert (b.team, b.points, b.drawn, b.lost) == ("B", 1, 1, 1)
    assert (c.team, c.points, c.touchdown_difference) == ("C", 1, -3)
    # B and C: 1 point each, 1-1 head to head; touchdown difference B -1, C -3
    assert [x.position for x in lines] == [1, 2, 3] and not any(x.tied for x in lines)


def test_head_to_head_splits_a_points_tie_r31():
    # A and B both 3 points; B beat A.
    lines = R.standings(["A", "B", "C"], [res("A", "C", 5, 0), res("B", "A", 1, 0), res("C", "B", 1, 0)])
    order = {x.team: x.position for x in lines}
    # all three have 3 points; head to head among the three: A 3 (beat C), B 3 (beat A), C 3 (beat B) →
    # then touchdown difference: A +4, B 0, C -4
    assert order == {"A": 1, "B": 2, "C": 3}


def test_head_to_head_between_two_r31():
    lines = R.standings(["A", "B", "C"], [res("A", "B", 0, 1), res("A", "C", 6, 0), res("C", "B", 1, 0)])
    # A 3 (TD +5), B 3 (TD 0), C 3 (TD -5): a three-way tie on points, head to head 3 each → TD difference
    assert [x.team for x in lines] == ["A", "B", "C"]
    lines = R.standings(["A", "B"], [res("A", "B", 0, 1), res("B", "A", 0, 4)])
    # 3 points each; head to head 3 each; TD difference A +3, B -3
    assert [x.team for x in lines] == ["A", "B"]


def test_an_unsplittable_tie_waits_for_the_tiebreak_game_r31():
    results = [res("A", "B", 1, 1), res("B", "A", 2, 2)]
    lines = R.standings(["A", "B"], results)
    assert all(x.tied and x.position == 1 for x in lines)
    lines = R.standings(["A", "B"], results, tiebreak_winners=["B"])
    assert [(x.team, x.position, x.tied) for x in lines] == [("B", 1, False), ("A", 2, False)]


@pytest.mark.parametrize(
    ("scored", "conceded", "tiebreak_won", "expected"),
    [
        (2, 1, None, "win"),
        (1, 2, None, "loss"),
        (1, 1, None, "draw"),  # a league match may end drawn (R31)
        (1, 1, True, "win"),  # a drawn cup match goes to its tiebreak winner (R34)
        (1, 1, False, "loss"),
        (2, 1, False, "win"),  # the score decides where it is not level
        (0, 2, True, "loss"),
    ],
)
def test_one_sides_outcome_gives_a_drawn_cup_match_to_its_tiebreak_winner_r34(scored, conceded, tiebreak_won, expected):
    assert side_outcome(scored, conceded, tiebreak_won=tiebreak_won) == expected


def test_the_table_race_ranks_each_round_with_the_rounds_before_it_r31():
    """Positions after each round, worked out by hand: round 1 A beats B 2–0 and C draws with D 1–1; round 2
    B beats C 3–0 and D beats A 1–0; round 3 only C and B play, C winning 1–0."""
    rounds = [
        [res("A", "B", 2, 0), res("C", "D", 1, 1)],
        [res("B", "C", 3, 0), res("D", "A", 1, 0)],
        [res("C", "B", 1, 0)],
    ]
    race = R.table_race(["A", "B", "C", "D"], rounds)
    # round 1: A 3 pts, C and D 1 each (level on head to head and touchdowns: shared 2nd), B 0
    assert race[0] == {"A": 1, "C": 2, "D": 2, "B": 4}
    # round 2: D 4 points; A and B 3 each, A ahead on head to head (it beat B); C 1
    assert race[1] == {"D": 1, "A": 2, "B": 3, "C": 4}
    # round 3: D and C 4 points, level on head to head (1–1), D ahead on touchdown difference (+1 to -2);
    # A and B 3 each, A ahead on head to head
    assert race[2] == {"D": 1, "C": 2, "A": 3, "B": 4}
    every = [result for played in rounds for result in played]
    assert race[-1] == {line.team: line.position for line in R.standings(["A", "B", "C", "D"], every)}


def test_a_table_race_with_no_rounds_is_empty_and_a_team_without_a_match_is_ranked_too():
    assert R.table_race(["A", "B"], []) == []
    assert R.table_race(["A", "B", "C"], [[res("A", "B", 1, 0)]]) == [{"A": 1, "C": 2, "B": 3}]
