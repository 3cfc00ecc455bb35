"""What a roster may hold and what it costs (R5-R8, the settings' defaults in
league/rules/data/torshov_2006.json), at each limit and one past it. No database, no Django."""

from __future__ import annotations

import pytest

import league.rules as rules
from league.rules import PositionSpec, RaceSpec, RosterPlan, RosterProblem

R = rules.default_ruleset()
LINEMAN = PositionSpec("line", "Lineman", 16, 50000)
BLITZER = PositionSpec("blitz", "Blitzer", 4, 90000)
OGRE = PositionSpec("ogre", "Ogre", 1, 120000, big_guy=True, allied=("Human",))
TROLL = PositionSpec("troll", "Troll", 1, 110000, big_guy=True, allied=("Orc",))
HUMAN = RaceSpec("Human", 50000, True, (LINEMAN, BLITZER), (OGRE, TROLL))
UNDEAD = RaceSpec("Undead", 70000, False, (PositionSpec("skel", "Skeleton", 16, 40000),))


def codes(problems: list[RosterProblem]) -> list[str]:
    return [p.code for p in problems]


def plan(line: int = 11, **kwargs) -> RosterPlan:
    return RosterPlan(players={"line": line, **kwargs.pop("players", {})}, **kwargs)


def test_a_legal_team_has_no_problems_r5():
    assert R.roster_problems(HUMAN, plan(11, rerolls=8, fan_factor=9), creation=True) == []
    assert R.creation_problems(HUMAN, plan(11)) == []


@pytest.mark.parametrize(("count", "problem"), [(4, []), (5, ["position_limit"])])
def test_a_position_s_limit(count, problem):
    problems = R.roster_problems(HUMAN, plan(11, players={"blitz": count}), creation=False)
    assert codes(problems) == problem
    if problem:
        assert problems[0].params == {"max": 4, "position": "Blitzer", "count": 5}
        assert str(problems[0]) == problems[0].message == "Blitzer: at most 4 (you have 5)."


@pytest.mark.parametrize(("count", "problem"), [(25, []), (26, ["too_many_players"])])
def test_at_most_25_players_r5(count, problem):
    blitz = 4
    p = plan(count - blitz, players={"blitz": blitz})
    if count - blitz > 16:  # more linemen than the position allows: split over a roomier race
        race = RaceSpec("Human", 50000, True, (PositionSpec("line", "Lineman", 30, 50000), BLITZER))
    else:
        race = HUMAN
    problems = R.roster_problems(race, p, creation=False)
    assert codes(problems) == problem
    if problem:
        assert problems[0].message == "At most 25 players on the roster (you have 26)."


@pytest.mark.parametrize(
    ("count", "creation", "problem"), [(11, True, []), (10, True, ["too_few_players"]), (3, False, [])]
)
def test_at_least_11_players_at_creation_r5(count, creation, problem):
    problems = R.roster_problems(HUMAN, plan(count), creation=creation)
    assert codes(problems) == problem
    if problem:
        assert problems[0].params == {"min": 11, "count": 10}
        assert problems[0].message == "At least 11 players at creation (you have 10)."


@pytest.mark.parametrize(("rerolls", "problem"), [(8, []), (9, ["reroll_limit"])])
def test_at_most_8_team_rerolls_r5(rerolls, problem):
    problems = R.roster_problems(HUMAN, plan(rerolls=rerolls), creation=False)
    assert codes(problems) == problem
    if problem:
        assert problems[0].message == "At most 8 team re-rolls (you would have 9)."


@pytest.mark.parametrize(
    ("ff", "creation", "problem"), [(9, True, []), (10, True, ["fan_factor_limit"]), (10, False, [])]
)
def test_fan_factor_at_most_9_at_creation_r5(ff, creation, problem):
    problems = R.roster_problems(HUMAN, plan(fan_factor=ff), creation=creation)
    assert codes(problems) == problem
    if problem:
        assert problems[0].message == "Fan factor can be bought up to 9 at creation (you asked for 10)."


def test_no_apothecary_for_undead_r5():
    problems = R.roster_problems(UNDEAD, RosterPlan(players={"skel": 11}, apothecary=True), creation=True)
    assert codes(problems) == ["no_apothecary"]
    assert problems[0].message == "Undead may not have an apothecary."
    assert R.roster_problems(HUMAN, plan(apothecary=True), creation=True) == []


def test_big_guys_one_and_only_allied_r5():
    assert R.roster_problems(HUMAN, plan(players={"ogre": 1}), creation=False) == []
    problems = R.roster_problems(HUMAN, plan(players={"troll": 1}), creation=False)
    assert codes(problems) == ["big_guy_not_allied"]
    assert problems[0].message == "Troll does not play for Human."
    problems = R.roster_problems(HUMAN, plan(players={"ogre": 2}), creation=False)
    assert codes(problems) == ["big_guy_limit"]  # a Big Guy is never held to his position's max
    assert problems[0].message == "At most 1 Big Guy on a team (you have 2)."
    problems = R.roster_problems(HUMAN, plan(players={"ogre": 1, "troll": 1}), creation=False)
    assert codes(problems) == ["big_guy_not_allied", "big_guy_limit"]
    assert problems[1].params == {"max": 1, "count": 2}


def test_an_unknown_position_and_an_empty_one():
    problems = R.roster_problems(HUMAN, plan(players={"wizard": 1}), creation=False)
    assert codes(problems) == ["unknown_position"]
    assert problems[0].message == "wizard is not a position of Human."
    assert R.roster_problems(HUMAN, plan(players={"wizard": 0}), creation=False) == []  # none of it: no problem


@pytest.mark.parametrize(
    ("field", "what"),
    [
        ("rerolls", "rerolls"),
        ("fan_factor", "fan factor"),
        ("assistant_coaches", "assistant coaches"),
        ("cheerleaders", "cheerleaders"),
    ],
)
def test_nothing_negative(field, what):
    problems = R.roster_problems(HUMAN, plan(**{field: -1}), creation=False)
    assert codes(problems) == ["negative"]
    assert problems[0].message == f"{what} cannot be negative."
    assert R.roster_problems(HUMAN, plan(**{field: 0}), creation=False) == []


def test_a_negative_player_count():
    problems = R.roster_problems(HUMAN, plan(players={"blitz": -1}), creation=False)
    assert problems[0].code == "negative" and problems[0].params == {"what": "players"}


def test_creation_cost_r5_r6_r7():
    """Players at list price, re-rolls at the race's base price (R7: at creation), 10,000 a fan factor
    point and an assistant coach, cheerleaders progressively (R6), the apothecary 50,000 (R5)."""
    p = RosterPlan(
        players={"line": 11, "blitz": 2, "wizard": 3},
        rerolls=2,
        fan_factor=3,
        assistant_coaches=2,
        cheerleaders=3,
        apothecary=True,
    )
    expected = 11 * 50000 + 2 * 90000 + 2 * 50000 + 3 * 10000 + 2 * 10000 + (10000 + 20000 + 30000) + 50000
    assert R.creation_cost(HUMAN, p) == expected  # an unknown position costs nothing
    assert R.creation_cost(HUMAN, RosterPlan()) == 0


@pytest.mark.parametrize(("budget", "over"), [(None, False), (1_000_000, False), (999_999, True)])
def test_a_team_over_the_starting_treasury_r5(budget, over):
    p = RosterPlan(players={"line": 12, "blitz": 3}, rerolls=1, fan_factor=3, apothecary=True, assistant_coaches=0)
    cost = 12 * 50000 + 3 * 90000 + 50000 + 3 * 10000 + 50000
    assert cost == 1_000_000 == R.creation_cost(HUMAN, p)
    problems = R.creation_problems(HUMAN, p, budget=budget) if budget is not None else R.creation_problems(HUMAN, p)
    assert codes(problems) == (["over_budget"] if over else [])
    if over:
        assert problems[0].message == "The team costs 1,000,000 but the treasury holds 999,999."


def test_over_budget_comes_first():
    p = RosterPlan(players={"line": 5}, rerolls=0)
    problems = R.creation_problems(HUMAN, p, budget=0)
    assert codes(problems) == ["over_budget", "too_few_players"]


def test_a_race_finds_its_positions_and_big_guys():
    assert HUMAN.position("blitz") is BLITZER
    assert HUMAN.position("ogre") is OGRE
    assert HUMAN.position("nobody") is None
    assert RosterPlan(players={"a": 2, "b": 3}).player_count == 5
