"""What a player's deeds are worth: the one mapping of a record or a report line onto the SPP table (R28)."""

from __future__ import annotations

from typing import Any, Protocol


class SppRules(Protocol):
    def spp(
        self, *, completions: int, touchdowns: int, interceptions: int, casualties: int, fouls: int, mvps: int
    ) -> int: ...


def block_casualties(record: Any) -> int:
    """The casualties of a record or a report line that count as caused by a block (R28). A report line
    keeps its crowd casualties (a block's push into the crowd) apart; a player's record has them added."""
    return record.casualties + getattr(record, "crowd_casualties", 0)


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
