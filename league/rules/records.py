"""What a player's deeds are worth: the one mapping of a record or a report line onto the SPP table (R28)."""

from __future__ import annotations

from typing import Any, Protocol


class SppRules(Protocol):
    def spp(
        self, *, completions: int, touchdowns: int, interceptions: int, casualties: int, fouls: int, mvps: int
    ) -> int: ...


def record_spp(r: SppRules, record: Any) -> int:
    """The SPP of a player's record, a report line or a history row of either. A report line keeps its
    crowd casualties apart; they count as block casualties (R28). A player's record has them added."""
    return r.spp(
        completions=record.completions,
        touchdowns=record.touchdowns,
        interceptions=record.interceptions,
        casualties=record.casualties + getattr(record, "crowd_casualties", 0),
        fouls=record.foul_casualties,
        mvps=record.mvps,
    )
