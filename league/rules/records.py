"""A player's record (R28): the one list of its counters, the lists derived from it, and the one mapping
of a record or a report line onto the SPP table.

A player's counters are fields of three models (`teams.Player`, his record; `league.models.PlayerStats`,
a season's or a career's; `matches.PlayerMatch`, a report line) and of the forms and inputs that fill
them: every list of them in the app is `RECORD_COUNTERS` or one of the lists below, derived from it.
"""

from __future__ import annotations

from typing import Any, Protocol

# What a player's record counts, the deeds the SPP are paid for (R28), in the order the pages show them.
RECORD_COUNTERS = ("completions", "touchdowns", "interceptions", "casualties", "foul_casualties", "mvps")
# A report line's counters: the record's and the crowd casualties (a block's push into the crowd), which
# the line keeps apart and the record counts among the block casualties.
LINE_COUNTERS = (*RECORD_COUNTERS, "crowd_casualties")
# What a coach files in a report line: its counters but the MVP, which the post-match gives (R27).
REPORTED_COUNTERS = tuple(c for c in LINE_COUNTERS if c != "mvps")


class SppRules(Protocol):
    def spp(
        self, *, completions: int, touchdowns: int, interceptions: int, casualties: int, fouls: int, mvps: int
    ) -> int: ...


def block_casualties(record: Any) -> int:
    """The casualties of a record or a report line that count as caused by a block (R28). A report line
    keeps its crowd casualties (a block's push into the crowd) apart; a player's record has them added."""
    return record.casualties + getattr(record, "crowd_casualties", 0)


def record_counts(line: Any) -> dict[str, int]:
    """A report line's counters as the player's record counts them (R28): the crowd casualties among
    the block casualties. Also a record's own counters, which have no crowd casualties apart."""
    return {c: block_casualties(line) if c == "casualties" else getattr(line, c) for c in RECORD_COUNTERS}


def record_spp(r: SppRules, record: Any) -> int:
    """The SPP of a player's record, a report line or a history row of either (R28)."""
    return r.spp(
        completions=record.completions,
        touchdowns=record.touchdowns,
        interceptions=record.interceptions,
        casualties=block_casualties(record),
        fouls=record.foul_casualties,
        mvps=record.mvps,
    )
