"""The season end's rules without a database (issue 15): the places where a tie must be settled, and
who goes up and down (R31, R32: prizes 60,000 / 40,000 / 20,000 and 30,000 / 10,000; how many teams
move is a setting, default 1)."""

import pytest

import league.rules as rules


@pytest.mark.parametrize(
    ("team_count", "prizes", "count", "above", "below", "places"),
    [
        (7, 3, 1, False, True, {1, 2, 3, 7}),  # 1st division: title, three prizes, last place goes down
        (6, 2, 1, True, False, {1, 2}),  # 2nd division: title and promotion place, two prizes
        (6, 2, 2, True, True, {1, 2, 5, 6}),  # a middle division, two up and two down
        (5, 0, 0, True, True, {1}),  # nobody moves, no prizes: only the title
        (4, 3, 2, False, True, {1, 2, 3, 4}),  # the relegation places meet the prizes
    ],
)
def test_decisive_places(team_count, prizes, count, above, below, places):
    got = rules.decisive_places(
        team_count, prizes=prizes, promotion_count=count, division_above=above, division_below=below
    )
    assert got == places


def test_the_default_ruleset_decides_the_first_division_table():
    r = rules.default_ruleset()
    prizes = len(r.prizes(1))  # R32: three prizes in the 1st division
    places = rules.decisive_places(
        7, prizes=prizes, promotion_count=r.settings.promotion_count, division_above=False, division_below=True
    )
    assert places == {1, 2, 3, 7}


def test_one_up_one_down():
    moves = rules.promotion_and_relegation({1: ["A", "B", "C", "D"], 2: ["E", "F", "G"]}, 1)
    assert moves.promoted == ("E",) and moves.relegated == ("D",)
    assert moves.divisions == {1: ["A", "B", "C", "E"], 2: ["D", "F", "G"]}


def test_three_divisions_two_up_two_down():
    """The 2nd division's relegated pair is taken from its table after its own promotion."""
    moves = rules.promotion_and_relegation({3: ["K", "L", "M"], 1: ["A", "B", "C", "D"], 2: ["E", "F", "G", "H"]}, 2)
    assert moves.promoted == ("E", "F", "K", "L")
    assert moves.relegated == ("C", "D", "G", "H")
    assert moves.divisions == {1: ["A", "B", "E", "F"], 2: ["C", "D", "K", "L"], 3: ["G", "H", "M"]}


def test_nobody_moves_when_the_setting_is_zero():
    order = {1: ["A", "B"], 2: ["C", "D"]}
    moves = rules.promotion_and_relegation(order, 0)
    assert moves.promoted == () and moves.relegated == () and moves.divisions == order
