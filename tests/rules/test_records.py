"""One list of a player's counters and one SPP formula for a player's record and a report line (R28).
No database."""

from dataclasses import fields
from types import SimpleNamespace

import pytest

import league.rules as rules
from league.rules import live, records
from league.rules.records import record_spp

R = rules.default_ruleset()
NOTHING = {"completions": 0, "touchdowns": 0, "interceptions": 0, "casualties": 0, "foul_casualties": 0, "mvps": 0}


@pytest.mark.parametrize(
    ("deeds", "spp"),
    [
        # R28: completion 1, block casualty 2, foul casualty 1, touchdown 3, interception 2, MVP 5.
        ({"completions": 1}, 1),
        ({"casualties": 1}, 2),
        ({"foul_casualties": 1}, 1),
        ({"touchdowns": 1}, 3),
        ({"interceptions": 1}, 2),
        ({"mvps": 1}, 5),
        ({"completions": 1, "casualties": 1, "foul_casualties": 1, "touchdowns": 1, "interceptions": 1, "mvps": 1}, 14),
    ],
)
def test_a_players_record_r28(deeds, spp):
    assert record_spp(R, SimpleNamespace(**{**NOTHING, **deeds})) == spp


def test_a_report_lines_crowd_casualty_counts_as_a_block_casualty_r28():
    line = SimpleNamespace(**{**NOTHING, "casualties": 1, "crowd_casualties": 2})
    assert record_spp(R, line) == 6


# --- the one list of a player's counters ----------------------------------------------------------


def test_the_lists_of_counters_derive_from_the_records():
    assert tuple(NOTHING) == records.RECORD_COUNTERS  # R28: what a record counts
    assert (*records.RECORD_COUNTERS, "crowd_casualties") == records.LINE_COUNTERS
    assert records.REPORTED_COUNTERS == (
        "completions",
        "touchdowns",
        "interceptions",
        "casualties",
        "foul_casualties",
        "crowd_casualties",
    )  # the report form's columns, in this order


def test_a_lines_counts_on_the_record_take_its_crowd_casualties_as_block_casualties_r28():
    line = SimpleNamespace(**{**NOTHING, "touchdowns": 2, "casualties": 1, "crowd_casualties": 2, "mvps": 1})
    assert records.record_counts(line) == {**NOTHING, "touchdowns": 2, "casualties": 3, "mvps": 1}
    assert records.record_counts(SimpleNamespace(**NOTHING, crowd_casualties=0)) == NOTHING


def test_the_live_logs_tally_is_a_reported_line():
    assert {f.name for f in fields(live.Tally)} >= set(records.REPORTED_COUNTERS)
