"""Every table's boundaries (issue 25): each band's first and last value and one past its end.

The expected values are read from the ruleset data (league/rules/data/torshov_2006.json), the board's
copy of the rulebook's tables, by a look-up written here from the data's plain rows (a row holds a
number when min ≤ number ≤ max, a missing bound is open), not by the code under test. The tables'
names are the rulebook's; `test_the_data_is_the_rulebook` pins the rows the rulings quote.
No database, no Django.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import league.rules as rules

R = rules.default_ruleset()
RAW = rules.default_data()["tables"]
D66 = [10 * a + b for a in range(1, 7) for b in range(1, 7)]
FAST = settings(max_examples=40, deadline=None)


def row_of(rows: list[dict[str, Any]], number: int) -> dict[str, Any]:
    """The one raw row whose inclusive [min, max] holds `number` (None: open)."""
    found = [r for r in rows if (r["min"] is None or r["min"] <= number) and (r["max"] is None or number <= r["max"])]
    assert len(found) == 1, (number, found)
    return found[0]


def edges(rows: list[dict[str, Any]], *, codes: list[int] | None = None) -> list[int]:
    """Each band's first and last value and the value one past its end (the next band's first)."""
    out: set[int] = set()
    for r in rows:
        for v in (r["min"], r["max"]):
            if v is not None:
                out.add(v)
        if r["max"] is not None:
            nxt = r["max"] + 1
            if codes is not None:  # a D66 has no 17..20: one past 16 is 21
                nxt = min((c for c in codes if c > r["max"]), default=nxt)
            out.add(nxt)
        if r["min"] is not None and r["min"] - 1 >= 0:
            out.add(r["min"] - 1)
    return sorted(out if codes is None else (v for v in out if v in codes))


def two_dice(total: int) -> tuple[int, int]:
    d1 = max(1, total - 6)
    return d1, total - d1


# --- R18: vandalism, the overflow's bands --------------------------------------------------------
@pytest.mark.parametrize("overflow", edges(RAW["vandalism"]))
def test_vandalism_band_edges_r18(overflow):
    capacity = 60000
    expected = row_of(RAW["vandalism"], overflow)["target"] if overflow > 0 else None  # 0: does not exceed
    assert R.vandalism_target(capacity + overflow, 0, capacity) == expected
    assert R.vandalism_target(0, capacity + overflow, capacity) == expected  # both gates count (R18)


@FAST
@given(st.integers(min_value=1, max_value=200_000), st.integers(min_value=0, max_value=300_000))
def test_vandalism_target_is_the_overflow_s_row_r18(overflow, capacity):
    assert R.vandalism_target(capacity + overflow, 0, capacity) == row_of(RAW["vandalism"], overflow)["target"]


@pytest.mark.parametrize("target", [2, 3, 4, 5, 6])
def test_a_d6_of_the_target_or_more_avoids_vandalism_r18(target):
    """R18: "10,000–19,999: a D6 of 2+ avoids it; … 50,000–59,999: 6+" — the target itself avoids it."""
    assert R.vandalised(target, target) is False
    assert R.vandalised(target, 6) is False
    assert R.vandalised(target, target - 1) is True
    assert R.vandalised(target, 1) is True


def test_vandalism_without_risk_or_automatic_needs_no_die_r18():
    assert R.vandalised(None, None) is False  # under 10,000: always fine
    assert R.vandalised(7, None) is True  # 60,000 or more: automatic
    assert R.vandalised(8, 6) is True
    with pytest.raises(ValueError, match="D6"):
        R.vandalised(4, None)
    for bad in (0, 7):
        with pytest.raises(ValueError, match="D6"):
            R.vandalised(4, bad)


@pytest.mark.parametrize("overflow", edges(RAW["vandalism"]))
def test_seats_destroyed_band_edges_r18(overflow):
    """Half the overflow, rounded down, when vandalism is possible; caretakers repair up to 5,000."""
    capacity = 60000
    at_risk = overflow > 0 and row_of(RAW["vandalism"], overflow)["target"] is not None
    lost = overflow // 2 if at_risk else 0
    assert R.seats_destroyed(capacity + overflow, 0, capacity) == lost
    assert R.seats_destroyed(capacity + overflow, 0, capacity, caretakers=True) == max(0, lost - 5000)
    assert R.seats_destroyed(capacity + overflow, 0, capacity, neutral=True) == 0  # R14: the federation pays


# --- R4: skill points ------------------------------------------------------------------------------
@pytest.mark.parametrize("spp", edges(RAW["skill_points"]))
def test_skill_points_band_edges_r4(spp):
    row = row_of(RAW["skill_points"], spp)
    assert R.skill_points(spp) == row["points"]
    (cell,) = R.explain_skill_points(spp).cells
    assert (cell.table, cell.value) == ("skill_points", f"{row['title']}, {row['points']}")


@FAST
@given(st.integers(min_value=0, max_value=400), st.integers(min_value=0, max_value=400))
def test_level_ups_are_the_thresholds_crossed_r4(a, b):
    before, after = min(a, b), max(a, b)
    thresholds = [r["min"] for r in RAW["skill_points"][1:]]  # 6, 16, 31, 51, 76, 126, 176 (R4)
    assert R.level_ups(before, after) == sum(before < t <= after for t in thresholds)


# --- 2D6 tables: development (R29), Tzeentch mutations (R10), injury, weather (R39), kick-off ----------
TWO_D6_LOOKUPS = {
    "development": (lambda d1, d2: R.development(d1, d2), "result"),
    "tzeentch_mutations": (lambda d1, d2: R.tzeentch_mutation(d1, d2), "result"),
    "injury": (lambda d1, d2: R.injury(d1, d2).key, "result"),
    "weather": (lambda d1, d2: R.weather(d1, d2).key, "key"),
    "kickoff": (lambda d1, d2: R.kickoff(d1, d2).key, "key"),
}


@pytest.mark.parametrize(
    ("table", "total"),
    [(t, n) for t in TWO_D6_LOOKUPS for n in edges(RAW[t], codes=list(range(2, 13)))],
)
def test_2d6_band_edges(table, total):
    lookup, field = TWO_D6_LOOKUPS[table]
    assert lookup(*two_dice(total)) == row_of(RAW[table], total)[field]


@pytest.mark.parametrize("table", list(TWO_D6_LOOKUPS))
def test_2d6_tables_refuse_what_a_d6_cannot_show(table):
    lookup, _ = TWO_D6_LOOKUPS[table]
    for d1, d2 in ((0, 1), (1, 0), (7, 1), (1, 7)):
        with pytest.raises(ValueError, match="D6"):
            lookup(d1, d2)


@FAST
@given(st.integers(1, 6), st.integers(1, 6))
def test_2d6_tables_read_the_sum_of_the_dice(d1, d2):
    for table, (lookup, field) in TWO_D6_LOOKUPS.items():
        assert lookup(d1, d2) == row_of(RAW[table], d1 + d2)[field], table


def test_weather_under_a_roof_r39():
    """The roof cancels pouring rain and very sunny at the owner's home: the weather counts as nice (R39)."""
    nice = row_of(RAW["weather"], 7)["key"]
    for total in range(2, 13):
        key = row_of(RAW["weather"], total)["key"]
        expected = nice if key in ("pouring_rain", "very_sunny") else key
        assert R.weather(*two_dice(total), roof=True).key == expected
        assert R.weather(*two_dice(total)).key == key


# --- D66 tables: serious injury, revival (R25, R26), handicap table 2 (R22, R23) --------------------
@pytest.mark.parametrize("d66", edges(RAW["serious_injury"], codes=D66))
def test_serious_injury_band_edges(d66):
    row = row_of(RAW["serious_injury"], d66)
    si = R.serious_injury(d66)
    assert (si.name, si.miss_matches, si.niggling, si.stat, si.dead) == (
        row["name"],
        row["miss"],
        row["niggling"],
        row["stat"],
        row["dead"],
    )
    assert si.d66.contains(d66)


@pytest.mark.parametrize("d66", edges(RAW["revival"], codes=D66))
def test_revival_band_edges(d66):
    row = row_of(RAW["revival"], d66)
    rev = R.revival(d66)
    assert (rev.name, rev.dice, rev.die, rev.plus, rev.niggling, rev.stat) == (
        row["name"],
        row["dice"],
        row["die"],
        row["plus"],
        row["niggling"],
        row["stat"],
    )
    lowest, highest = [1] * rev.dice, [rev.die] * rev.dice
    assert rev.miss_matches(lowest) == row["plus"] + rev.dice
    assert rev.miss_matches(highest) == row["plus"] + rev.dice * rev.die
    assert rev.formula() == (f"{rev.dice}D{rev.die} + {rev.plus}" if rev.dice else str(rev.plus))


@pytest.mark.parametrize("d66", edges(RAW["handicap_results"], codes=D66))
def test_handicap_table_2_band_edges_r22(d66):
    assert R.handicap_result(d66).key == row_of(RAW["handicap_results"], d66)["key"]


@pytest.mark.parametrize("bad", [0, 10, 17, 20, 27, 67, 70, 77])
def test_d66_tables_refuse_what_two_d6_cannot_show(bad):
    for lookup in (R.serious_injury, R.revival, R.handicap_result):
        with pytest.raises(ValueError, match="D66"):
            lookup(bad)


# --- R20, R21: the Kampbonus table (winnings) -------------------------------------------------------
def _winnings_cell(attendance: int, team_rating: int):
    explained = R.explain_winnings(
        1, team_rating=team_rating, attendance=attendance, capacity=10**9, won=False, home=False
    )
    (cell,) = explained.cells
    return cell


@pytest.mark.parametrize("attendance", edges(RAW["winnings"]["rows"]))
@pytest.mark.parametrize("team_rating", [99, 100, 125, 126, 300, 301])
def test_winnings_row_edges_r21(attendance, team_rating):
    rows, cols = RAW["winnings"]["rows"], RAW["winnings"]["columns"]
    row, col = row_of(rows, attendance), row_of(cols, team_rating)
    value = RAW["winnings"]["cells"][rows.index(row)][cols.index(col)]
    cell = _winnings_cell(attendance, team_rating)
    assert cell.value == (f"+{value}" if value > 0 else str(value))
    assert R.winnings(6, team_rating=team_rating, attendance=attendance, capacity=10**9, won=False, home=False) == (
        max(0, 6 + value) * 10_000  # R20: the modified roll × 10,000, never below 0
    )


@pytest.mark.parametrize("team_rating", edges(RAW["winnings"]["columns"]))
def test_winnings_column_edges_r21(team_rating):
    rows, cols = RAW["winnings"]["rows"], RAW["winnings"]["columns"]
    col = row_of(cols, team_rating)
    for attendance in (0, 20000, 160001):
        value = RAW["winnings"]["cells"][rows.index(row_of(rows, attendance))][cols.index(col)]
        assert _winnings_cell(attendance, team_rating).value == (f"+{value}" if value > 0 else str(value))


@FAST
@given(
    st.integers(1, 6),
    st.integers(0, 400),
    st.integers(0, 250_000),
    st.integers(10_000, 150_000),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["ordinary", "cheap", "expensive"]),
)
def test_winnings_follow_r17_r20(roll, tr, attendance, capacity, won, home, ticket):
    """R20: D6 + 1 winner + 1 home + the table (row: attendance capped at 150% of capacity (R17), moved
    one row down for expensive tickets, one up for cheap, staying put at the edges) × 10,000, ≥ 0."""
    rows, cols, cells = RAW["winnings"]["rows"], RAW["winnings"]["columns"], RAW["winnings"]["cells"]
    counted = min(attendance, capacity * 150 // 100)
    i = rows.index(row_of(rows, counted)) + {"ordinary": 0, "cheap": -1, "expensive": 1}[ticket]
    i = min(max(i, 0), len(rows) - 1)
    total = roll + won + home + cells[i][cols.index(row_of(cols, tr))]
    kwargs = dict(team_rating=tr, attendance=attendance, capacity=capacity, won=won, home=home, ticket=ticket)
    assert R.winnings(roll, **kwargs) == max(0, total) * 10_000


# --- R15: the fan-factor modifier table ---------------------------------------------------------------
def _ffm_gate_edges() -> list[int]:
    """Each row's first gate (one past the row above), its last, and one past it; 0 counts as 5."""
    out = {0}
    for k in RAW["fan_factor_modifier"]["rows"]:
        out |= {(k - 5) * 1000 + 1, k * 1000, k * 1000 + 1}
    return sorted(out)


def _ffm_key(gate: int) -> int:
    """R15: in thousands rounded up to the next multiple of 5; 0 counts as 5; above 150 counts as 150."""
    return min(150, max(5, 5 * math.ceil(gate / 5000)))


@pytest.mark.parametrize("gate", _ffm_gate_edges())
def test_ffm_row_and_column_edges_r15(gate):
    grid = RAW["fan_factor_modifier"]
    key = _ffm_key(gate)
    assert R.ffm_key(gate) == key
    i = grid["rows"].index(key)
    assert R.fan_factor_modifier(gate, 0) == grid["cells"][i][0]  # home gate picks the row
    assert R.fan_factor_modifier(0, gate) == grid["cells"][0][i]  # away gate the column


@FAST
@given(st.integers(0, 200_000), st.integers(0, 200_000))
def test_ffm_is_the_cell_of_both_gates_r15(home, away):
    grid = RAW["fan_factor_modifier"]
    expected = grid["cells"][grid["rows"].index(_ffm_key(home))][grid["columns"].index(_ffm_key(away))]
    explained = R.explain_fan_factor_modifier(home, away)
    assert explained.value == expected
    (cell,) = explained.cells
    assert (cell.table, cell.row, cell.column) == ("fan_factor_modifier", str(_ffm_key(home)), str(_ffm_key(away)))
    assert cell.value == (f"+{expected}" if expected > 0 else str(expected))


def test_ffm_refuses_a_negative_gate():
    with pytest.raises(ValueError, match="gate"):
        R.ffm_key(-1)


# --- R22: handicap table 1 -------------------------------------------------------------------------
def _handicap_cases() -> list[tuple[int, int]]:
    """(lower TR, difference) at each column's first and last TR and each band's edges."""
    cases = set()
    for column in RAW["handicap_count"]:
        trs = [v for v in (column["min"], column["max"]) if v is not None] or [100]
        if column["min"] is None:
            trs.append(1)
        if column["max"] is None:
            trs.append(column["min"] + 1)
        for lo, hi in column["bands"]:
            for diff in {lo, lo + 1, hi, (hi or lo) + 1} - {None}:
                cases |= {(tr, diff) for tr in trs}
    return sorted(cases)


@pytest.mark.parametrize(("lower", "difference"), _handicap_cases())
def test_handicap_table_1_edges_r22(lower, difference):
    column = row_of(RAW["handicap_count"], lower)
    bands = [{"min": lo, "max": hi} for lo, hi in column["bands"]]
    expected = 0 if difference == 0 else bands.index(row_of(bands, difference))  # equal TRs: no rolls (R22)
    assert R.handicap_rolls(lower, lower + difference) == expected
    assert R.handicap_rolls(lower + difference, lower) == expected  # the lower team's column either way
    explained = R.explain_handicap_rolls(lower, lower + difference)
    if difference:
        (cell,) = explained.cells
        assert (cell.table, cell.value) == ("handicap_count", str(expected))
    else:
        assert explained.cells == ()


def test_handicap_table_1_rulings_r22():
    """R22: the 150–199 column gives 3 rolls at a difference of 95; 300–349 is also 350–399."""
    assert R.handicap_rolls(150, 245) == 3
    assert R.handicap_rolls(199, 199 + 96) == 4
    assert R.handicap_rolls(350, 350 + 191) == R.handicap_rolls(300, 300 + 191) == 4
    assert R.handicap_roll_counts() == range(6)  # table 1's 0–5 rolls


# --- the data is the rulebook: the rows the rulings quote ------------------------------------------------
def test_the_data_is_the_rulebook():
    """Pins the raw rows used above to the rulings (a boundary test of wrong data would pass on its own)."""
    vandalism = [(r["min"], r["max"], r["target"]) for r in RAW["vandalism"]]
    assert vandalism == [  # R18 (the book's "Vandalisering")
        (0, 9999, None),
        (10000, 19999, 2),
        (20000, 29999, 3),
        (30000, 39999, 4),
        (40000, 49999, 5),
        (50000, 59999, 6),
        (60000, None, 7),
    ]
    skill = [(r["min"], r["points"]) for r in RAW["skill_points"]]  # R4
    assert skill == [(0, 0), (6, 1), (16, 3), (31, 6), (51, 10), (76, 15), (126, 21), (176, 28)]
    development = [(r["min"], r["max"], r["result"]) for r in RAW["development"]]  # R29
    assert development == [(2, 9, "skill"), (10, 10, "MA"), (11, 11, "AG"), (12, 12, "ST")]
    rows = [(r["min"], r["max"]) for r in RAW["winnings"]["rows"]]  # R21
    assert rows[0] == (0, 20000) and rows[1] == (20001, 40000) and rows[-1] == (160001, None)
    cols = [(r["min"], r["max"]) for r in RAW["winnings"]["columns"]]
    assert cols[0] == (None, 99) and cols[1] == (100, 125) and cols[-1] == (301, None)
    columns = [(c["min"], c["max"]) for c in RAW["handicap_count"]]  # R22
    assert columns == [(None, 149), (150, 199), (200, 249), (250, 299), (300, 399), (400, 499), (500, None)]
    assert RAW["handicap_count"][1]["bands"][3] == [61, 95]  # R22: in 150–199 a difference of 95 gives 3
