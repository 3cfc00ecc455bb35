"""What a development roll lets the coach take (R29, R11's categories, R10's Tzeentch positions), the
MVP (R27) and a season's small sums (R31, R32). No database, no Django."""

from __future__ import annotations

import pytest

import league.rules as rules
from league.rules import MUTATION_CHOICE, STAT_CHOICE, SkillSpec, development_choices
from league.rules.season import Line

R = rules.default_ruleset()
SKILLS = [
    SkillSpec("Block", "G", "S"),
    SkillSpec("Dodge", "A", "S"),
    SkillSpec("Mighty Blow", "S", "S"),
    SkillSpec("Frenzy", "G", "T"),  # a General trait
    SkillSpec("Jump Up", "A", "T"),  # an Agility trait
    SkillSpec("Claw", "M", "T"),  # a mutation: only through the D4 tables
    SkillSpec("Regeneration", "", "T"),  # racial: never a choice
]
CATEGORIES = ("Bony Growth", "Extraordinary Appendage", "Chaotic Gift")  # the D4 mutation tables (R29)


def choices(result="skill", *, double=False, normal="G", other="ASP", owned=(), stat=None, always=False):
    return development_choices(
        result=result,
        is_double=double,
        normal=normal,
        double=other,
        skills=SKILLS,
        owned=owned,
        stat_allowed=stat or {},
        mutation_categories=CATEGORIES,
        always_mutates=always,
    )


def test_a_skill_from_the_normal_categories_r29():
    assert choices() == ["Block"]
    assert choices(normal="GA") == ["Block", "Dodge"]
    assert choices(normal="GA", owned=["Block"]) == ["Dodge"]  # never twice


def test_doubles_open_traits_of_the_normal_and_skills_of_any_other_r29():
    assert choices(double=True) == ["Block", "Dodge", "Mighty Blow", "Frenzy"]
    assert choices(double=True, other="S") == ["Block", "Mighty Blow", "Frenzy"]  # not Jump Up: a trait elsewhere


@pytest.mark.parametrize("stat", ["MA", "AG", "ST"])
def test_the_stat_increase_when_within_two_r29(stat):
    assert choices(stat, stat={stat: True}) == [STAT_CHOICE + stat, "Block"]
    assert choices(stat, stat={stat: False}) == ["Block"]  # at +2 already: a skill instead
    assert choices(stat) == ["Block"]
    assert choices("skill", stat={"MA": True}) == ["Block"]  # 2–9 gives no stat


def test_mutations_need_doubles_and_m_except_for_tzeentch_r29_r10():
    mutations = [MUTATION_CHOICE + c for c in CATEGORIES]
    assert choices(double=True, normal="GM") == ["Block", "Dodge", "Mighty Blow", "Frenzy", *mutations]
    assert choices(double=False, normal="GM") == ["Block"]
    assert choices(double=True, normal="G") == ["Block", "Dodge", "Mighty Blow", "Frenzy"]
    assert choices(always=True) == ["Block", *mutations]
    assert all(R.may_always_mutate(p) for p in ("Tzeentch Cultist", "Tzeentch Warrior", "Warrior Riding Disc"))
    assert not R.may_always_mutate("Chaos Warrior")
    assert R.mutation_categories() == CATEGORIES


def test_development_options_r29():
    o = R.development_options(5, 5)  # 10: MA, on a double
    assert (o.result, o.is_double, o.stat, o.trait_normal, o.skill_any_other, o.normal_skill) == (
        "MA",
        True,
        "MA",
        True,
        True,
        True,
    )
    o = R.development_options(3, 4)  # 7: a skill
    assert (o.result, o.is_double, o.stat, o.trait_normal, o.skill_any_other) == ("skill", False, None, False, False)


def test_a_mutation_from_its_d4_table_r29():
    raw = rules.default_data()["tables"]["mutations"]
    for category, results in raw.items():
        assert [R.mutation(category, d4) for d4 in (1, 2, 3, 4)] == results
    for bad in (0, 5):
        with pytest.raises(ValueError, match="D4"):
            R.mutation("Bony Growth", bad)
    with pytest.raises(ValueError, match="'Wings' is not a mutation category"):
        R.mutation("Wings", 1)


def test_stat_changes_within_two_r29_r41():
    assert R.stat_change_allowed(3, 4, 1) and not R.stat_change_allowed(3, 5, 1)
    assert R.stat_change_allowed(3, 2, -1) and not R.stat_change_allowed(3, 1, -1)


def test_spp_per_deed_r28():
    assert R.spp(completions=1) == 1
    assert R.spp(touchdowns=1) == 3
    assert R.spp(interceptions=1) == 2
    assert R.spp(casualties=1) == 2
    assert R.spp(fouls=1) == 1
    assert R.spp(mvps=1) == 5
    assert R.spp(completions=2, touchdowns=2, interceptions=2, casualties=2, fouls=2, mvps=2) == 2 * (
        1 + 3 + 2 + 2 + 1 + 5
    )
    assert R.spp_award("touchdown") == 3


def test_mvp_r27():
    assert R.receives_mvp(4) and not R.receives_mvp(5)
    assert R.mvp_candidates(["a"], ["a", "b"]) == ["a"]
    assert R.mvp_candidates([], ["a", "b"]) == ["a", "b"]


@pytest.mark.parametrize("bad", [-1, True, "5"])
def test_skill_points_and_level_ups_refuse_what_is_not_spp(bad):
    for call in (lambda: R.skill_points(bad), lambda: R.level_ups(bad, 10), lambda: R.level_ups(0, bad)):
        with pytest.raises(ValueError, match="spp"):
            call()


def test_points_prizes_and_a_line_r31_r32():
    assert [R.outcome_points(2, 1), R.outcome_points(1, 1), R.outcome_points(0, 1)] == [3, 1, 0]
    assert R.points("draw") == 1
    assert R.prizes(1) == (60000, 40000, 20000) and R.prizes("2") == (30000, 10000) and R.prizes(3) == ()
    line = Line(
        "a",
        played=2,
        won=1,
        drawn=1,
        lost=0,
        touchdowns_for=3,
        touchdowns_against=1,
        casualties_for=4,
        casualties_against=2,
        points=4,
        position=1,
        tied=True,
    )
    assert line.as_dict() == {
        "position": 1,
        "tied": True,
        "played": 2,
        "won": 1,
        "drawn": 1,
        "lost": 0,
        "touchdowns_for": 3,
        "touchdowns_against": 1,
        "touchdown_difference": 2,
        "casualties_for": 4,
        "casualties_against": 2,
        "points": 4,
    }


def test_kept_lines_are_ranked_by_the_ruleset_r31():
    a, b, c = Line("a", points=3), Line("b", points=6), Line("c", points=3, extra={"name": "A-lag"})
    ranked = R.rank_lines([a, b, c], {("a", "c"): 3})
    assert [(x.team, x.position, x.tied) for x in ranked] == [("b", 1, False), ("a", 2, False), ("c", 3, False)]
    a, c = Line("a", points=3, extra={"name": "Z"}), Line("c", points=3, extra={"name": "A"})
    ranked = R.rank_lines([a, c], {}, tiebreak_winners=())
    assert [(x.team, x.position, x.tied) for x in ranked] == [("c", 1, True), ("a", 1, True)]  # by name when tied
    ranked = R.rank_lines([a, c], {}, tiebreak_winners=["a"])
    assert [x.team for x in ranked] == ["a", "c"]


def test_settings_as_the_rules_page_lists_them():
    items = dict(R.settings_items())
    assert items["tr_divisor"] == "10000"
    assert items["reroll_percent"] == "creation: 100, season: 200, offseason: 150"
    assert items["tiebreakers"].startswith("points, head_to_head_points")
    assert items["prizes"] == "1: 60000, 40000, 20000, 2: 30000, 10000"
    assert items["fan_factor_change"].startswith("win: 1, draw: 0, loss: -1, touchdowns_needed: 2")
    assert items["retire_gives_assistant_coach"] == "True"
    assert repr(R) == "<Ruleset 'Torshov 2006'>"
