"""An edited ruleset the board saves is read back exactly, and a broken one is refused naming the table,
the cell and what is wrong (league.rules.tables: "a RulesetError naming the table and the cell, never a
wrong number later"). Each case breaks one cell of the default data (league/rules/data/torshov_2006.json)
and reads the refusal the admin shows. No database, no Django.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from league.rules import RulesetError, default_data, parse_ruleset_data, parse_table
from league.rules.tables import Range, to_text

DATA = default_data()
TABLES = DATA["tables"]


def table(key: str) -> Any:
    return copy.deepcopy(TABLES[key])


def refused(key: str, data: Any, cell: str | None, message: str) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        parse_table(key, data)
    err = info.value
    assert (err.table, err.cell, err.message) == (key, cell, message)
    return err


# --- the error names where: "Vandalisering (vandalism), row 2: …" ---------------------------------------
def test_the_error_reads_table_name_key_cell_and_message():
    err = RulesetError("vandalism", "target 8 is wrong", "row 2")
    assert str(err) == "Vandalisering (vandalism), row 2: target 8 is wrong"
    assert str(RulesetError("vandalism", "the table is empty")) == "Vandalisering (vandalism): the table is empty"
    assert str(RulesetError("ruleset", "x")) == "ruleset (ruleset): x"  # not a table: its key
    assert isinstance(err, ValueError)


# --- Range labels, as the tables show their rows (R21's bounds) ---------------------------------------------
@pytest.mark.parametrize(
    ("low", "high", "label"),
    [(None, None, "all"), (None, 99, "≤99"), (301, None, "301+"), (10, 10, "10"), (40001, 60000, "40,001–60,000")],
)
def test_range_labels_r21(low, high, label):
    shown = Range(low, high).label()
    assert shown == label
    assert shown.msgid == {"all": "all", "≤99": "≤%(max)s", "301+": "%(min)s+", "10": "%(number)s"}.get(
        label, "%(min)s–%(max)s"
    )


@pytest.mark.parametrize(
    ("low", "high", "inside", "outside"),
    [
        (None, 99, [-5, 0, 99], [100]),
        (301, None, [301, 10**6], [300]),
        (6, 15, [6, 15], [5, 16]),
        (None, None, [0], []),
    ],
)
def test_range_is_inclusive_and_open_where_none(low, high, inside, outside):
    r = Range(low, high)
    assert all(r.contains(v) for v in inside)
    assert not any(r.contains(v) for v in outside)


# --- whole numbers, texts, lists, objects ---------------------------------------------------------------
@pytest.mark.parametrize("bad", ["3", 2.5, True, None])
def test_a_cell_that_is_not_a_whole_number(bad):
    data = table("fan_factor_modifier")
    data["cells"][1][2] = bad
    refused("fan_factor_modifier", data, "row 10, column 15", f"{bad!r} is not a whole number")


@pytest.mark.parametrize("bad", ["", "   ", 7, None])
def test_a_name_that_is_not_a_text(bad):
    data = table("kickoff")
    data[2]["name"] = bad
    refused("kickoff", data, "row 4 name", f"{bad!r} is not a text")


def test_a_table_that_is_not_a_list_or_an_object():
    refused("vandalism", {"rows": []}, None, "expected a list, got dict")
    refused("vandalism", [5], "row 1", "expected an object, got int")
    refused("winnings", [], None, "expected an object, got list")
    refused("winnings", {"rows": "x"}, "rows", "expected a list, got str")


# --- R15: the fan-factor modifier grid --------------------------------------------------------------------
def test_ffm_labels_must_be_5_10_15():
    for name in ("rows", "columns"):
        data = table("fan_factor_modifier")
        data[name][3] = 21
        refused(
            "fan_factor_modifier",
            data,
            None,
            f"{name[:-1] if name == 'rows' else 'column'} labels must be 5, 10, 15, … in steps of 5 (R15)",
        )
        data[name] = []
        refused(
            "fan_factor_modifier",
            data,
            None,
            f"{name[:-1] if name == 'rows' else 'column'} labels must be 5, 10, 15, … in steps of 5 (R15)",
        )
    data = table("fan_factor_modifier")
    data["rows"][0] = "5"
    refused("fan_factor_modifier", data, "row label 1", "'5' is not a whole number")
    data = table("fan_factor_modifier")
    data["columns"][1] = None
    refused("fan_factor_modifier", data, "column label 2", "None is not a whole number")


def test_ffm_cells_must_fill_the_grid():
    data = table("fan_factor_modifier")
    data["cells"].pop()
    refused("fan_factor_modifier", data, None, "29 rows of cells for 30 row labels")
    data = table("fan_factor_modifier")
    data["cells"][4].pop()
    refused("fan_factor_modifier", data, "row 25", "29 cells for 30 columns")
    data = table("fan_factor_modifier")
    data["cells"][4] = 1
    refused("fan_factor_modifier", data, "row 25", "expected a list, got int")
    data = table("fan_factor_modifier")
    data["cells"] = {}
    refused("fan_factor_modifier", data, "cells", "expected a list, got dict")


def test_an_edited_ffm_grid_is_read_cell_by_cell():
    data = table("fan_factor_modifier")
    data["cells"][2][4] = 9
    grid = parse_table("fan_factor_modifier", data)
    assert grid.rows == tuple(range(5, 151, 5)) and grid.columns == tuple(range(5, 151, 5))
    assert grid.cells[2][4] == 9
    assert [list(row) for row in grid.cells] == data["cells"]


# --- R21: the Kampbonus table ------------------------------------------------------------------------------
def test_winnings_rows_start_at_0_and_columns_open_below():
    data = table("winnings")
    data["rows"][0]["min"] = 1
    refused("winnings", data, "row 1", "must start at 0, starts at 1")
    data = table("winnings")
    data["columns"][0]["min"] = 0
    refused("winnings", data, "column 1", "must start at None, starts at 0")


def test_winnings_gaps_overlaps_and_open_ends_name_the_row_or_column():
    data = table("winnings")
    data["rows"][2]["min"] = 40002
    refused("winnings", data, "row 3", "gap between 20,001–40,000 and 40,002–60,000")
    data = table("winnings")
    data["columns"][3]["min"] = 150
    refused("winnings", data, "column 4", "overlap between 126–150 and 150–175")
    data = table("winnings")
    data["rows"][1]["max"] = None
    refused("winnings", data, "row 2", "an open-ended range must be the last")
    data = table("winnings")
    data["rows"][-1]["max"] = 999999
    refused("winnings", data, "row 9", "the last row must be open-ended (160,001–999,999)")
    data = table("winnings")
    data["rows"] = []
    refused("winnings", data, None, "the table is empty")
    data = table("winnings")
    data["rows"][4] = {"min": 90000, "max": 80001}
    refused("winnings", data, "row 5", "min 90000 is above max 80001")
    data = table("winnings")
    data["rows"][4] = {"min": "80001", "max": 100000}
    refused("winnings", data, "row 5 min", "'80001' is not a whole number")
    data = table("winnings")
    data["columns"][2] = {"min": 126, "max": 150.0}
    refused("winnings", data, "column 3 max", "150.0 is not a whole number")
    data = table("winnings")
    data["columns"][2] = [126, 150]
    refused("winnings", data, "column 3", "expected an object, got list")


def test_winnings_cells_fill_the_table():
    data = table("winnings")
    data["cells"].pop()
    refused("winnings", data, None, "8 rows of cells for 9 attendance rows")
    data = table("winnings")
    data["cells"][1].append(0)
    refused("winnings", data, "row 20,001–40,000", "11 cells for 10 columns")
    data = table("winnings")
    data["cells"][1][0] = "+2"
    refused("winnings", data, "row 20,001–40,000, column ≤99", "'+2' is not a whole number")
    data = table("winnings")
    data["cells"][1] = None
    refused("winnings", data, "row 20,001–40,000", "expected a list, got NoneType")
    data = table("winnings")
    data["cells"][8][9] = 4
    grid = parse_table("winnings", data)
    assert grid.key == "winnings" and grid.cells[8][9] == 4
    assert [(r.min, r.max) for r in grid.rows] == [(r["min"], r["max"]) for r in data["rows"]]
    assert [(c.min, c.max) for c in grid.columns] == [(c["min"], c["max"]) for c in data["columns"]]
    assert [list(row) for row in grid.cells] == data["cells"]


# --- R18: vandalism -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", [1, 8, 0])
def test_a_vandalism_target_outside_2_to_7(target):
    data = table("vandalism")
    data[2]["target"] = target
    refused("vandalism", data, "row 3", f"target {target} is not 2–6 (a D6) or 7 (automatic)")


def test_vandalism_targets_2_and_7_and_none_are_kept():
    data = table("vandalism")
    data[1]["target"], data[2]["target"] = 7, None
    bands = parse_table("vandalism", data).bands
    assert [b.value for b in bands] == [None, 7, None, 4, 5, 6, 7]
    assert parse_table("vandalism", data).key == "vandalism"
    data[1]["target"] = "2"
    refused("vandalism", data, "row 2 target", "'2' is not a whole number")
    data = table("vandalism")
    data[0]["min"] = 1
    refused("vandalism", data, "row 1", "must start at 0, starts at 1")


# --- R22: handicap table 1 -------------------------------------------------------------------------------------
def test_handicap_table_1_columns_and_bands():
    data = table("handicap_count")
    data[1]["bands"][2] = [31, 60, 61]
    refused("handicap_count", data, "column 150–199, 2 rolls", "a band is [min, max]")
    data = table("handicap_count")
    data[1]["bands"][2] = [32, 60]
    refused("handicap_count", data, "column 150–199, band 3", "gap between 16–30 and 32–60")
    data = table("handicap_count")
    data[1]["bands"][0] = [1, 15]
    refused("handicap_count", data, "column 150–199, band 1", "must start at 0, starts at 1")
    data = table("handicap_count")
    data[1]["bands"][1] = ["16", 30]
    refused("handicap_count", data, "column 150–199, 1 rolls min", "'16' is not a whole number")
    data = table("handicap_count")
    data[1]["bands"][1] = [16, "30"]
    refused("handicap_count", data, "column 150–199, 1 rolls max", "'30' is not a whole number")
    data = table("handicap_count")
    data[1]["bands"][1] = 16
    refused("handicap_count", data, "column 150–199, 1 rolls", "expected a list, got int")
    data = table("handicap_count")
    data[1]["bands"] = None
    refused("handicap_count", data, "column 150–199 bands", "expected a list, got NoneType")
    data = table("handicap_count")
    data[2]["min"] = 201
    refused("handicap_count", data, "column 3", "gap between 150–199 and 201–249")
    data = table("handicap_count")
    data[0]["min"] = 0
    refused("handicap_count", data, "column 1", "must start at None, starts at 0")
    data = table("handicap_count")
    data[3] = 250
    refused("handicap_count", data, "column 4", "expected an object, got int")
    columns = parse_table("handicap_count", table("handicap_count"))
    assert [(c.tr.min, c.tr.max) for c in columns] == [(c["min"], c["max"]) for c in TABLES["handicap_count"]]
    assert [[[b.min, b.max] for b in c.bands] for c in columns] == [c["bands"] for c in TABLES["handicap_count"]]


# --- D66 and 2D6 tables ----------------------------------------------------------------------------------------
def test_d66_tables_cover_11_to_66_once():
    data = table("handicap_results")
    data[0]["max"] = 17
    refused("handicap_results", data, "row 1", "11–17 is not a range of D66 results")
    data = table("handicap_results")
    data[0]["min"] = 10
    refused("handicap_results", data, "row 1", "10–12 is not a range of D66 results")
    data = table("handicap_results")
    data[1]["min"] = 12
    refused("handicap_results", data, "row 2", "D66 12 is in rows 1 and 2")
    data = table("handicap_results")
    del data[1]
    refused("handicap_results", data, None, "no row for D66 13, 14")
    data = table("handicap_results")
    data[3]["effect"] = ""
    refused("handicap_results", data, "row 21–22 effect", "'' is not a text")
    data = table("handicap_results")
    data[3]["key"] = None
    refused("handicap_results", data, "row 21–22 key", "None is not a text")
    data = table("handicap_results")
    data[3]["name"] = 5
    refused("handicap_results", data, "row 21–22 name", "5 is not a text")
    bands = parse_table("handicap_results", table("handicap_results")).bands
    assert [(b.value.key, b.value.name, b.value.effect) for b in bands] == [
        (r["key"], r["name"], r["effect"]) for r in TABLES["handicap_results"]
    ]
    assert all(b.value.d66 == b.range for b in bands)


def test_2d6_tables_cover_2_to_12():
    data = table("development")
    data[0]["min"] = 3
    refused("development", data, None, "no row for 2D6 2")
    data = table("development")
    data[1]["result"] = "AV+"
    refused("development", data, "row 10", "'AV+' is not one of AG, AV, MA, ST, skill")
    data = table("tzeentch_mutations")
    data[0]["result"] = "Anything"  # any text: the Tzeentch table has no fixed list
    assert parse_table("tzeentch_mutations", data).lookup(2).value == "Anything"
    data[1]["result"] = ""
    refused("tzeentch_mutations", data, "row 3 result", "'' is not a text")
    data = table("injury")
    data[0]["max"] = 13
    refused("injury", data, "row 1", "2–13 is not a range of 2D6 results")
    data = table("weather")
    data[1]["key"] = ""
    refused("weather", data, "row 3 key", "'' is not a text")


def test_named_2d6_tables_read_key_or_result_name_and_effect():
    injury = parse_table("injury", table("injury"))
    assert [b.value.key for b in injury.bands] == [r["result"] for r in TABLES["injury"]]  # no key: the result
    assert [b.value.effect for b in injury.bands] == [""] * len(TABLES["injury"])
    weather = parse_table("weather", table("weather"))
    assert [(b.value.key, b.value.name, b.value.effect) for b in weather.bands] == [
        (r["key"], r["name"], r["effect"]) for r in TABLES["weather"]
    ]
    assert weather.key == "weather"


def test_effects_in_english_are_read_beside_the_norwegian_and_default_to_empty():
    """Issue 26: `effect` is Norwegian, `effect_en` the optional English; missing or blank is ""."""
    for key in ("handicap_results", "weather", "facilities"):
        data = table(key)
        data[0]["effect_en"] = "In English."
        data[1].pop("effect_en", None)
        data[2]["effect_en"] = "  "
        parsed = parse_table(key, data)
        rows = list(parsed if key == "facilities" else (b.value for b in parsed.bands))
        assert [r.effect_en for r in rows[:3]] == ["In English.", "", ""], key
        assert rows[0].effect == TABLES[key][0]["effect"]
        data[0]["effect_en"] = 5
        with pytest.raises(RulesetError, match="5 is not a text"):
            parse_table(key, data)
    assert parse_table("injury", table("injury")).bands[0].value.effect_en == ""  # no effects at all


def test_the_shapes_public_constructors_still_take_no_english_effect():
    from league.rules.tables import Facility, HandicapResult, Named

    assert HandicapResult("k", "Navn", "Virkning", Range(11, 12)).effect_en == ""
    assert Named("k", "Navn").effect_en == ""
    assert Facility("k", "Navn", 1, 0, "Virkning").effect_en == ""


def test_serious_injury_rows_are_read_and_checked():
    bands = parse_table("serious_injury", table("serious_injury")).bands
    assert [
        (b.value.name, b.value.name_en, b.value.miss_matches, b.value.niggling, b.value.stat, b.value.dead)
        for b in bands
    ] == [(r["name"], r["name_en"], r["miss"], r["niggling"], r["stat"], r["dead"]) for r in TABLES["serious_injury"]]
    data = table("serious_injury")
    del data[0]["name_en"]
    assert parse_table("serious_injury", data).bands[0].value.name_en == data[0]["name"]  # English falls back
    for field, bad, message in (
        ("miss", -1, "matches to miss cannot be negative"),
        ("miss", "1", "'1' is not a whole number"),
        ("niggling", 1, "1 is not true or false"),
        ("dead", None, "None is not true or false"),
        ("stat", "MV", "'MV' is not one of MA, ST, AG, AV or null"),
        ("name", "", "'' is not a text"),
    ):
        data = table("serious_injury")
        data[2][field] = bad
        cell = "row 21–23" + ("" if message.startswith("matches") else f" {field}")
        refused("serious_injury", data, cell, message)


def test_revival_rows_are_read_and_checked():
    bands = parse_table("revival", table("revival")).bands
    assert [(b.value.name, b.value.dice, b.value.die, b.value.plus, b.value.niggling, b.value.stat) for b in bands] == [
        (r["name"], r["dice"], r["die"], r["plus"], r["niggling"], r["stat"]) for r in TABLES["revival"]
    ]
    assert all(b.value.d66 == b.range for b in bands)
    for dice, die in ((-1, 6), (1, 1), (2, 0)):
        data = table("revival")
        data[1]["dice"], data[1]["die"] = dice, die
        refused("revival", data, "row 14–16", "the matches to miss need a number of dice and a die of 2 sides or more")
    data = table("revival")
    data[1]["dice"], data[1]["die"] = 1, 2  # a D2 is a die
    assert parse_table("revival", data).bands[1].value.die == 2
    data[0]["dice"], data[0]["die"] = 0, 0  # no dice: no die needed
    assert parse_table("revival", data).bands[0].value.formula() == "3"
    for field, bad, message in (
        ("plus", None, "None is not a whole number"),
        ("dice", "1", "'1' is not a whole number"),
        ("die", 2.0, "2.0 is not a whole number"),
        ("niggling", "yes", "'yes' is not true or false"),
        ("stat", "XX", "'XX' is not one of MA, ST, AG, AV or null"),
        ("name", " ", "' ' is not a text"),
    ):
        data = table("revival")
        data[1][field] = bad
        refused("revival", data, f"row 14–16 {field}", message)


def test_a_revival_s_dice_are_checked_when_rolled():
    rev = parse_table("revival", table("revival")).lookup(44).value  # Sprukken milt: 2D6 + 3
    with pytest.raises(ValueError, match=r"2 dice of D6 needed, got 1"):
        rev.miss_matches([3])
    with pytest.raises(ValueError, match=r"a D6 shows 1–6, not 7"):
        rev.miss_matches([3, 7])
    with pytest.raises(ValueError, match=r"not 0"):
        rev.miss_matches([0, 3])
    assert rev.miss_matches([1, 6]) == 10


def test_a_d66_look_up_outside_the_rows_is_refused():
    bands = parse_table("serious_injury", table("serious_injury"))
    with pytest.raises(ValueError, match="Alvorlig skade-tabell: no row for 67"):
        bands.lookup(67)


# --- skill points (R4), SPP (R28), mutations (R29), the apothecary (R26), lists -----------------------------------
def test_skill_points_rows_are_read_and_checked():
    bands = parse_table("skill_points", table("skill_points")).bands
    assert [b.value for b in bands] == [(r["points"], r["title"]) for r in TABLES["skill_points"]]
    data = table("skill_points")
    data[1]["points"] = "1"
    refused("skill_points", data, "row 6–15 points", "'1' is not a whole number")
    data = table("skill_points")
    data[1]["title"] = ""
    refused("skill_points", data, "row 6–15", "'' is not a text")
    data = table("skill_points")
    data[1]["min"] = 5
    refused("skill_points", data, "row 2", "overlap between 0–5 and 5–15")


def test_named_number_maps_need_every_key():
    data = table("spp_awards")
    del data["mvp"], data["foul"]
    refused("spp_awards", data, None, "missing foul, mvp")
    data = table("spp_awards")
    data["mvp"] = "5"
    refused("spp_awards", data, "mvp", "'5' is not a whole number")
    data = table("apothecary_costs")
    del data["revive_dead"]
    refused("apothecary_costs", data, None, "missing revive_dead")
    refused("spp_awards", [], None, "expected an object, got list")
    assert dict(parse_table("spp_awards", table("spp_awards"))) == TABLES["spp_awards"]
    assert dict(parse_table("apothecary_costs", table("apothecary_costs"))) == TABLES["apothecary_costs"]


def test_mutation_tables_are_d4_tables():
    data = table("mutations")
    data["Bony Growth"].pop()
    refused("mutations", data, "Bony Growth", "a D4 table needs 4 results, has 3")
    data = table("mutations")
    data["Chaotic Gift"][2] = ""
    refused("mutations", data, "Chaotic Gift, D4 3", "'' is not a text")
    data = table("mutations")
    data["Chaotic Gift"] = "Tentacles"
    refused("mutations", data, "Chaotic Gift", "expected a list, got str")
    refused("mutations", {}, None, "the table is empty")
    parsed = parse_table("mutations", table("mutations"))
    assert {k: list(v) for k, v in parsed.items()} == TABLES["mutations"]


def test_lists_of_names():
    refused("mutation_positions", ["Tzeentch Cultist", ""], "item 2", "'' is not a text")
    refused("roof_cancels_weather", "very_sunny", None, "expected a list, got str")
    assert parse_table("roof_cancels_weather", ["a", "b"]) == ("a", "b")


def test_facilities_are_read_with_their_defaults():
    parsed = parse_table("facilities", table("facilities"))
    assert [(f.key, f.name, f.price, f.price_per_seat, f.effect) for f in parsed] == [
        (f["key"], f["name"], f["price"], f["price_per_seat"], f["effect"]) for f in TABLES["facilities"]
    ]
    (plain,) = parse_table("facilities", [{"key": "kiosk", "name": "Kiosk", "price": 50000}])
    assert (plain.price_per_seat, plain.effect) == (0, "")
    for field, bad, message in (
        ("key", "", "'' is not a text"),
        ("name", None, "None is not a text"),
        ("price", "50000", "'50000' is not a whole number"),
        ("price_per_seat", None, "None is not a whole number"),
    ):
        data = table("facilities")
        data[1][field] = bad
        refused("facilities", data, f"row 2 {field}", message)
    refused("facilities", [1], "row 1", "expected an object, got int")


# --- settings ------------------------------------------------------------------------------------------------
def settings(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(DATA["settings"])
    data.update(changes)
    return data


def test_every_setting_is_read_with_its_kind():
    s = parse_table("settings", settings())
    raw = DATA["settings"]
    for name, value in raw.items():
        got = getattr(s, name)
        if isinstance(value, dict) and name != "fan_factor_change":
            assert {k: list(v) if isinstance(v, tuple) else v for k, v in got.items()} == value, name
        elif isinstance(value, list):
            assert list(got) == value, name
        elif name == "fan_factor_change":
            assert {k: getattr(got, k) for k in value} == value
        else:
            assert got == value and type(got) is type(value), name


@pytest.mark.parametrize(
    ("changes", "cell", "message"),
    [
        ({"tr_divisor": "10000"}, "tr_divisor", "'10000' is not a whole number"),
        ({"retire_gives_assistant_coach": 1}, "retire_gives_assistant_coach", "1 is not true or false"),
        (
            {"reroll_percent": {"creation": 100, "season": "200", "offseason": 150}},
            "reroll_percent.season",
            "'200' is not a whole number",
        ),
        ({"reroll_percent": [100]}, "reroll_percent", "expected an object, got list"),
        ({"prizes": {"1": [60000, "x"]}}, "prizes.1[1]", "'x' is not a whole number"),
        ({"prizes": {"1": 60000}}, "prizes.1", "expected a list, got int"),
        ({"prizes": []}, "prizes", "expected an object, got list"),
        ({"bandage_crew_targets": [1, None]}, "bandage_crew_targets[1]", "None is not a whole number"),
        ({"bandage_crew_targets": 1}, "bandage_crew_targets", "expected a list, got int"),
        ({"tiebreakers": ["points", ""]}, "tiebreakers[1]", "'' is not a text"),
        ({"tiebreakers": "points"}, "tiebreakers", "expected a list, got str"),
        ({"fan_factor_change": []}, "fan_factor_change", "expected an object, got list"),
        ({"reroll_percent": {"creation": 100, "season": 200}}, "reroll_percent", "missing the offseason price"),
        ({"ticket_gate_modifier": {"cheap": 1, "ordinary": 0}}, "ticket_gate_modifier", "missing expensive"),
        ({"ticket_winnings_row_shift": {"ordinary": 0, "expensive": 1}}, "ticket_winnings_row_shift", "missing cheap"),
        ({"points": {"win": 3, "loss": 0}}, "points", "missing draw"),
        ({"tr_divisor": 0}, "tr_divisor", "must be above 0"),
        ({"gate_unit": -1000}, "gate_unit", "must be above 0"),
        ({"winnings_unit": 0}, "winnings_unit", "must be above 0"),
        ({"expansion_step": 0}, "expansion_step", "must be above 0"),
        ({"expansion_rounding": 0}, "expansion_rounding", "must be above 0"),
        ({"division_dice": {"1": 6, "2": 1}}, "division_dice", "a D1 is not a die"),
        ({"bandage_crew_targets": []}, "bandage_crew_targets", "at least one attempt"),
    ],
)
def test_a_wrong_setting_is_named(changes, cell, message):
    refused("settings", settings(**changes), cell, message)


def test_settings_at_their_lowest_allowed_values_are_kept():
    s = parse_table("settings", settings(tr_divisor=1, gate_unit=1, division_dice={"1": 2}, bandage_crew_targets=[4]))
    assert (s.tr_divisor, s.gate_unit, dict(s.division_dice), s.bandage_crew_targets) == (1, 1, {"1": 2}, (4,))


def test_a_missing_setting_or_fan_factor_setting_is_named():
    data = settings()
    del data["kiosk_target"]
    refused("settings", data, "kiosk_target", "missing")
    data = settings()
    del data["fan_factor_change"]["up_above"]
    refused("settings", data, "fan_factor_change.up_above", "missing")
    data = settings()
    data["fan_factor_change"]["down_below"] = "2"
    refused("settings", data, "fan_factor_change.down_below", "'2' is not a whole number")
    refused("settings", [], None, "expected an object, got list")


# --- the whole ruleset -----------------------------------------------------------------------------------------
def test_parse_table_knows_only_the_rulebook_s_tables():
    refused("stars", [], None, "not a table of the rulebook")
    assert parse_table("settings", settings()).max_players == DATA["settings"]["max_players"]


def test_a_whole_ruleset_is_checked():
    with pytest.raises(RulesetError) as info:
        parse_ruleset_data([])
    assert (info.value.table, info.value.message) == ("ruleset", "expected an object with name, settings and tables")
    with pytest.raises(RulesetError) as info:
        parse_ruleset_data({"name": "x", "settings": {}})
    assert (info.value.table, info.value.message) == ("ruleset", "missing the tables")
    data = copy.deepcopy(DATA)
    del data["tables"]["kickoff"], data["tables"]["weather"]
    with pytest.raises(RulesetError) as info:
        parse_ruleset_data(data)
    assert (info.value.table, info.value.message) == ("weather", "the table is missing")
    data = copy.deepcopy(DATA)
    data["tables"]["stars"] = []
    with pytest.raises(RulesetError) as info:
        parse_ruleset_data(data)
    assert (info.value.table, info.value.message) == ("stars", "not a table of the rulebook")
    data = copy.deepcopy(DATA)
    data["settings"]["gate_unit"] = 0
    with pytest.raises(RulesetError) as info:
        parse_ruleset_data(data)
    assert (info.value.table, info.value.cell) == ("settings", "gate_unit")


def test_a_whole_ruleset_keeps_its_name_and_raw_data():
    parsed = parse_ruleset_data(DATA)
    assert parsed.name == "Torshov 2006" and parsed.raw is DATA
    assert parsed.tables.vandalism.bands[1].value == 2
    unnamed = {k: v for k, v in DATA.items() if k != "name"}
    assert parse_ruleset_data(unnamed).name == "unnamed"
    assert parse_ruleset_data({**DATA, "name": ""}).name == "unnamed"
    assert parse_ruleset_data({**DATA, "name": 2007}).name == "2007"


# --- a table as the editor's text --------------------------------------------------------------------------------
@pytest.mark.parametrize("key", [*TABLES, "settings"])
def test_a_table_as_text_reads_back_the_same(key):
    value = DATA["settings"] if key == "settings" else TABLES[key]
    text = to_text(value)
    assert json.loads(text) == value


def test_a_table_as_text_puts_one_grid_row_or_small_entry_on_a_line():
    text = to_text(TABLES["winnings"])
    lines = text.splitlines()
    for row in TABLES["winnings"]["cells"]:
        assert json.dumps(row) in [line.strip().rstrip(",") for line in lines]
    assert '  {"min": 0, "max": 20000},' in lines
    assert to_text({"a": [1, 2]}) == '{\n "a": [1, 2]\n}'
    assert to_text([{"key": "x", "name": "Æ"}]) == '[\n {"key": "x", "name": "Æ"}\n]'
    assert to_text({"a": {"b": [1, 2], "c": 3}}) == '{\n "a": {\n  "b": [1, 2],\n  "c": 3\n }\n}'  # holds a list
    long = {"cells": [list(range(100))]}
    assert to_text(long) == json.dumps(long, indent=1)  # a line of 240 or more stays unfolded
