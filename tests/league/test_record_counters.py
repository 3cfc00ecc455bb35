"""A player's counters are one list (league.rules.records): every model, form and input that declares
them field by field holds that list's names, so a counter added to the list and not to one of them, or
the other way round, fails here. No database."""

from dataclasses import fields

import pytest

from league.models import STAT_FIELDS_PLAYER, PlayerStats
from league.rules.records import LINE_COUNTERS, RECORD_COUNTERS, REPORTED_COUNTERS
from matches.forms.report import LineForm
from matches.models import PlayerMatch
from matches.report.filing import LineInput
from teams.models import Player
from teams.registration import PlayerRecord

COUNTER_NAMES = {*LINE_COUNTERS, "matches", "spp"}  # every name a list of a player's counters may hold


def _model_counters(model) -> set[str]:
    return {f.name for f in model._meta.get_fields()} & COUNTER_NAMES


@pytest.mark.parametrize(
    ("declared", "counters"),
    [
        (_model_counters(Player), RECORD_COUNTERS),
        (_model_counters(PlayerStats), STAT_FIELDS_PLAYER),
        (_model_counters(PlayerMatch), LINE_COUNTERS),
        ({f.name for f in fields(PlayerRecord)} & COUNTER_NAMES, RECORD_COUNTERS),
        ({f.name for f in fields(LineInput)} & COUNTER_NAMES, REPORTED_COUNTERS),
        (set(LineForm.base_fields) & COUNTER_NAMES, REPORTED_COUNTERS),
    ],
    ids=["Player", "PlayerStats", "PlayerMatch", "PlayerRecord", "LineInput", "LineForm"],
)
def test_each_declaration_holds_the_lists_names(declared, counters):
    assert declared == set(counters)
