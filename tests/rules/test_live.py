"""The match as played, derived from its log (league.rules.live, issue 17): pure, no database.
Each case cites the rulebook section it checks."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.rules import live as r

E = r.Event
SETUP = r.Setup(rerolls={"home": 4, "away": 3}, weather="nice")


# --- Re-Roll (RR): half of those used back at half-time, rounded up -----------------------------
@pytest.mark.parametrize(("used", "back"), [(0, 0), (1, 1), (2, 1), (3, 2), (5, 3), (8, 4)])
def test_half_time_recovery_is_half_rounded_up(used, back):
    assert r.half_time_recovery(used) == back


def test_the_books_example_7_rerolls_5_used_starts_the_second_half_with_5():
    # "Lag A har 7 RR, og bruker 5 i første omgang ... starter andre omgang med 2+3=5 RR"
    assert r.second_half_rerolls(7, 5) == 5


def test_derived_half_time_applies_the_house_rule():
    events = [E(r.START), *[E(r.REROLL, "home")] * 3, E(r.REROLL, "away"), E(r.HALF_TIME)]
    state = r.derive(SETUP, events)
    assert state.half == 2
    assert state.recovered == {"home": 2, "away": 1}  # ceil(3/2), ceil(1/2)
    assert state.rerolls_left("home") == 4 - 3 + 2
    assert state.rerolls_left("away") == 3 - 1 + 1


# --- Master Chef's: 2+ an extra re-roll for the half; the opponent loses one, capped --------------
def test_master_chef_each_die_of_2_plus_and_the_opponent_loses_as_many_capped():
    assert r.chef_successes([1, 2, 6]) == 2
    setup = r.Setup(rerolls={"home": 2, "away": 1}, weather="nice")
    state = r.derive(setup, [E(r.START, data={"chef": {"home": [4, 5]}})])
    assert state.rerolls["home"].extra == 2
    assert state.rerolls["away"].lost == 1  # "kan ikke miste flere ... enn laget har fra start av"
    assert state.rerolls_left("home") == 4 and state.rerolls_left("away") == 0


def test_master_chef_extra_rerolls_end_with_the_half_and_are_spent_first():
    setup = r.Setup(rerolls={"home": 2, "away": 2}, weather="nice")
    events = [E(r.START, data={"chef": {"home": [3]}}), E(r.REROLL, "home"), E(r.REROLL, "home"), E(r.HALF_TIME)]
    state = r.derive(setup, events)
    # 2 used: the chef's 1 first, then 1 own; 1 own used → 1 back: 2 - 1 + 1 = 2 for the second half
    assert state.recovered["home"] == 1
    assert state.rerolls_left("home") == 2
    assert state.rerolls_left("away") == 2  # the lost one came back with the new half


def test_a_one_from_the_master_chef_gives_nothing():
    state = r.derive(SETUP, [E(r.START, data={"chef": {"home": [1]}})])
    assert state.rerolls["home"].extra == 0 and state.rerolls["away"].lost == 0


# --- Kick-Off table -----------------------------------------------------------------------------
def test_kickoff_7_changes_the_weather():
    state = r.derive(
        SETUP, [E(r.START), E(r.KICKOFF, "home", data={"result": "changing_weather", "weather": "blizzard"})]
    )
    assert state.weather == "blizzard"


def test_kickoff_5_and_9_give_the_winner_an_extra_reroll_for_the_half_only():
    events = [E(r.START), E(r.KICKOFF, "home", data={"result": "practised_move", "extra_reroll": "away"})]
    assert r.derive(SETUP, events).rerolls_left("away") == 4
    assert r.derive(SETUP, [*events, E(r.HALF_TIME)]).rerolls_left("away") == 3


def test_the_roll_offs_totals_the_ffm_is_the_home_teams():
    # 12. spiller: D6 + FFM + cheerleaders; Innøvd trekk: 2D6 + FFM + assistant coaches
    assert r.kickoff_contest("twelfth_player", [3], [4], ffm=2, home_staff=1, away_staff=0) == (6, 4)
    assert r.kickoff_contest("practised_move", [3, 3], [6, 6], ffm=-1, home_staff=0, away_staff=2) == (5, 14)
    assert r.contest_winner(5, 5) is None  # "Bruk tie-break": rolled again
    assert r.contest_winner(6, 4) == "home"


def test_a_riot_moves_both_turn_markers_and_can_end_the_half():
    events = [E(r.START), E(r.TURN, "away"), E(r.KICKOFF, "home", data={"result": "riot", "riot_turns": 6})]
    state = r.derive(SETUP, events)
    assert state.turns == {"home": 6, "away": 7}
    events.append(E(r.KICKOFF, "home", data={"result": "riot", "riot_turns": 3}))
    assert r.derive(SETUP, events).half_over


# --- turns, score, who kicks (Hjemmebane: home kicks the first half, away the second) ---------------
def test_turns_touchdowns_and_kicking_team():
    state = r.derive(SETUP, [E(r.START)])
    assert state.kicking == "home" and state.active == "away"
    state = r.derive(SETUP, [E(r.START), E(r.TURN, "away"), E(r.TOUCHDOWN, "home", player=7)])
    assert state.score == {"home": 1, "away": 0}
    assert state.turns == {"home": 1, "away": 1}
    assert state.kicking == "home" and state.active == "away"
    state = r.derive(SETUP, [E(r.START), E(r.HALF_TIME)])
    assert state.kicking == "away" and state.active == "home"
    assert r.derive(SETUP, [E(r.START), E(r.HALF_TIME), E(r.END)]).ended


def test_doom_and_gloom_halves_the_first_half_only():
    setup = r.Setup(rerolls={"home": 5, "away": 3}, weather="nice", doom_and_gloom=frozenset({"home"}))
    state = r.derive(setup, [E(r.START), E(r.REROLL, "home")])
    assert state.rerolls_left("home") == 1  # 5 // 2 = 2, one used
    assert r.derive(setup, [E(r.START), E(r.REROLL, "home"), E(r.HALF_TIME)]).rerolls_left("home") == 5 - 1 + 1


# --- Spillerutviklinger: the report's lines from the log (R28, R38) ----------------------------------
def test_tally_counts_each_deed_and_keeps_the_worst_injury():
    events = [
        E(r.TOUCHDOWN, "home", player=1),
        E(r.COMPLETION, "home", player=2),
        E(r.INTERCEPTION, "away", player=3),
        E(r.CASUALTY, "home", player=1, victim=4, data={"how": "block", "injury": "badly_hurt"}),
        E(r.CASUALTY, "home", player=2, victim=4, data={"how": "foul", "injury": "dead"}),
        E(r.CROWD, "away", player=3, victim=5, data={"injury": "serious_injury"}),
        E(r.INJURY, "home", victim=6, data={"injury": "badly_hurt"}),
        E(r.SENT_OFF, "home", player=2),
    ]
    lines = r.tally(events)
    assert (lines[1].touchdowns, lines[1].casualties) == (1, 1)
    assert (lines[2].completions, lines[2].foul_casualties, lines[2].sent_off) == (1, 1, True)
    assert (lines[3].interceptions, lines[3].crowd_casualties) == (1, 1)
    assert (lines[4].injury, lines[4].injured_by) == ("dead", 2)
    assert (lines[5].injury, lines[5].injured_by) == ("serious_injury", 3)
    assert (lines[6].injury, lines[6].injured_by) == ("badly_hurt", None)
    assert r.casualties_caused(events) == {"home": 2, "away": 1}  # R38: the injury without a cause is not counted


# --- out of play: seriously injured, dead or sent off earlier in the match (issue 24) ---------------------
HURT = {
    "dead": E(r.CASUALTY, "away", player=7, victim=1, data={"how": "block", "injury": "dead"}),
    "serious_injury": E(r.CROWD, "away", victim=1, data={"injury": "serious_injury"}),
    "injury_dead": E(r.INJURY, "home", victim=1, data={"injury": "dead"}),
    "sent_off": E(r.SENT_OFF, "home", player=1),
}


@pytest.mark.parametrize(
    ("entry", "why"),
    [("dead", "dead"), ("serious_injury", "serious_injury"), ("injury_dead", "dead"), ("sent_off", "sent_off")],
)
def test_a_dead_seriously_injured_or_sent_off_player_is_out_of_play(entry, why):
    assert r.out_of_play([E(r.START), E(r.TOUCHDOWN, "home", player=1), HURT[entry]]) == {1: why}


@pytest.mark.parametrize(
    "event",
    [
        E(
            r.CASUALTY, "away", player=7, victim=1, data={"how": "foul", "injury": "badly_hurt"}
        ),  # R26: may be healed back
        E(r.KO, "home", victim=1),  # back at a kick-off on 4+
        E(r.TOUCHDOWN, "home", player=1),
        E(r.CASUALTY, "home", player=1, victim=7, data={"how": "block", "injury": "dead"}),  # he caused it
    ],
)
def test_badly_hurt_kod_or_busy_players_stay_in_play(event):
    assert 1 not in r.out_of_play([E(r.START), event])


def test_only_earlier_entries_count_and_an_undone_one_is_left_out():
    # The touchdown before his death stands; the log's kept entries (an undone death left out by the
    # caller, as for derive and tally) put him back.
    assert r.out_of_play([E(r.TOUCHDOWN, "home", player=1)]) == {}
    assert r.out_of_play([E(r.TOUCHDOWN, "home", player=1), HURT["dead"]]) == {1: "dead"}
    assert r.out_of_play([HURT["sent_off"], HURT["dead"]]) == {1: "sent_off"}  # the first reason stands


@pytest.mark.parametrize(
    ("event", "named"),
    [
        (E(r.TOUCHDOWN, "home", player=1), [1]),
        (E(r.COMPLETION, "home", player=1), [1]),
        (E(r.INTERCEPTION, "home", player=1), [1]),
        (E(r.SENT_OFF, "home", player=1), [1]),
        (E(r.CASUALTY, "home", player=1, victim=7, data={"how": "block", "injury": "badly_hurt"}), [1]),
        (E(r.CASUALTY, "away", player=7, victim=1, data={"how": "foul", "injury": "dead"}), [1]),  # hurt again
        (E(r.CROWD, "away", victim=1, data={"injury": "badly_hurt"}), [1]),
        (E(r.INJURY, "home", victim=1, data={"injury": "badly_hurt"}), [1]),
        (E(r.KO, "home", victim=1), [1]),
        (E(r.CASUALTY, "away", player=7, victim=2, data={"how": "block", "injury": "dead"}), []),
        (E(r.TOUCHDOWN, "away", player=7), []),
    ],
)
def test_an_entry_naming_a_player_out_of_play_is_named(event, named):
    assert r.named_out_of_play(event, {1: "dead"}) == named


# --- issue 25: each rule's edges ------------------------------------------------------------------
def _turns(count: int) -> list[r.Event]:
    """`count` turns, the receiving team first (away in the first half, Hjemmebane), then in turn."""
    return [E(r.TURN, ("away", "home")[i % 2]) for i in range(count)]


@pytest.mark.parametrize(
    ("played", "away", "home"),
    [(0, 1, 1), (1, 2, 1), (14, 8, 8), (15, 8, 8), (16, 8, 8)],
    ids=["first", "second", "last", "one-past", "both-past"],
)
def test_the_turn_marker_runs_1_to_8_two_halves_of_eight_turns(played, away, home):
    # "to (2) omganger à åtte (8) runder": the marker shows the turn being played, never past 8.
    state = r.derive(SETUP, [E(r.START), *_turns(played)])
    assert state.turns == {"away": (played + 1) // 2, "home": played // 2}
    assert (state.turn("away"), state.turn("home")) == (away, home)
    assert state.half_over is (played == 16)


def test_each_turn_passes_the_play_to_the_other_team_and_each_touchdown_counts():
    # Hjemmebane: away receives and moves first; a touchdown ends the scorer's turn and he kicks off next.
    events = [E(r.START), E(r.TURN, "away"), E(r.TURN, "home"), E(r.TURN, "away")]
    state = r.derive(SETUP, events)
    assert (state.turns, state.active) == ({"home": 1, "away": 2}, "home")
    events.append(E(r.TOUCHDOWN, "home", player=7))  # in home's second turn
    state = r.derive(SETUP, events)
    assert (state.score, state.turns) == ({"home": 1, "away": 0}, {"home": 2, "away": 2})
    assert (state.kicking, state.active) == ("home", "away")
    events += [E(r.TOUCHDOWN, "away", player=3), E(r.TURN, "home"), E(r.TOUCHDOWN, "away", player=3)]
    state = r.derive(SETUP, events)
    assert (state.score, state.turns) == ({"home": 1, "away": 2}, {"home": 3, "away": 4})
    assert (state.kicking, state.active) == ("away", "home")


def test_before_the_kick_off_the_pre_match_stands_and_entries_count_for_nothing():
    # Nothing is played before the start: the pre-match's weather and team re-rolls (R14's +1 included).
    early = [E(r.TURN, "away"), E(r.TOUCHDOWN, "home", player=1), E(r.REROLL, "home"), E(r.HALF_TIME), E(r.END)]
    state = r.derive(SETUP, early)
    assert (state.half, state.weather, state.score) == (0, "nice", {"home": 0, "away": 0})
    assert (state.rerolls_left("home"), state.rerolls_left("away")) == (4, 3)
    state = r.derive(SETUP, [*early, E(r.START)])
    assert (state.half, state.score, state.turns) == (1, {"home": 0, "away": 0}, {"home": 0, "away": 0})
    assert (state.weather, state.rerolls_left("home"), state.rerolls_left("away")) == ("nice", 4, 3)


def test_a_log_without_its_pre_match_has_no_team_rerolls():
    # A side the setup does not name has none (matches.live.state.setup_of without a pre-match).
    for events in ([], [E(r.START)]):
        state = r.derive(r.Setup(rerolls={"home": 2}, weather=""), events)
        assert (state.rerolls_left("home"), state.rerolls_left("away")) == (2, 0)


def test_the_clock_runs_start_half_time_end_in_that_order():
    assert r.derive(SETUP, [E(r.START), E(r.END)]).half == 1  # no end in the first half
    state = r.derive(SETUP, [E(r.START), E(r.TURN, "away"), E(r.REROLL, "away"), E(r.START)])
    assert (state.half, state.turns, state.rerolls_left("away")) == (1, {"home": 0, "away": 1}, 2)  # no restart
    state = r.derive(SETUP, [E(r.START), E(r.HALF_TIME), E(r.TURN, "home"), E(r.HALF_TIME)])
    assert (state.half, state.turns, state.playing, state.ended) == (2, {"home": 1, "away": 0}, True, False)
    after = [E(r.START), E(r.HALF_TIME), E(r.END), E(r.TOUCHDOWN, "home", player=1), E(r.TURN, "home")]
    state = r.derive(SETUP, after)
    assert (state.half, state.ended, state.playing, state.score) == (3, True, False, {"home": 0, "away": 0})


# Handicap table 2, 41-42 DOOM & GLOOM: "får Team RR for første omgang halvert" (a half re-roll is none).
@pytest.mark.parametrize(("full", "first"), [(0, 0), (1, 0), (2, 1), (3, 1), (8, 4)])
def test_doom_and_gloom_halves_rounded_down_and_only_when_drawn(full, first):
    assert r.first_half_rerolls(full, doom_and_gloom=True) == first
    assert r.first_half_rerolls(full) == full
    setup = r.Setup(rerolls={"home": full, "away": full}, weather="nice", doom_and_gloom=frozenset({"away"}))
    state = r.derive(setup, [E(r.START)])
    assert (state.rerolls_left("home"), state.rerolls_left("away")) == (full, first)


def test_half_time_recovery_refuses_a_negative_count():
    with pytest.raises(ValueError, match="0 or more"):
        r.half_time_recovery(-1)


# Master Chef's: "Før hver omgang kastes en D6. På 2+ ... en ekstra 'Team Re-roll' for den omgangen" ---------
@pytest.mark.parametrize(("dice", "won"), [([], 0), ([1], 0), ([2], 1), ([6], 1), ([1, 1, 2], 1), ([2, 3, 6], 3)])
def test_master_chef_each_d6_of_2_plus_is_one_extra_reroll(dice, won):
    assert r.chef_successes(dice) == won


@given(st.lists(st.integers(1, 6), max_size=6))
def test_master_chef_counts_the_dice_showing_2_to_6(dice):
    assert r.chef_successes(dice) == len([d for d in dice if d in (2, 3, 4, 5, 6)])


@pytest.mark.parametrize("bad", [0, 7, -1, True, 3.0, "4"])
def test_a_master_chef_d6_shows_1_to_6(bad):
    with pytest.raises(ValueError, match=re.escape(f"not {bad!r}")):
        r.chef_successes([3, bad])


def test_only_the_halflings_have_a_chef_the_other_side_wins_nothing():
    # "mister motstanderen en 'Team Re-roll' ... ikke miste flere 'Team Re-rolls' enn laget har fra start av"
    extra, lost = r.chef_effects({"home": 2}, {"home": 3, "away": 1})
    assert (extra, lost) == ({"home": 2, "away": 0}, {"home": 0, "away": 1})


def test_master_chef_rolls_again_before_the_second_half():
    setup = r.Setup(rerolls={"home": 3, "away": 2}, weather="nice")
    state = r.derive(setup, [E(r.START), E(r.HALF_TIME, data={"chef": {"away": [1, 2]}})])
    assert (state.rerolls["away"].extra, state.rerolls["home"].lost) == (1, 1)
    assert (state.rerolls_left("away"), state.rerolls_left("home")) == (3, 2)


# Kick-Off table 5 (12. SPILLER, D6) and 9 (INNØVD TREKK, 2D6): the roll-off, a tie rolled again -------------
@pytest.mark.parametrize(
    ("key", "home", "away"),
    [("twelfth_player", [1], [6]), ("twelfth_player", [6], [1]), ("practised_move", [1, 1], [6, 6])],
)
def test_the_roll_offs_dice_run_1_to_6(key, home, away):
    assert r.kickoff_contest(key, home, away, ffm=0, home_staff=0, away_staff=0) == (sum(home), sum(away))


@pytest.mark.parametrize(
    ("key", "home", "away", "count"),
    [
        ("twelfth_player", [0], [3], 1),
        ("twelfth_player", [3], [7], 1),
        ("twelfth_player", [3, 4], [2], 1),  # 5: one D6 each
        ("twelfth_player", [3], [], 1),
        ("practised_move", [6], [1, 1], 2),  # 9: 2D6 each
        ("practised_move", [3, 3], [3, 3, 3], 2),
        ("practised_move", [3, 7], [3, 3], 2),
    ],
)
def test_a_roll_off_with_the_wrong_dice_is_refused(key, home, away, count):
    with pytest.raises(ValueError, match=f"{count} D6 per coach"):
        r.kickoff_contest(key, home, away, ffm=0, home_staff=0, away_staff=0)


@given(st.integers(-5, 30), st.integers(-5, 30))
def test_the_higher_total_wins_the_roll_off_and_a_tie_is_rolled_again(home, away):
    winner = r.contest_winner(home, away)
    assert winner == (None if home == away else "home" if home > away else "away")
    assert r.contest_winner(away, home) == (None if winner is None else r.other(winner))


def test_each_kick_off_5_or_9_won_is_one_more_reroll_for_the_half():
    def won(key, side):
        return E(r.KICKOFF, "home", data={"result": key, "extra_reroll": side})

    events = [
        E(r.START),
        won("twelfth_player", "away"),
        E(r.TOUCHDOWN, "away", player=3),
        won("practised_move", "away"),
    ]
    state = r.derive(SETUP, events)
    assert (state.rerolls["away"].extra, state.rerolls_left("away"), state.rerolls_left("home")) == (2, 5, 4)


def test_kick_off_3_no_sending_offs_for_the_rest_of_the_half():
    # 3 UT ME DOMMERN!: "vil ikke tørre å vise ut noen spillere resten av omgangen"
    ref = E(r.KICKOFF, "home", data={"result": "get_the_ref"})
    riot = E(r.KICKOFF, "away", data={"result": "riot", "riot_turns": 1})
    assert r.derive(SETUP, [E(r.START)]).no_sending_off is False
    assert r.derive(SETUP, [E(r.START), riot]).no_sending_off is False  # another result changes nothing
    assert r.derive(SETUP, [E(r.START), ref]).no_sending_off is True
    assert r.derive(SETUP, [E(r.START), ref, E(r.TOUCHDOWN, "away", player=3), riot]).no_sending_off is True
    assert r.derive(SETUP, [E(r.START), ref, E(r.HALF_TIME)]).no_sending_off is False


def test_a_riot_moves_the_markers_by_its_d6_only():
    # 2 OPPRØR: "et opphold på D6 runder": an entry without its D6 moves nothing.
    riot = {"result": "riot"}
    state = r.derive(SETUP, [E(r.START), E(r.TURN, "away"), E(r.KICKOFF, "home", data=riot)])
    assert state.turns == {"home": 0, "away": 1}


# --- Spillerutviklinger (R28) and the report's injuries -----------------------------------------------
def test_tally_counts_every_deed_not_only_the_first_r28():
    bh = {"injury": "badly_hurt"}
    events = [
        *[E(r.TOUCHDOWN, "home", player=1)] * 2,
        *[E(r.COMPLETION, "home", player=2)] * 2,
        *[E(r.INTERCEPTION, "away", player=3)] * 2,
        E(r.CASUALTY, "home", player=1, victim=4, data={"how": "block", **bh}),
        E(r.CASUALTY, "home", player=1, victim=5, data={"how": "block", **bh}),
        E(r.CASUALTY, "home", player=2, victim=6, data={"how": "foul", **bh}),
        E(r.CASUALTY, "home", player=2, victim=7, data={"how": "foul", **bh}),
        E(r.CROWD, "away", player=3, victim=8, data=bh),
        E(r.CROWD, "away", player=3, victim=9, data=bh),
    ]
    lines = r.tally(events)
    assert (lines[1].touchdowns, lines[1].casualties) == (2, 2)
    assert (lines[2].completions, lines[2].foul_casualties) == (2, 2)
    assert (lines[3].interceptions, lines[3].crowd_casualties) == (2, 2)


def test_hurt_again_after_the_apothecary_healed_him_the_later_injury_stands_r26():
    # R26: the apothecary heals a badly hurt player (1 AP) back onto the pitch; hurt again, the report
    # names whoever hurt him the second time (both blockers earned their casualty, R28).
    bh = {"how": "block", "injury": "badly_hurt"}
    lines = r.tally(
        [E(r.CASUALTY, "away", player=1, victim=4, data=bh), E(r.CASUALTY, "away", player=2, victim=4, data=bh)]
    )
    assert (lines[4].injury, lines[4].injured_by) == ("badly_hurt", 2)
    assert (lines[1].casualties, lines[2].casualties) == (1, 1)


def test_an_injury_entry_credits_no_one_whoever_it_names_r28():
    # R28: a casualty caused is a block's, a foul's or a crowd push's; "hurt without an opponent to credit".
    lines = r.tally([E(r.INJURY, "home", player=2, victim=6, data={"injury": "dead"})])
    assert set(lines) == {6}
    assert (lines[6].injury, lines[6].injured_by) == ("dead", None)


def test_an_entry_naming_no_one_hurt_hurts_no_one():
    # out_of_play and tally read the one an entry names as hurt: none named, no one out, no injury line.
    events = [E(r.CASUALTY, "home", player=1, data={"how": "block", "injury": "dead"})]
    assert r.out_of_play(events) == {}
    assert set(r.tally(events)) == {1}


# --- an end of turn a phone sends a poll late: over already, or the one to end --------------------------
@pytest.mark.parametrize(
    ("events", "side", "half", "turn", "over"),
    [
        ([], "away", 1, 1, False),  # the receiving team's first turn: to end
        (_turns(1), "away", 1, 1, True),  # the other phone ended it a moment ago
        (_turns(1), "home", 1, 1, False),  # the next team's: to end
        (_turns(2), "away", 1, 1, True),  # two turns behind: not the end of away's second turn
        (_turns(2), "away", 1, 2, False),
        ([E(r.TOUCHDOWN, "away")], "away", 1, 1, True),  # a touchdown ends the turn
        (_turns(16), "home", 1, 8, True),  # the last turn of the half
        ([E(r.HALF_TIME)], "home", 1, 8, True),  # a page from the first half
        ([E(r.HALF_TIME)], "home", 2, 1, False),
        ([E(r.HALF_TIME), E(r.END)], "away", 2, 3, True),
        (_turns(1), "away", None, None, True),  # an older page sends no turn: away's is not its turn now
        ([], "home", None, None, False),  # ... but home has played none: refused as before
        ([], "away", None, None, False),
    ],
)
def test_a_turn_is_over_once_its_side_has_played_it_or_its_half_is_past(events, side, half, turn, over):
    state = r.derive(SETUP, [E(r.START), *events])
    assert r.turn_over(state, side, half=half, turn=turn) is over
