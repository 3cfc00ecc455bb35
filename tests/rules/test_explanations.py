"""What a page says a number came from (`explain_*`): each step's numbers are the rulings' (R1-R30), and
every message has its Norwegian in locale/nb/translations.json (the catalogue `make messages` fills), with
parameters that fit it. The explanations travel as JSON and come back the same (league/rules/messages.py).
No database, no Django.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import league.rules as rules
from league.rules.explained import Cell, Explained, _d66, _die, _non_negative, _ticket, signed
from league.rules.messages import Joined, Msg, from_json, message_from_dict, to_json

R = rules.default_ruleset()
NORWEGIAN: dict[str, str] = json.loads(
    (Path(__file__).resolve().parents[2] / "locale" / "nb" / "translations.json").read_text(encoding="utf-8")
)


def messages(value: Any) -> list[Msg]:
    """Every message in an explanation, its parameters' messages too."""
    if isinstance(value, Joined):
        return [m for p in value.parts for m in messages(p)]
    if isinstance(value, Msg):
        return [value, *(m for p in value.params.values() for m in messages(p))]
    if isinstance(value, list | tuple):
        return [m for v in value for m in messages(v)]
    return []


def lines(explained: Explained) -> list[str]:
    return [str(line) for line in explained.lines()]


def norwegian(text: str) -> str:
    assert text in NORWEGIAN, f"no Norwegian for {text!r}"
    return NORWEGIAN[text]


def assert_in_the_catalogue(explained: Explained) -> None:
    for line in explained.lines():
        for m in messages(line):
            norwegian(m.msgid)
        if isinstance(line, Msg):
            shown = line.render(norwegian, lambda n: f"{n:,}".replace(",", "\u00a0"))
            assert "%(" not in shown and shown


# --- R20, R21: winnings ------------------------------------------------------------------------------------
def test_winnings_explained_r20():
    """D6 3 + winner 1 + home 1; attendance 50,000 is row 40,001–60,000, expensive tickets move one row
    down (60,001–80,000); TR 110 is column 100–125: +3 (the Kampbonus table); VIP +1: 9 × 10,000."""
    e = R.explain_winnings(
        3, team_rating=110, attendance=50000, capacity=60000, won=True, home=True, ticket="expensive", vip=True
    )
    assert e.value == 90000
    assert lines(e) == [
        "Kampbonus: row 60,001–80,000, column 100–125: +3",
        "roll 3",
        "winner +1",
        "home +1",
        "expensive tickets: row 40,001–60,000 → 60,001–80,000",
        "table +3",
        "VIP lounge +1",
        "9 × 10,000 = 90,000",
    ]
    assert_in_the_catalogue(e)


def test_winnings_explained_at_the_edge_and_below_zero_r17_r20():
    """Cheap tickets in the first row stay put (R20); TR 400 is column 301+ (R21); 200,000 at a 60,000
    stadium counts 90,000 (R17): row 80,001–100,000."""
    e = R.explain_winnings(1, team_rating=400, attendance=10000, capacity=60000, won=False, home=False, ticket="cheap")
    assert e.value == 0
    assert lines(e) == [
        "Kampbonus: row 0–20,000, column 301+: -8",
        "roll 1",
        "cheap tickets: already at the table's edge, row stays",
        "table -8",
        "-7 × 10,000 = 0 (never below 0)",
    ]
    assert_in_the_catalogue(e)
    e = R.explain_winnings(6, team_rating=99, attendance=200000, capacity=60000, won=False, home=True)
    assert lines(e)[:3] == [
        "Kampbonus: row 80,001–100,000, column ≤99: +5",
        "roll 6",
        "attendance 200,000 counted as 90,000 (150% of capacity, R17)",
    ]
    assert e.value == (6 + 1 + 5) * 10000
    assert_in_the_catalogue(e)


def test_winnings_at_a_neutral_venue_r14():
    """No home +1, ordinary prices and 250,000 seats (R14), and no VIP lounge (R19)."""
    e = R.explain_winnings(
        2,
        team_rating=130,
        attendance=200000,
        capacity=60000,
        won=True,
        home=True,
        ticket="expensive",
        neutral=True,
        vip=True,
    )
    assert lines(e) == [
        "Kampbonus: row 160,001+, column 126–150: +7",
        "roll 2",
        "winner +1",
        "table +7",
        "10 × 10,000 = 100,000",
    ]
    assert e.value == 100000


def test_winnings_refuse_what_cannot_be():
    kw = dict(team_rating=100, attendance=0, capacity=60000, won=False, home=False)
    with pytest.raises(ValueError, match="D6"):
        R.winnings(7, **kw)
    assert R.winnings(5, die=5, **kw) == (5 + 0) * 10000  # a D5 division's 5; row 0–20,000, TR 100: 0 (R20)
    with pytest.raises(ValueError, match="D5"):
        R.winnings(6, die=5, **kw)
    with pytest.raises(ValueError, match="attendance"):
        R.winnings(3, **{**kw, "attendance": -1})
    with pytest.raises(ValueError, match="ticket must be ordinary, cheap or expensive, not 'free'"):
        R.winnings(3, **{**kw, "ticket": "free"})


def test_the_vip_lounge_needs_4_touchdowns_or_4_casualties_r19():
    assert R.vip_lounge_applies(touchdowns=4, casualties=0)
    assert R.vip_lounge_applies(touchdowns=0, casualties=4)
    assert not R.vip_lounge_applies(touchdowns=3, casualties=3)


@pytest.mark.parametrize(("roll", "income"), [(1, 0), (2, 0), (3, 10000), (6, 10000)])
def test_the_kiosk_gives_10_000_on_3_plus_r19(roll, income):
    assert R.kiosk_income(roll) == income


def test_counted_attendance_is_150_percent_of_capacity_rounded_down_r17():
    assert R.counted_attendance(90000, 60000) == 90000
    assert R.counted_attendance(90001, 60000) == 90000
    assert R.counted_attendance(10000, 60001) == 10000
    assert R.counted_attendance(100000, 60001) == 90001  # 90,001.5 rounded down


def test_the_tables_as_pages_show_them_r15_r21():
    ffm = R.ffm_table()
    raw = rules.default_data()["tables"]
    assert ffm[0] == (5, tuple(signed(v) for v in raw["fan_factor_modifier"]["cells"][0]))
    assert len(ffm) == 30 and ffm[-1][0] == 150
    winnings = R.winnings_table()
    assert [str(label) for label, _ in winnings][:2] == ["0–20,000", "20,001–40,000"]
    assert winnings[-1] == ("160,001+", ("+9", "+8", "+7", "+6", "+5", "+4", "+3", "+2", "+1", "0"))


# --- R12-R14: gate; R18: vandalism ------------------------------------------------------------------------
def test_gate_explained_r13():
    """Home +1 and cheap tickets +1 per die: 1, 2 → 3, 4 = 7 × 1,000."""
    e = R.explain_gate([1, 2], home=True, ticket="cheap")
    assert lines(e) == ["home +1 per die", "cheap tickets +1 per die", "dice [1, 2] → [3, 4] = 7 × 1,000 = 7,000"]
    assert e.value == 7000
    assert_in_the_catalogue(e)
    e = R.explain_gate([1, 2], home=False, ticket="expensive")
    assert lines(e) == ["away -1 per die", "expensive tickets -1 per die", "dice [1, 2] → [0, 0] = 0 × 1,000 = 0"]
    assert_in_the_catalogue(e)
    e = R.explain_gate([4], home=False, ticket="ordinary")
    assert lines(e) == ["away -1 per die", "dice [4] → [3] = 3 × 1,000 = 3,000"]  # ordinary: no ticket line
    e = R.explain_gate([4, 5], home=True, neutral=True, ticket="cheap", die=5)
    assert lines(e) == ["neutral venue: no die modifier", "dice [4, 5] → [4, 5] = 9 × 1,000 = 9,000"]
    assert_in_the_catalogue(e)
    with pytest.raises(ValueError, match="die 2: a D5 shows 1–5, not 6"):
        R.gate([5, 6], home=True, die=5)
    with pytest.raises(ValueError, match="ticket must be ordinary, cheap or expensive, not 'vip'"):
        R.gate([5], home=True, ticket="vip")


def test_vandalism_explained_r18():
    e = R.explain_vandalism_target(50000, 35000, 60000)  # overflow 25,000: 3+
    assert (e.value, lines(e)) == (3, ["Vandalisering: row 20,000–29,999: 3+", "overflow 25,000"])
    assert_in_the_catalogue(e)
    e = R.explain_vandalism_target(70000, 50000, 60000)  # overflow 60,000: automatic
    assert (e.value, lines(e)) == (7, ["Vandalisering: row 60,000+: automatic", "overflow 60,000"])
    assert_in_the_catalogue(e)
    e = R.explain_vandalism_target(35000, 30000, 60000)  # overflow 5,000: no risk
    assert (e.value, lines(e)) == (None, ["Vandalisering: row 0–9,999: no risk", "overflow 5,000"])
    assert_in_the_catalogue(e)
    e = R.explain_vandalism_target(30000, 30000, 60000)
    assert (e.value, lines(e)) == (None, ["60,000 does not exceed 60,000 seats"])
    assert_in_the_catalogue(e)
    e = R.explain_vandalism_target(200000, 60000, 60000, neutral=True)  # R14: 250,000 seats
    assert (e.value, lines(e)) == (2, ["Vandalisering: row 10,000–19,999: 2+", "overflow 10,000"])
    assert R.overflow(1, 2, 3) == 0 and R.overflow(5, 5, 3) == 7


# --- R30: fan factor; R1-R3: team rating; R22: handicap; R29: development; R16: expansion ---------------------
def test_fan_factor_change_explained_r30():
    """D6 3 + win 1 + 2 TDs 1 + 2 casualties 1 + crowd 1 - 1 for FF 12 + TV 1 = 7: over 5, +1."""
    e = R.explain_fan_factor_change(
        3, fan_factor=12, result="win", touchdowns=2, casualties=2, crowd_casualty=True, tv_station=True
    )
    assert e.value == 1
    assert lines(e) == [
        "Fan Factor endring: row > 5: +1",
        "D6 3",
        "win +1",
        "2+ touchdowns +1",
        "2+ casualties caused +1",
        "your crowd caused a casualty +1",
        "fan factor 12: 1 × -1 -1",
        "TV station +1",
        "total 7",
    ]
    assert_in_the_catalogue(e)
    e = R.explain_fan_factor_change(2, fan_factor=0, result="loss", touchdowns=1, casualties=1)
    assert (e.value, lines(e)) == (0, ["Fan Factor endring: row < 2: 0", "D6 2", "loss -1", "total 1"])  # FF ≥ 0
    assert_in_the_catalogue(e)
    e = R.explain_fan_factor_change(5, fan_factor=25, result="draw", touchdowns=0, casualties=0)
    assert (e.value, lines(e)) == (
        0,
        ["Fan Factor endring: row 2–5: 0", "D6 5", "fan factor 25: 2 × -1 -2", "total 3"],
    )  # a draw adds nothing and says nothing
    with pytest.raises(ValueError, match="result must be win, draw or loss, not 'tie'"):
        R.fan_factor_change(3, fan_factor=1, result="tie", touchdowns=0, casualties=0)
    with pytest.raises(ValueError, match="fan_factor"):
        R.fan_factor_change(3, fan_factor=-1, result="win", touchdowns=0, casualties=0)


@pytest.mark.parametrize(
    ("roll", "mods", "change"),
    [
        (1, {}, -1),
        (2, {}, 0),
        (5, {}, 0),
        (6, {}, 1),
        (4, {"result": "win", "touchdowns": 2}, 1),
        (1, {"result": "win"}, 0),
        (6, {"result": "loss"}, 0),
    ],
)
def test_fan_factor_change_bands_r30(roll, mods, change):
    """R30: total under 2: -1; 2–5: 0; over 5: +1, no automatic result on a natural 1 or 6."""
    kw = {"fan_factor": 5, "result": "draw", "touchdowns": 0, "casualties": 0, **mods}
    assert R.fan_factor_change(roll, **kw) == change


def test_team_rating_explained_r1_r2():
    """50,000 player + 1 re-roll at 50,000 + FF 1 (10,000) + 1 assistant (10,000) + 2 cheerleaders
    (10,000 + 20,000, R6) + apothecary 50,000 = 200,000 / 10,000 = 20, + 1 skill point (6 SPP, R4)."""
    e = R.explain_team_rating(
        [(50000, 6)], rerolls=1, reroll_price=50000, fan_factor=1, assistant_coaches=1, cheerleaders=2, apothecary=True
    )
    assert e.value == 21
    assert lines(e) == [
        "players: 50,000",
        "re-rolls: 50,000",
        "fan factor: 10,000",
        "assistant coaches: 10,000",
        "cheerleaders: 30,000",
        "apothecary: 50,000",
        "total 200,000 / 10,000 = 20",
        "skill points: 1",
        "team rating: 21",
    ]
    assert_in_the_catalogue(e)
    e = R.explain_team_rating(
        [], rerolls=0, reroll_price=50000, fan_factor=0, assistant_coaches=0, cheerleaders=0, apothecary=False
    )
    assert e.value == 0 and "apothecary: 0" in lines(e)


def test_staff_prices_r6_r7_r14():
    assert [R.cheerleader_price(n) for n in range(4)] == [10000, 20000, 30000, 40000]  # the n-th costs n × 10,000
    with pytest.raises(ValueError, match="count"):
        R.cheerleaders_value(-1)
    with pytest.raises(ValueError, match="phase must be creation, season or offseason, not 'x'"):
        R.reroll_price(50000, "x")
    assert R.reroll_price(70001, "offseason") == 105001  # × 1.5, rounded down
    assert R.match_rerolls(3, home=True) == 4 and R.match_rerolls(3, home=False) == 3  # the home team's +1 (R14)
    squad = R.squad([(50000, i) for i in range(20)])
    assert len(squad) == 16 and squad[0] == (50000, 19) and squad[-1] == (50000, 4)  # ties: more SPP (R3)


def test_handicap_explained_r22():
    e = R.explain_handicap_rolls(100, 130)  # lower 100: column ≤149; difference 30: row 26–50, 2 rolls
    assert lines(e) == ["Handicap tabell 1: row 26–50, column TR ≤149: 2", "lower TR 100, difference 30"]
    assert e.value == 2
    assert_in_the_catalogue(e)
    e = R.explain_handicap_rolls(130, 130)
    assert (e.value, lines(e)) == (0, ["equal team ratings: no handicap"])
    assert_in_the_catalogue(e)
    e = R.explain_handicap_rolls(520, 300)
    assert lines(e) == ["Handicap tabell 1: row 191+, column TR 300–399: 4", "lower TR 300, difference 220"]


def test_development_explained_r29():
    e = R.explain_development(5, 5)
    assert (e.value, lines(e)) == ("MA", ["Utvikling: row 10: MA (double)"])
    assert_in_the_catalogue(e)
    e = R.explain_development(3, 6)
    assert (e.value, lines(e)) == ("skill", ["Utvikling: row 2–9: skill"])
    assert_in_the_catalogue(e)
    e = R.explain_skill_points(31)
    assert lines(e) == ["Skillpoeng: row 31–50: Kommende stjerne, 6"]
    assert_in_the_catalogue(e)


def test_expansion_explained_r16():
    """60,000 → 70,000 costs 30,000 + 20,000 with a roof (2 gp a new seat)."""
    e = R.explain_expansion_cost(60000, 2, roof=True)
    assert lines(e) == ["60,000 → 70,000: 50,000", "70,000 → 80,000: 55,000"]
    assert e.value == 105000
    assert_in_the_catalogue(e)
    with pytest.raises(ValueError, match="steps cannot be negative"):
        R.expansion_cost(60000, -1)
    with pytest.raises(ValueError, match="capacity"):
        R.expansion_cost(-1)
    assert R.facility_price("kiosk", capacity=80000) == 50000  # the book's price, no price per seat (R19)
    with pytest.raises(ValueError, match="'sauna' is not a stadium facility"):
        R.facility("sauna")


# --- the shared checks, and the cells' words --------------------------------------------------------------------
def test_a_cell_reads_table_row_column_value():
    assert str(Cell("winnings", "0–20,000", "≤99", "+1")) == "Kampbonus: row 0–20,000, column ≤99: +1"
    assert str(Cell("vandalism", "0–9,999", None, "no risk")) == "Vandalisering: row 0–9,999: no risk"
    assert str(Cell("house_rules", "1", None, "2")) == "house_rules: row 1: 2"  # not a table: its key
    assert Cell("winnings", "a", "b", "c").__str__().msgid == "%(table)s: row %(row)s, column %(column)s: %(value)s"
    assert int(Explained(3.0)) == 3 and Explained(1).lines() == []


def test_the_shared_checks():
    assert [signed(v) for v in (-2, 0, 1)] == ["-2", "0", "+1"]
    for bad in (0, 7, True, "3", 2.0):
        with pytest.raises(ValueError, match=r"d1: a D6 shows 1–6, not"):
            _die("d1", bad, 6)
    _die("d1", 1, 6)
    _die("d1", 6, 6)
    for bad in (-1, True, "3", 1.5):
        with pytest.raises(ValueError, match=r"spp must be a whole number of 0 or more, not"):
            _non_negative("spp", bad)
    _non_negative("spp", 0)
    with pytest.raises(ValueError, match=r"a D66 is two dice 1–6 read as tens and units \(11–66\), not 67"):
        _d66(67)
    assert _ticket("cheap").msgid == "cheap" and _ticket("gold") == "gold"


# --- messages as JSON and in Norwegian --------------------------------------------------------------------------
def test_a_message_travels_as_json_and_comes_back():
    m = Msg("%(a)s and %(b)s in %(c)s", a=Msg("cheap"), b=[1, 2000], c=None)
    data = to_json(m)
    assert data == {
        "msgid": "%(a)s and %(b)s in %(c)s",
        "params": {"a": {"msgid": "cheap", "params": {}}, "b": [1, 2000], "c": None},
    }
    back = from_json(json.loads(json.dumps(data)))
    assert isinstance(back, Msg) and back == m and back.params == m.params
    assert str(m) == "cheap and [1, 2,000] in None"
    joined = Joined("; ", [Msg("home %(modifier)s per die", modifier="+1"), "plain"])
    assert str(joined) == "home +1 per die; plain"
    assert to_json(joined) == {
        "join": "; ",
        "parts": [{"msgid": "home %(modifier)s per die", "params": {"modifier": "+1"}}, "plain"],
    }
    back = from_json(to_json(joined))
    assert isinstance(back, Joined) and back == joined and back.parts == joined.parts
    assert to_json({"x": [m], "y": 3}) == {"x": [data], "y": 3}
    assert from_json({"msgid": 3, "params": {}}) == {"msgid": 3, "params": {}}  # not a message: kept
    assert message_from_dict({"join": "; ", "parts": "x"}) == {"join": "; ", "parts": "x"}
    assert message_from_dict({"msgid": "a", "params": {}, "more": 1}) == {"msgid": "a", "params": {}, "more": 1}
    import pickle

    assert pickle.loads(pickle.dumps(m)).params == m.params
    assert repr(Msg("x", n=1)) == "Msg('x', {'n': 1})" and repr(Joined(", ", ["a"])) == "Joined(', ', ('a',))"


def test_a_message_in_norwegian():
    m = Msg(
        "dice %(dice)s → %(modified)s = %(sum)s × %(unit)s = %(gate)s",
        dice=[1, 2],
        modified=[3, 4],
        sum=7,
        unit=1000,
        gate=7000,
    )
    shown = m.render(norwegian, lambda n: f"{n:,}".replace(",", " "))
    assert shown == norwegian(m.msgid) % {
        "dice": "1, 2",
        "modified": "3, 4",
        "sum": "7",
        "unit": "1 000",
        "gate": "7 000",
    }
    nested = Msg("%(ticket)s tickets %(modifier)s per die", ticket=Msg("cheap"), modifier="+1")
    assert nested.render(norwegian, str) == norwegian(nested.msgid) % {"ticket": norwegian("cheap"), "modifier": "+1"}
    joined = Joined("; ", [Msg("no risk"), "x"])
    assert joined.render(norwegian, str) == f"{norwegian('no risk')}; x"
    assert Msg("%(flag)s %(none)s %(text)s", flag=True, none=None, text=Path("a")).render(str, str) == "True None a"
    assert Msg("%(x)s", x=1.5).params == {"x": 1.5}
