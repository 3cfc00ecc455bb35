"""Dice are records: a purpose is rolled once, entered dice are validated (issue 6)."""

import pytest

from matches.dice import DiceError, parse_entered, roll
from matches.models import DiceRoll
from tests.match_classes import OneScheduledMatch

pytestmark = pytest.mark.django_db


class TestAScheduledMatch(OneScheduledMatch):
    """The scheduled league match, built once for the class (tests/conftest.py,
    set_up_test_data); each test changes it in a savepoint of its own."""

    def test_a_purpose_is_rolled_once_and_returned_again(self, league_match, coach):
        first = roll(league_match, "weather", step="weather", count=2, by=coach)
        again = roll(league_match, "weather", step="weather", count=2, by=coach)
        assert first.pk == again.pk and first.values == again.values and not first.entered
        assert all(1 <= v <= 6 for v in first.values) and first.kind == "2D6"
        # entered values for a purpose already rolled do not replace it
        assert roll(league_match, "weather", step="weather", count=2, entered=[6, 6]).values == first.values

    def test_entered_dice_are_recorded_as_entered(self, league_match, coach):
        d = roll(league_match, "gate:home", step="gate", sides=5, count=3, entered=[5, 1, 3], by=coach)
        assert (d.entered, d.values, d.kind, d.total) == (True, [5, 1, 3], "3D5", 9)

    @pytest.mark.parametrize(
        ("sides", "count", "d66", "values", "message"),
        [
            (5, 1, False, [6], "A D5 shows 1–5, not 6"),
            (6, 1, False, [0], "A D6 shows 1–6, not 0"),
            (6, 2, True, [7, 1], "A D66 is two dice of 1–6"),
            (6, 3, False, [1, 2], "3 dice of D6 are needed, not 2"),
        ],
    )
    def test_impossible_entered_dice_are_refused_with_a_message(self, league_match, sides, count, d66, values, message):
        with pytest.raises(DiceError, match=message):
            roll(league_match, "x", step="x", sides=sides, count=count, d66=d66, entered=values)
        assert not DiceRoll.objects.exists()

    def test_a_d66_total_reads_tens_and_units(self, league_match):
        d = roll(league_match, "si", step="injuries", d66=True, entered=[4, 2])
        assert (d.kind, d.shown, d.total) == ("D66", "42", 42)


def test_typed_dice_are_read_leniently():
    assert parse_entered("3 5 1", sides=6, count=3) == [3, 5, 1]
    assert parse_entered("3,5+1", sides=6, count=3) == [3, 5, 1]
    assert parse_entered("35", sides=6, count=2, d66=True) == [3, 5]
    with pytest.raises(DiceError, match="numbers"):
        parse_entered("three", sides=6, count=1)
