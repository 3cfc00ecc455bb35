"""The kept statistics (matches.stats) as plain values, to compare a rebuild with the incremental rows."""

from __future__ import annotations

from league.models import STAT_FIELDS_PLAYER, STAT_FIELDS_TEAM, PlayerStats, TeamSeasonStats
from matches.models import PlayerMatch


def snapshot() -> tuple[set[tuple], set[tuple], set[tuple]]:
    """Every kept row and line's confirmation time as plain values, to compare a rebuild with the
    incremental rows."""
    teams = {
        (*values[:-1], tuple(sorted((k, v) for k, v in values[-1].items() if v)))
        for values in TeamSeasonStats.objects.values_list(
            "season_id", "division_id", "team_id", "competition", *STAT_FIELDS_TEAM, "head_to_head"
        )
        if values[4]  # a line with no match played is the same as no line
    }
    players = {
        values
        for values in PlayerStats.objects.values_list("player_id", "team_id", "season_id", *STAT_FIELDS_PLAYER)
        if any(values[3:])
    }
    lines = set(PlayerMatch.objects.values_list("pk", "confirmed_at"))
    return teams, players, lines
