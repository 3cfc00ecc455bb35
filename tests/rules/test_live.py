"""The match as played, derived from its log (league.rules.live, issue 17): pure, no database.
Each case cites the rulebook section it checks."""

import pytest

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
