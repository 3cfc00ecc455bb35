"""A die that cannot show a number is refused naming the die (the coach reads which one to fix), and a
call with the defaults is the rulebook's ordinary case (R13: ordinary tickets). No database, no Django."""

from __future__ import annotations

import pytest

import league.rules as rules

R = rules.default_ruleset()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: R.vandalised(4, None), "a D6 is needed to check for vandalism"),
        (lambda: R.vandalised(4, 7), "roll: a D6 shows 1–6, not 7"),
        (lambda: R.kiosk_income(0), "roll: a D6 shows 1–6, not 0"),
        (lambda: R.apothecary_succeeds(7), "roll: a D6 shows 1–6, not 7"),
        (lambda: R.regenerates(0), "roll: a D6 shows 1–6, not 0"),
        (lambda: R.niggling_check_fails(7), "roll: a D6 shows 1–6, not 7"),
        (lambda: R.apprentice_outcome(0), "roll: a D6 shows 1–6, not 0"),
        (lambda: R.bandage_crew_succeeds(1, 7), "roll: a D6 shows 1–6, not 7"),
        (lambda: R.bandage_crew_target(4), "the Bandage Crew makes at most 3 attempts"),
        (lambda: R.bandage_crew_target(0), "the Bandage Crew makes at most 3 attempts"),
        (lambda: R.apothecary_cost("pray"), "'pray' is not an apothecary action"),
        (
            lambda: R.fan_factor_change(0, fan_factor=1, result="win", touchdowns=0, casualties=0),
            "roll: a D6 shows 1–6, not 0",
        ),
        (lambda: R.mutation("Bony Growth", 5), "d4: a D4 shows 1–4, not 5"),
        (lambda: R.level_ups(-1, 3), "spp_before must be a whole number of 0 or more, not -1"),
        (lambda: R.level_ups(3, -1), "spp_after must be a whole number of 0 or more, not -1"),
        (lambda: R.skill_points(-1), "spp must be a whole number of 0 or more, not -1"),
        (lambda: R.cheerleaders_value(-1), "count must be a whole number of 0 or more, not -1"),
        (lambda: R.expansion_cost(-1), "capacity must be a whole number of 0 or more, not -1"),
    ],
)
def test_a_refusal_names_what_is_wrong(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("lookup", ["injury", "weather", "kickoff", "development", "tzeentch_mutation"])
def test_a_2d6_table_names_the_die_that_is_wrong(lookup):
    with pytest.raises(ValueError) as info:
        getattr(R, lookup)(0, 3)
    assert str(info.value) == "d1: a D6 shows 1–6, not 0"
    with pytest.raises(ValueError) as info:
        getattr(R, lookup)(3, 7)
    assert str(info.value) == "d2: a D6 shows 1–6, not 7"


def test_the_defaults_are_the_ordinary_case_r13_r14():
    assert R.gate([3, 4], home=True) == (4 + 5) * 1000  # ordinary tickets: home +1 a die only
    assert R.gate([3, 4], home=False) == (2 + 3) * 1000
    assert R.vandalism_target(70000, 0, 60000) == 2  # not neutral: the team's own capacity
    assert R.seats_destroyed(70000, 0, 60000) == 5000  # no caretakers, not neutral
    assert R.weather(1, 2).key == "very_sunny"  # no roof (R39)
    assert R.winnings(3, team_rating=100, attendance=0, capacity=60000, won=False, home=False) == 30000
