"""One SPP formula for a player's record and a report line (R28). No database."""

from types import SimpleNamespace

import pytest

import league.rules as rules
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
