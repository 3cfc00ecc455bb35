"""What both the pre- and the post-match sequence read of a side: its division's die and its squad's TR."""

from __future__ import annotations

from typing import Any

from league.models import SeasonEntry
from matches.models import Match, PreMatch, SquadEntry
from teams.models import Team
from teams.selectors import squad_team_rating


def division_die(match: Match, team: Team) -> int:
    """Each team rolls its own division's die (R12): D6 in the 1st, D5 in the 2nd."""
    entry = SeasonEntry.objects.filter(season=match.season_id, team=team).select_related("division").first()
    if entry is not None:
        return entry.division.die
    return match.season.ruleset.rules.gate_die(1)


def squad_rating(match: Match, team: Team, prematch: PreMatch) -> Any:
    """The TR of the squad as it takes the field (R1-R3)."""
    r = prematch.ruleset.rules
    playing = [
        e.player
        for e in SquadEntry.objects.filter(match=match, team=team, status=SquadEntry.Status.PLAYING).select_related(
            "player__position",
            "player__team__ruleset",  # a player's SPP reads his team's ruleset
        )
    ]
    return squad_team_rating(r, team, [(p.value, p.spp) for p in playing])
