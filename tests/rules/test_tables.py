"""The rest of the rulebook's tables, validation of edited versions, and the package's purity."""

import copy
import subprocess
import sys

import pytest

import league.rules as rules
from league.rules import Ruleset, RulesetError, StandingRow, default_data

R = rules.default_ruleset()


def test_league_rules_never_imports_django():
    code = "import sys, league.rules as r; r.default_ruleset(); print(any(m.startswith('django') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_default_ruleset_loads_and_is_named():
    assert R.name == "Torshov 2006"
    assert R.settings.starting_treasury == 1_000_000  # R5
    assert len(R.tables.fan_factor_modifier.rows) == 30 and len(R.tables.fan_factor_modifier.columns) == 30


# --- revival table, apothecary, Bandage Crew (R25, R26, R9) -----------------------------------
@pytest.mark.parametrize(
    ("d66", "dice", "die", "niggling", "stat"),
    [
        (11, 0, 0, False, None),
        (13, 0, 0, False, None),
        (14, 1, 3, False, None),
        (21, 1, 4, False, None),
        (24, 1, 6, False, None),
        (31, 1, 6, True, None),
        (34, 1, 8, True, None),
        (41, 1, 10, True, None),
        (44, 2, 6, True, None),
        (51, 2, 6, True, "MA"),
        (53, 2, 6, True, "ST"),
        (54, 2, 6, True, "AG"),
        (55, 2, 6, True, "AV"),
        (61, 3, 6, True, "MA"),
        (63, 3, 6, True, "ST"),
        (64, 3, 6, True, "AG"),
        (66, 3, 6, True, "AV"),
    ],
)
def test_revival_table(d66, dice, die, niggling, stat):
    rev = R.revival(d66)
    assert (rev.dice, rev.die, rev.niggling, rev.stat, rev.plus) == (dice, die, niggling, stat, 3)


def test_revival_matches_to_miss_are_rolled():
    assert R.revival(12).miss_matches([]) == 3  # Blodtap: out 3 matches
    assert R.revival(15).miss_matches([2]) == 5  # 1D3 + 3
    assert R.revival(45).miss_matches([6, 6]) == 15  # 2D6 + 3
    with pytest.raises(ValueError, match="D3"):
        R.revival(15).miss_matches([4])
    with pytest.raises(ValueError, match="2 dice"):
        R.revival(45).miss_matches([3])


def test_apothecary_costs_and_target_r26():
    assert R.apothecary_cost("heal_dead") == 3
    assert R.apothecary_cost("heal_serious_injury") == 2
    assert R.apothecary_cost("heal_badly_hurt") == 1
    assert R.apothecary_cost("niggling_check") == 1
    assert R.apothecary_cost("revive_dead") == 1
    assert R.settings.apothecary_ap == 3
    assert [R.apothecary_succeeds(d) for d in range(1, 7)] == [False, True, True, True, True, True]


def test_bandage_crew_attempts_need_1_2_3_plus_r25():
    assert [R.bandage_crew_target(n) for n in (1, 2, 3)] == [1, 2, 3]
    assert R.bandage_crew_succeeds(1, 1)
    assert not R.bandage_crew_succeeds(2, 1) and R.bandage_crew_succeeds(2, 2)
    assert not R.bandage_crew_succeeds(3, 2) and R.bandage_crew_succeeds(3, 3)
    assert R.settings.bandage_crew_fee == 10000
    with pytest.raises(ValueError, match="at most 3"):
        R.bandage_crew_target(4)


def test_apprentice_and_familiar_r9():
    assert R.apprentice_outcome(1) == "killed"
    assert R.apprentice_outcome(2) == "revived"
    assert (R.settings.apprentice_players, R.settings.familiar_players, R.settings.apprentice_fee) == (1, 2, 10000)


def test_regeneration_3_plus_and_niggling_fails_on_1():
    assert [R.regenerates(d) for d in range(1, 7)] == [False, False, True, True, True, True]
    assert [R.niggling_check_fails(d) for d in range(1, 7)] == [True, False, False, False, False, False]


def test_injury_table():
    assert [R.injury(a, b).key for a, b in [(1, 1), (3, 4), (4, 4), (4, 5), (5, 5), (5, 6), (6, 6)]] == [
        "stunned",
        "stunned",
        "ko",
        "ko",
        "badly_hurt",
        "serious_injury",
        "dead",
    ]


# --- weather, kick-off, MVP, season ------------------------------------------------------------
def test_weather_and_the_roof_r39():
    assert R.weather(1, 1).key == "heatwave"
    assert R.weather(1, 2).key == "very_sunny"
    assert R.weather(2, 2).key == "nice" and R.weather(4, 6).key == "nice"
    assert R.weather(5, 6).key == "pouring_rain"
    assert R.weather(6, 6).key == "blizzard"
    assert R.weather(1, 2, roof=True).key == "nice"
    assert R.weather(5, 6, roof=True).key == "nice"
    assert R.weather(6, 6, roof=True).key == "blizzard"


def test_kickoff_table():
    assert R.kickoff(1, 1).key == "riot" and R.kickoff(6, 6).key == "pitch_invasion"
    assert R.kickoff(2, 3).key == "twelfth_player"


def test_mvp_until_five_received_r27():
    assert R.receives_mvp(0) and R.receives_mvp(4) and not R.receives_mvp(5)
    assert R.mvp_candidates(["a"], ["a", "b"]) == ["a"]
    assert R.mvp_candidates([], ["a", "b"]) == ["a", "b"]


def test_spp_awards_r28():
    assert R.spp(completions=1, touchdowns=1, interceptions=1, casualties=1, fouls=1, mvps=1) == 1 + 3 + 2 + 2 + 1 + 5


def test_points_and_prizes_r31_r32():
    assert (R.points("win"), R.points("draw"), R.points("loss")) == (3, 1, 0)
    assert R.prizes(1) == (60000, 40000, 20000)
    assert R.prizes(2) == (30000, 10000)


def test_standings_tie_breakers_r31():
    rows = [
        StandingRow("A", 9, 10, 5),
        StandingRow("B", 9, 8, 2),
        StandingRow("C", 9, 8, 2),
        StandingRow("D", 12, 3, 3),
        StandingRow("E", 4, 1, 9),
    ]
    # head-to-head among A, B, C: B beat A and C; A beat C → B 6, A 3, C 0
    h2h = {("B", "A"): 3, ("B", "C"): 3, ("A", "C"): 3}
    groups = R.order_standings(rows, h2h)
    assert [[r.team for r in g] for g in groups] == [["D"], ["B"], ["A"], ["C"], ["E"]]


def test_standings_unsplittable_tie_until_tiebreak_game_r31():
    rows = [StandingRow("A", 6, 5, 3), StandingRow("B", 6, 5, 3)]
    h2h = {("A", "B"): 3, ("B", "A"): 3}
    assert [[r.team for r in g] for g in R.order_standings(rows, h2h)] == [["A", "B"]]
    assert [[r.team for r in g] for g in R.order_standings(rows, h2h, tiebreak_winners=["B"])] == [["B"], ["A"]]


def test_standings_touchdown_difference_then_scored_r31():
    rows = [StandingRow("A", 6, 5, 3), StandingRow("B", 6, 7, 5), StandingRow("C", 6, 4, 1)]
    assert [g[0].team for g in R.order_standings(rows)] == ["C", "B", "A"]


# --- validation: a broken table is an error naming the table and the cell ----------------------
def broken(mutate):
    data = copy.deepcopy(default_data())
    mutate(data)
    return data


def test_a_non_number_in_the_ffm_names_row_and_column():
    data = broken(lambda d: d["tables"]["fan_factor_modifier"]["cells"][7].__setitem__(2, "x"))
    with pytest.raises(RulesetError) as err:
        Ruleset.from_data(data)
    assert err.value.table == "fan_factor_modifier"
    assert err.value.cell == "row 40, column 15"
    assert "'x' is not a whole number" in str(err.value)


def test_a_short_ffm_row_is_refused():
    data = broken(lambda d: d["tables"]["fan_factor_modifier"]["cells"][3].pop())
    with pytest.raises(RulesetError, match="row 20: 29 cells for 30 columns"):
        Ruleset.from_data(data)


def test_a_gap_in_the_winnings_rows_is_refused():
    data = broken(lambda d: d["tables"]["winnings"]["rows"][2].__setitem__("min", 40002))
    with pytest.raises(RulesetError, match=r"Kampbonus \(winnings\), row 3: gap between 20,001–40,000 and 40,002"):
        Ruleset.from_data(data)


def test_an_overlap_in_the_skill_point_table_is_refused():
    data = broken(lambda d: d["tables"]["skill_points"][1].__setitem__("min", 5))
    with pytest.raises(RulesetError, match="overlap"):
        Ruleset.from_data(data)


def test_a_closed_last_vandalism_row_is_refused():
    data = broken(lambda d: d["tables"]["vandalism"][-1].__setitem__("max", 99999))
    with pytest.raises(RulesetError, match="open-ended"):
        Ruleset.from_data(data)


def test_a_missing_d66_result_is_refused():
    data = broken(lambda d: d["tables"]["serious_injury"][0].__setitem__("max", 12))
    with pytest.raises(RulesetError, match="no row for D66 13"):
        Ruleset.from_data(data)


def test_a_d66_range_that_is_not_d66_is_refused():
    data = broken(lambda d: d["tables"]["revival"][0].__setitem__("max", 17))
    with pytest.raises(RulesetError, match="row 1"):
        Ruleset.from_data(data)


def test_a_2d6_table_must_cover_2_to_12():
    data = broken(lambda d: d["tables"]["weather"].pop())
    with pytest.raises(RulesetError, match="no row for 2D6 12"):
        Ruleset.from_data(data)


def test_a_handicap_band_gap_names_the_column():
    data = broken(lambda d: d["tables"]["handicap_count"][1]["bands"][4].__setitem__(0, 97))
    with pytest.raises(RulesetError, match="column 150–199"):
        Ruleset.from_data(data)


def test_a_missing_setting_is_named():
    data = broken(lambda d: d["settings"].pop("mvp_limit"))
    with pytest.raises(RulesetError, match=r"settings\), mvp_limit: missing"):
        Ruleset.from_data(data)


def test_a_setting_of_the_wrong_kind_is_named():
    data = broken(lambda d: d["settings"].__setitem__("max_players", "25"))
    with pytest.raises(RulesetError, match="max_players: '25' is not a whole number"):
        Ruleset.from_data(data)


def test_a_vandalism_target_outside_a_d6_is_refused():
    data = broken(lambda d: d["tables"]["vandalism"][1].__setitem__("target", 9))
    with pytest.raises(RulesetError, match="target 9"):
        Ruleset.from_data(data)


def test_an_edited_ruleset_changes_the_numbers():
    # The board changes a setting: MVPs abolished, expensive re-rolls in season.
    data = default_data()
    data["settings"]["mvp_limit"] = 0
    data["settings"]["reroll_percent"]["season"] = 300
    changed = Ruleset.from_data(data)
    assert not changed.receives_mvp(0)
    assert changed.reroll_price(50000, "season") == 150000
    assert R.reroll_price(50000, "season") == 100000  # the default is untouched
