"""Where a team stands in the league's calendar (used by R7's re-roll prices)."""

from __future__ import annotations

from typing import Any


def team_in_season(team: Any) -> bool:
    """True from the first match of a season the team plays in until that season ends (R7).

    Seasons arrive with the league board; until a season is running every team is between seasons.
    """
    from django.apps import apps

    if not apps.is_installed("league") or not hasattr(apps.get_app_config("league").models_module, "Season"):
        return False
    return apps.get_model("league", "Season").objects.running_with_matches_for(team).exists()
