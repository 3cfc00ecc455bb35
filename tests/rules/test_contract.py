"""The public contract of league.rules on the default ruleset, at every boundary the rulings name.

No database: these are pure table look-ups. Each case cites the table or ruling it checks.
"""

import pytest

import league.rules as rules

HUMAN_SQUAD = [(50000, 0)] * 6 + [(70000, 0)] * 2 + [(70000, 33), (90000, 18), (90000, 7)]


# --- R4: skill points and level-ups -------------------------------------------------------------
@pytest.mark.parametrize(
    ("spp", "points"),
    [
        (0, 0),
        (5, 0),
        (6, 1),
        (15, 1),
        (16, 3),
        (30, 3),
        (31, 6),
        (50, 6),
        (51, 10),
        (75, 10),
        (76, 15),
        (125, 15),
        (126, 21),
        (175, 21),
        (176, 28),
        (500, 28),
    ],
)
def test_skill_points_table_boundaries_r4(spp, points):
    assert rules.skill_points(spp) == points


@pytest.mark.parametrize(
    ("before", "after", "rolls"),
    [
        (0, 5, 0),
        (5, 6, 1),
        (6, 6, 0),
        (14, 17, 1),
        (15, 16, 1),
        (16, 30, 0),
        (30, 31, 1),
        (0, 31, 3),
        (50, 51, 1),
        (75, 76, 1),
        (125, 126, 1),
        (175, 176, 1),
        (176, 400, 0),
        (0, 176, 7),
        (40, 80, 2),
    ],
)
def test_level_ups_one_per_threshold_crossed_r4(before, after, rolls):
    assert rules.level_ups(before, after) == rolls


# --- R1-R3, R6: team rating ---------------------------------------------------------------------
def test_team_rating_worked_example_is_112():
    # EXAMPLES.md "Team rating": 1,020,000 → 102, skill points 6 + 3 + 1.
    tr = rules.team_rating(
        HUMAN_SQUAD, rerolls=3, reroll_price=50000, fan_factor=5, assistant_coaches=2, cheerleaders=3, apothecary=True
    )
    assert tr == 112


def test_team_rating_1_000_000_team_is_100_r1():
    assert (
        rules.team_rating(
            [(100000, 0)] * 10,
            rerolls=0,
            reroll_price=50000,
            fan_factor=0,
            assistant_coaches=0,
            cheerleaders=0,
            apothecary=False,
        )
        == 100
    )


def test_team_rating_counts_only_the_16_most_valuable_players_r3():
    players = [(50000, 0)] * 16 + [(40000, 100)]  # the 17th, cheaper, player's 15 skill points do not count
    tr = rules.team_rating(
        players, rerolls=0, reroll_price=50000, fan_factor=0, assistant_coaches=0, cheerleaders=0, apothecary=False
    )
    assert tr == 80


def test_team_rating_ties_on_value_keep_the_player_with_more_spp_r3():
    players = [(50000, 0)] * 15 + [(50000, 6), (50000, 0)]
    tr = rules.team_rating(
        players, rerolls=0, reroll_price=50000, fan_factor=0, assistant_coaches=0, cheerleaders=0, apothecary=False
    )
    assert tr == 80 + 1


@pytest.mark.parametrize(("count", "value"), [(0, 0), (1, 10000), (2, 30000), (3, 60000), (4, 100000), (10, 550000)])
def test_cheerleaders_progressive_value_r6(count, value):
    assert rules.cheerleaders_value(count) == value


@pytest.mark.parametrize(
    ("base", "phase", "price"),
    [
        (50000, "creation", 50000),
        (50000, "season", 100000),
        (50000, "offseason", 75000),
        (70000, "offseason", 105000),
        (40000, "season", 80000),
        (60000, "offseason", 90000),
    ],
)
def test_reroll_price_by_phase_r7(base, phase, price):
    assert rules.reroll_price(base, phase) == price


def test_reroll_price_refuses_an_unknown_phase():
    with pytest.raises(ValueError, match="phase"):
        rules.reroll_price(50000, "playoffs")


# --- R12-R14: gate ------------------------------------------------------------------------------
def test_gate_worked_example_home_and_away_r13():
    # EXAMPLES.md: eight D6 +1 each = 36,000; six D6 -1 each = 13,000.
    assert rules.gate([3, 5, 1, 6, 2, 4, 6, 1], home=True) == 36000
    assert rules.gate([2, 2, 3, 1, 6, 5], home=False) == 13000


def test_gate_expensive_tickets_apply_to_each_die_of_both_teams_r13():
    assert rules.gate([3, 5, 1, 6, 2, 4, 6, 1], home=True, ticket="expensive") == 28000
    assert rules.gate([2, 2, 3, 1, 6, 5], home=False, ticket="expensive") == 8000


def test_gate_cheap_tickets_r13():
    assert rules.gate([1, 1], home=True, ticket="cheap") == 6000
    assert rules.gate([1, 1], home=False, ticket="cheap") == 2000


def test_gate_modified_die_never_below_zero_r13():
    assert rules.gate([1, 1, 1], home=False, ticket="expensive") == 0


def test_gate_neutral_venue_has_no_modifier_and_ordinary_prices_r14():
    assert rules.gate([3, 5, 1], home=True, neutral=True) == 9000
    assert rules.gate([3, 5, 1], home=False, neutral=True, ticket="expensive") == 9000


def test_gate_d5_dice_in_the_second_division_r12():
    assert rules.gate([5, 5, 5, 5], home=True) == 24000
    assert rules.default_ruleset().gate_die(2) == 5
    assert rules.default_ruleset().gate_die(1) == 6


def test_gate_no_fans_no_dice():
    assert rules.gate([], home=True) == 0


@pytest.mark.parametrize("bad", [0, 7, -1])
def test_gate_refuses_impossible_dice(bad):
    with pytest.raises(ValueError, match="D6"):
        rules.gate([3, bad], home=True)


# --- R15: fan-factor modifier --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("home", "away", "ffm"),
    [
        (85000, 55000, 2),  # the rulebook's own example (Cowboys vs Eagles)
        (36000, 13000, 5),  # EXAMPLES.md: row 40, column 15
        (28000, 8000, 6),  # EXAMPLES.md expensive tickets: row 30, column 10
        (45000, 40000, 0),  # EXAMPLES.md full stadium: row 45, column 40
        (0, 0, 0),  # 0 counts as 5: row 5, column 5
        (5000, 5000, 0),
        (5000, 0, 0),
        (10000, 0, 3),  # row 10, column 5
        (6000, 0, 3),  # 6 thousand rounds up to 10
        (150000, 5000, 10),
        (151000, 150000, 0),  # above 150 counts as 150
        (400000, 5000, 10),
        (5000, 150000, -1),  # row 5, column 150 (blank in the book: column 145's value)
        (40000, 150000, -1),
        (135000, 150000, 0),  # row 135 as printed
        (140000, 120000, 1),  # row 140 as printed
        (145000, 150000, 0),
        (150000, 150000, 0),
        (100000, 5000, 10),
        (5000, 10000, -1),
        (120000, 25000, 9),
    ],
)
def test_fan_factor_modifier_table_r15(home, away, ffm):
    assert rules.fan_factor_modifier(home, away) == ffm


def test_ffm_explains_the_cell():
    explained = rules.default_ruleset().explain_fan_factor_modifier(85000, 55000)
    assert str(explained.cells[0]) == "Fan Factor-modifier: row 85, column 55: +2"


# --- R16: stadium expansion ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("capacity", "steps", "roof", "cost"),
    [
        (60000, 1, False, 30000),  # the rulebook's own example
        (70000, 1, False, 35000),
        (60000, 2, False, 65000),
        (60000, 2, True, 105000),  # EXAMPLES.md with a roof: 50,000 + 55,000
        (80000, 1, False, 40000),
        (47500, 1, False, 23000),  # half is 23,750: rounded down to whole thousands
        (52500, 1, False, 26000),
        (60000, 0, False, 0),
        (60000, 3, False, 30000 + 35000 + 40000),
    ],
)
def test_expansion_cost_r16(capacity, steps, roof, cost):
    assert rules.expansion_cost(capacity, steps, roof=roof) == cost


def test_roof_costs_one_gp_per_seat_r16():
    assert rules.default_ruleset().roof_cost(60000) == 60000
    assert rules.default_ruleset().facility_price("roof", capacity=80000) == 80000


def test_start_capacity_r16():
    r = rules.default_ruleset()
    assert r.start_capacity(first_division=False) == 60000
    assert r.start_capacity(first_division=True) == 80000


# --- R18: vandalism -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("home", "away", "capacity", "target"),
    [
        (30000, 30000, 60000, None),  # equal to capacity: does not exceed
        (30000, 20000, 60000, None),
        (35000, 34999, 60000, None),  # overflow 9,999: always fine
        (35000, 35000, 60000, 2),  # overflow 10,000
        (40000, 39999, 60000, 2),  # 19,999
        (40000, 40000, 60000, 3),  # 20,000
        (45000, 40000, 60000, 3),  # EXAMPLES.md full stadium: overflow 25,000
        (50000, 39999, 60000, 3),
        (50000, 40000, 60000, 4),  # 30,000
        (50000, 50000, 60000, 5),  # 40,000
        (60000, 49999, 60000, 5),
        (60000, 50000, 60000, 6),  # 50,000
        (60000, 59999, 60000, 6),
        (60000, 60000, 60000, 7),  # 60,000: automatic
        (100000, 100000, 60000, 7),
    ],
)
def test_vandalism_target_r18(home, away, capacity, target):
    assert rules.vandalism_target(home, away, capacity) == target


@pytest.mark.parametrize(
    ("home", "away", "capacity", "caretakers", "lost"),
    [
        (45000, 40000, 60000, False, 12500),  # EXAMPLES.md: half of 25,000
        (45000, 40000, 60000, True, 7500),  # caretakers repair 5,000
        (35000, 35000, 60000, False, 5000),
        (35000, 35000, 60000, True, 0),  # never negative
        (35000, 35001, 60000, False, 5000),  # half of 10,001 rounded down
        (30000, 30000, 60000, False, 0),  # no overflow
        (35000, 34999, 60000, False, 0),  # under 10,000: no vandalism can happen
        (100000, 100000, 60000, False, 70000),
    ],
)
def test_seats_destroyed_r18(home, away, capacity, caretakers, lost):
    assert rules.seats_destroyed(home, away, capacity, caretakers=caretakers) == lost


# --- R17, R20, R21: winnings --------------------------------------------------------------------
def test_winnings_worked_example():
    # EXAMPLES.md: attendance 49,000 → row 40,001-60,000.
    assert rules.winnings(4, team_rating=112, attendance=49000, capacity=60000, won=True, home=True) == 80000
    assert rules.winnings(2, team_rating=140, attendance=49000, capacity=60000, won=False, home=False) == 30000


def test_winnings_expensive_tickets_move_one_row_down_r20():
    # EXAMPLES.md: 36,000 is row 20,001-40,000, moved down to 40,001-60,000: again 80,000.
    assert (
        rules.winnings(4, team_rating=112, attendance=36000, capacity=60000, won=True, home=True, ticket="expensive")
        == 80000
    )
    assert rules.winnings(4, team_rating=112, attendance=36000, capacity=60000, won=True, home=True) == 70000


def test_winnings_cheap_tickets_move_one_row_up_r20():
    assert (
        rules.winnings(4, team_rating=112, attendance=49000, capacity=60000, won=True, home=True, ticket="cheap")
        == 70000
    )


def test_winnings_ticket_move_past_the_edge_stays_put_r20():
    # row 0-20,000, cheap: stays; TR 50 column ≤99 = +1
    assert (
        rules.winnings(3, team_rating=50, attendance=10000, capacity=60000, won=False, home=False, ticket="cheap")
        == 40000
    )
    # over 160,000, expensive: stays; TR 50 = +9
    assert (
        rules.winnings(1, team_rating=50, attendance=200000, capacity=200000, won=False, home=False, ticket="expensive")
        == 100000
    )


@pytest.mark.parametrize(
    ("attendance", "modifier"),
    [
        (0, 1),
        (20000, 1),
        (20001, 2),
        (40000, 2),
        (40001, 3),
        (60000, 3),
        (60001, 4),
        (80000, 4),
        (80001, 5),
        (100000, 5),
        (100001, 6),
        (120001, 7),
        (140001, 8),
        (160000, 8),
        (160001, 9),
    ],
)
def test_winnings_rows_r21(attendance, modifier):
    # TR 50: column ≤99, where the modifier is the row number (+1 … +9); roll 1, away, lost.
    assert (
        rules.winnings(1, team_rating=50, attendance=attendance, capacity=200000, won=False, home=False)
        == (1 + modifier) * 10000
    )


@pytest.mark.parametrize(
    ("tr", "modifier"),
    [
        (1, 9),
        (99, 9),
        (100, 8),
        (125, 8),
        (126, 7),
        (150, 7),
        (151, 6),
        (175, 6),
        (176, 5),
        (200, 5),
        (201, 4),
        (225, 4),
        (226, 3),
        (250, 3),
        (251, 2),
        (275, 2),
        (276, 1),
        (300, 1),
        (301, 0),
        (450, 0),
    ],
)
def test_winnings_columns_r21(tr, modifier):
    # row over 160,000; roll 1, away, lost.
    assert (
        rules.winnings(1, team_rating=tr, attendance=170000, capacity=200000, won=False, home=False)
        == (1 + modifier) * 10000
    )


def test_winnings_never_below_zero_r20():
    assert rules.winnings(1, team_rating=320, attendance=5000, capacity=60000, won=False, home=False) == 0


def test_winnings_overcrowding_counts_150_percent_of_capacity_r17():
    # 60,000 seats: at most 90,000 count → row 80,001-100,000 (+5 at TR ≤99), not 100,001-120,000.
    assert rules.winnings(1, team_rating=90, attendance=130000, capacity=60000, won=False, home=False) == 60000
    # EXAMPLES.md full stadium: 85,000 is under the 90,000 cap → row 80,001-100,000.
    assert rules.winnings(1, team_rating=90, attendance=85000, capacity=60000, won=False, home=False) == 60000
    # 47,500 seats cap at 71,250 → row 60,001-80,000.
    assert rules.winnings(1, team_rating=90, attendance=85000, capacity=47500, won=False, home=False) == 50000


def test_winnings_neutral_venue_no_home_bonus_and_250_000_capacity_r14():
    # 130,000 at a neutral venue is not capped (250,000 × 150%): row 120,001-140,000 → +7 at TR ≤99
    assert (
        rules.winnings(1, team_rating=90, attendance=130000, capacity=60000, won=False, home=True, neutral=True)
        == 80000
    )
    assert (
        rules.winnings(
            1, team_rating=90, attendance=130000, capacity=60000, won=False, home=True, neutral=True, ticket="expensive"
        )
        == 80000
    )


def test_winnings_vip_lounge_only_at_home_r19():
    base = dict(team_rating=112, attendance=49000, capacity=60000, won=True)
    assert rules.winnings(4, home=True, vip=True, **base) == 90000
    assert rules.winnings(4, home=False, vip=True, **base) == 70000
    assert rules.winnings(4, home=True, vip=True, neutral=True, **base) == 70000


def test_winnings_explains_row_column_and_modifiers():
    e = rules.default_ruleset().explain_winnings(
        4, team_rating=112, attendance=49000, capacity=60000, won=True, home=True
    )
    assert str(e.cells[0]) == "Kampbonus: row 40,001–60,000, column 100–125: +2"
    assert e.steps[:4] == ("roll 4", "winner +1", "home +1", "table +2")


def test_kiosk_3_plus_gives_10_000_r19():
    r = rules.default_ruleset()
    assert [r.kiosk_income(d) for d in range(1, 7)] == [0, 0, 10000, 10000, 10000, 10000]


# --- R22: handicap ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b", "rolls"),
    [
        (112, 140, 2),  # EXAMPLES.md: column ≤149, difference 28
        (140, 112, 2),
        (100, 100, 0),  # equal
        (100, 110, 0),
        (100, 111, 1),
        (100, 125, 1),
        (100, 126, 2),
        (100, 150, 2),
        (100, 151, 3),
        (100, 180, 3),
        (100, 181, 4),
        (100, 220, 4),
        (100, 221, 5),
        (100, 400, 5),
        (149, 159, 0),
        (149, 160, 1),
        (150, 165, 0),
        (150, 166, 1),
        (150, 180, 1),
        (150, 181, 2),
        (150, 210, 2),
        (150, 211, 3),
        (150, 245, 3),  # difference 95 gives 3 rolls (R22)
        (150, 246, 4),
        (150, 295, 4),
        (150, 296, 5),
        (200, 220, 0),
        (200, 221, 1),
        (200, 240, 1),
        (200, 241, 2),
        (200, 280, 2),
        (200, 281, 3),
        (200, 330, 3),
        (200, 331, 4),
        (200, 395, 4),
        (200, 396, 5),
        (250, 275, 0),
        (250, 276, 1),
        (250, 351, 3),
        (250, 410, 3),
        (250, 411, 4),
        (250, 900, 4),
        (300, 330, 0),
        (300, 331, 1),
        (300, 490, 3),
        (300, 491, 4),
        (300, 421, 3),
        (350, 380, 0),
        (350, 381, 1),
        (399, 590, 4),  # 350-399 use the 300-349 column (R22)
        (400, 440, 0),
        (400, 441, 1),
        (400, 560, 2),
        (400, 561, 3),
        (400, 999, 3),
        (500, 550, 0),
        (500, 551, 1),
        (500, 700, 2),
        (500, 701, 3),
    ],
)
def test_handicap_rolls_table_1_r22(a, b, rolls):
    assert rules.handicap_rolls(a, b) == rolls


@pytest.mark.parametrize(
    ("d66", "key"),
    [
        (11, "extra_training"),
        (12, "extra_training"),
        (13, "intensive_training"),
        (15, "inspiration"),
        (16, "inspiration"),
        (21, "i_am_the_beast"),
        (36, "big_brother"),
        (44, "i_didnt_do_it"),
        (61, "virus"),
        (62, "virus"),
        (63, "iron_man"),
        (66, "xtc"),
    ],
)
def test_handicap_table_2(d66, key):
    assert rules.default_ruleset().handicap_result(d66).key == key


# --- R30: fan factor ----------------------------------------------------------------------------
def test_fan_factor_worked_example():
    assert rules.fan_factor_change(4, fan_factor=8, result="win", touchdowns=2, casualties=1) == 1
    assert rules.fan_factor_change(3, fan_factor=6, result="loss", touchdowns=0, casualties=2) == 0


@pytest.mark.parametrize(
    ("roll", "kwargs", "change"),
    [
        (1, dict(fan_factor=5, result="draw", touchdowns=0, casualties=0), -1),  # 1 < 2
        (2, dict(fan_factor=5, result="draw", touchdowns=0, casualties=0), 0),  # 2-5: no change
        (5, dict(fan_factor=5, result="draw", touchdowns=0, casualties=0), 0),
        (6, dict(fan_factor=5, result="draw", touchdowns=0, casualties=0), 1),  # over 5
        (6, dict(fan_factor=5, result="loss", touchdowns=0, casualties=0), 0),  # no automatic 6
        (1, dict(fan_factor=5, result="win", touchdowns=0, casualties=0), 0),  # no automatic 1
        (2, dict(fan_factor=5, result="loss", touchdowns=0, casualties=0), -1),
        (5, dict(fan_factor=10, result="draw", touchdowns=0, casualties=0), 0),  # -1 per full 10
        (6, dict(fan_factor=10, result="draw", touchdowns=0, casualties=0), 0),
        (6, dict(fan_factor=9, result="draw", touchdowns=0, casualties=0), 1),
        (6, dict(fan_factor=20, result="win", touchdowns=0, casualties=0), 0),  # 6+1-2
        (3, dict(fan_factor=5, result="draw", touchdowns=2, casualties=2, crowd_casualty=True), 1),
        (3, dict(fan_factor=5, result="draw", touchdowns=1, casualties=1, crowd_casualty=True), 0),
        (5, dict(fan_factor=5, result="draw", touchdowns=0, casualties=0, tv_station=True), 1),  # R19
        (1, dict(fan_factor=0, result="loss", touchdowns=0, casualties=0), 0),  # FF never below 0
        (1, dict(fan_factor=1, result="loss", touchdowns=0, casualties=0), -1),
    ],
)
def test_fan_factor_change_r30(roll, kwargs, change):
    assert rules.fan_factor_change(roll, **kwargs) == change


# --- R29: development ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("d1", "d2", "result"),
    [(1, 1, "skill"), (3, 6, "skill"), (4, 5, "skill"), (5, 5, "MA"), (4, 6, "MA"), (5, 6, "AG"), (6, 6, "ST")],
)
def test_development_table_r29(d1, d2, result):
    assert rules.development(d1, d2) == result


def test_development_doubles_open_traits_and_other_categories_r29():
    r = rules.default_ruleset()
    double = r.development_options(5, 5)
    assert double.is_double and double.stat == "MA" and double.trait_normal and double.skill_any_other
    single = r.development_options(4, 6)
    assert not single.is_double and single.stat == "MA" and not single.trait_normal
    assert r.development_options(2, 3).stat is None


def test_stat_limit_plus_or_minus_two_r29():
    r = rules.default_ruleset()
    assert r.stat_change_allowed(3, 4, 1)
    assert not r.stat_change_allowed(3, 5, 1)
    assert r.stat_change_allowed(3, 2, -1)
    assert not r.stat_change_allowed(3, 1, -1)


def test_mutation_tables():
    r = rules.default_ruleset()
    assert r.mutation("Bony Growth", 1) == "Claw"
    assert r.mutation("Extraordinary Appendage", 4) == "Very Long Legs"
    assert r.mutation("Chaotic Gift", 1) == "Disturbing Presence"
    assert r.tzeentch_mutation(1, 1) == "Big Hand"
    assert r.tzeentch_mutation(3, 4) == "Horns"
    assert r.tzeentch_mutation(6, 6) == "choice"
    assert r.may_always_mutate("Warrior Riding Disc") and not r.may_always_mutate("Lineman")


# --- Serious injury table (D66) -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("d66", "miss", "niggling", "stat", "dead"),
    [
        (11, 0, False, None, False),
        (16, 0, False, None, False),
        (21, 1, False, None, False),
        (26, 1, False, None, False),
        (31, 2, False, None, False),
        (36, 2, False, None, False),
        (41, 3, True, None, False),
        (46, 3, True, None, False),
        (51, 4, True, None, False),
        (53, 4, True, None, False),
        (54, 4, False, "MA", False),
        (56, 4, False, "MA", False),
        (61, 5, False, "AG", False),
        (62, 5, False, "AG", False),
        (63, 5, False, "AV", False),
        (64, 5, False, "AV", False),
        (65, 5, False, "ST", False),
        (66, 0, False, None, True),
    ],
)
def test_serious_injury_table(d66, miss, niggling, stat, dead):
    si = rules.serious_injury(d66)
    assert (si.miss_matches, si.niggling, si.stat, si.dead) == (miss, niggling, stat, dead)
    assert si.name


@pytest.mark.parametrize("bad", [10, 17, 67, 70, 0, 7])
def test_serious_injury_refuses_what_a_d66_cannot_show(bad):
    with pytest.raises(ValueError, match="D66"):
        rules.serious_injury(bad)


# --- the reviewer's edge cases: die sizes, neutral vandalism, the home re-roll setting ---------------
def test_a_d5_division_refuses_a_6_r12():
    r = rules.default_ruleset()
    assert r.gate([5, 5], home=True, die=5) == 12000
    with pytest.raises(ValueError, match="D5"):
        r.gate([6, 5], home=True, die=5)
    with pytest.raises(ValueError, match="D5"):
        r.winnings(6, team_rating=100, attendance=10000, capacity=60000, won=True, home=True, die=5)


def test_no_seats_lost_at_a_neutral_venue_r14():
    r = rules.default_ruleset()
    assert r.seats_destroyed(45000, 40000, 60000, neutral=True) == 0
    assert r.vandalism_target(45000, 40000, 60000, neutral=True) is None  # 85,000 in 250,000 seats
    assert r.vandalism_target(150000, 110000, 60000, neutral=True) == 2  # 10,000 over 250,000


def test_home_team_rerolls_is_a_setting_r14():
    assert rules.default_ruleset().settings.home_team_rerolls == 1
