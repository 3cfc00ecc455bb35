"""Where a team stands in the league's calendar (used by R7's re-roll prices)."""

from __future__ import annotations

from typing import Any

from league.models import Season


def team_in_season(team: Any) -> bool:
    """True from the first match of a running season the team plays in, until that season ends (R7)."""

    return Season.objects.running_with_matches_for(team).exists()
