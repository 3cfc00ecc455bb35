"""How the dice should fall and the test of fit (league.rules.dice_odds). No database, no Django.

The odds are checked against the rulebook's dice: a D6 (the armour, injury and most tables), 2D6
(weather, kick-off, development, R29), the D66 of the serious injury and handicap tables, the gate's
D5 of the 2nd division (R12) and the D4 of a mutation's category. The chi-square tail is checked
against the printed critical values of the distribution (any statistics table).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import league.rules as rules
from league.rules.dice_odds import MIN_EXPECTED, VERY_UNUSUAL_P

TWO_D6_WAYS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def test_2d6_table_is_the_ways_over_36():
    odds = rules.expected_faces("2D6")
    assert odds == {total: Fraction(n, 36) for total, n in TWO_D6_WAYS.items()}
    assert odds[7] == Fraction(6, 36)
    assert odds[2] == odds[12] == Fraction(1, 36)


@pytest.mark.parametrize("sides", [3, 4, 5, 6, 8])
def test_one_die_is_uniform(sides):
    assert rules.expected_faces(f"D{sides}") == {face: Fraction(1, sides) for face in range(1, sides + 1)}


def test_d66_is_36_faces_of_one_in_36():
    odds = rules.expected_faces("D66")
    assert len(odds) == 36 and set(odds.values()) == {Fraction(1, 36)}
    assert min(odds) == 11 and max(odds) == 66 and 17 not in odds


@pytest.mark.parametrize("kind", ["D3", "D6", "D8", "2D6", "3D6", "D66"])
def test_odds_add_up_to_one(kind):
    assert sum(rules.expected_faces(kind).values()) == 1


def test_a_stored_roll_is_read_by_its_kind():
    assert rules.read_roll(count=1, sides=6, d66=False, values=[4]) == [("D6", 4)]
    assert rules.read_roll(count=2, sides=6, d66=False, values=[3, 4]) == [("2D6", 7)]
    assert rules.read_roll(count=2, sides=6, d66=True, values=[3, 4]) == [("D66", 34)]
    # the gate's FF dice and the niggling checks: each die by itself
    assert rules.read_roll(count=3, sides=5, d66=False, values=[1, 5, 2]) == [("D5", 1), ("D5", 5), ("D5", 2)]
    assert rules.read_roll(count=1, sides=1, d66=False, values=[1]) == []  # an MVP among one


# --- the chi-square tail against the printed critical values --------------------------------------
@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [
        (3.841, 1, 0.05),
        (10.828, 1, 0.001),
        (11.070, 5, 0.05),
        (20.515, 5, 0.001),
        (18.307, 10, 0.05),
        (29.588, 10, 0.001),
        (49.802, 35, 0.05),
        (66.619, 35, 0.001),
    ],
)
def test_chi_square_tail_matches_the_tables(statistic, dof, p):
    assert rules.chi_square_survival(statistic, dof) == pytest.approx(p, rel=2e-3)


def test_chi_square_tail_of_nothing_is_one():
    assert rules.chi_square_survival(0.0, 5) == 1.0


@given(st.floats(min_value=0.0, max_value=200.0), st.floats(min_value=0.0, max_value=200.0), st.integers(1, 40))
def test_chi_square_tail_falls_as_the_statistic_grows(a, b, dof):
    low, high = sorted((a, b))
    p_low, p_high = rules.chi_square_survival(low, dof), rules.chi_square_survival(high, dof)
    assert 0.0 <= p_high <= p_low + 1e-12 <= 1.0 + 1e-12


# --- the verdict -----------------------------------------------------------------------------------
def test_too_few_below_five_expected_per_face_and_judged_at_five():
    # a D6 expects rolls/6 per face: 29 rolls expect 4.83, 30 rolls exactly 5
    fair_29 = {face: 5 for face in range(1, 7)} | {6: 4}
    assert rules.dice_fit("D6", fair_29).verdict == rules.FitVerdict.TOO_FEW
    assert rules.dice_fit("D6", fair_29).p_value is None
    fair_30 = {face: 5 for face in range(1, 7)}
    assert rules.dice_fit("D6", fair_30).verdict == rules.FitVerdict.ORDINARY


def test_2d6_needs_180_rolls_for_its_rarest_face():
    # 2 and 12 come on 1/36: 5 expected at 180 rolls, 4.97 at 179
    fair = {total: 5 * n for total, n in TWO_D6_WAYS.items()}
    assert sum(fair.values()) == 180
    assert rules.dice_fit("2D6", fair).verdict == rules.FitVerdict.ORDINARY
    one_less = fair | {7: fair[7] - 1}
    assert rules.dice_fit("2D6", one_less).verdict == rules.FitVerdict.TOO_FEW


@given(st.integers(min_value=0, max_value=MIN_EXPECTED * 6 - 1))
def test_a_d6_under_thirty_rolls_is_never_judged(rolls):
    faces = [1 + i % 6 for i in range(rolls)]
    assert rules.dice_fit("D6", faces).verdict == rules.FitVerdict.TOO_FEW


@given(st.integers(min_value=MIN_EXPECTED, max_value=500), st.sampled_from(["D3", "D4", "D6", "D8", "2D6"]))
def test_a_perfect_fit_gives_p_one(per_unit, kind):
    odds = rules.expected_faces(kind)
    unit = max(p.denominator for p in odds.values())
    counts = {face: int(p * unit * per_unit) for face, p in odds.items()}
    fit = rules.dice_fit(kind, counts)
    assert fit.statistic == pytest.approx(0.0, abs=1e-9)
    assert fit.p_value == pytest.approx(1.0)
    assert fit.verdict == rules.FitVerdict.ORDINARY


@given(st.integers(min_value=60, max_value=2000), st.integers(min_value=1, max_value=6))
def test_a_loaded_die_gives_p_tiny(rolls, loaded_face):
    # half the rolls on one face, the rest shared out fairly
    faces = [loaded_face] * (rolls // 2) + [1 + i % 6 for i in range(rolls - rolls // 2)]
    fit = rules.dice_fit("D6", faces)
    assert fit.p_value < VERY_UNUSUAL_P
    assert fit.verdict == rules.FitVerdict.VERY_UNUSUAL


def test_unusual_between_one_in_twenty_and_one_in_a_thousand():
    # 60 D6 with 18 sixes: chi-square 7.8 on 5 degrees, p ≈ 0.17 (ordinary); 22 sixes: 17.4, p ≈ 0.004
    def with_sixes(sixes):
        rest = 60 - sixes
        return {face: rest // 5 + (1 if face <= rest % 5 else 0) for face in range(1, 6)} | {6: sixes}

    assert rules.dice_fit("D6", with_sixes(18)).verdict == rules.FitVerdict.ORDINARY
    assert rules.dice_fit("D6", with_sixes(22)).verdict == rules.FitVerdict.UNUSUAL
    assert rules.dice_fit("D6", with_sixes(30)).verdict == rules.FitVerdict.VERY_UNUSUAL


def test_a_face_the_die_does_not_have_is_refused():
    with pytest.raises(ValueError):
        rules.dice_fit("D6", {7: 40})
