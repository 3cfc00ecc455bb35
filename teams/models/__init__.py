"""The team app's rows: the catalogue (skills, races, positions), teams and their stadiums, players,
and the treasury ledger. One module per part; every model is importable from here."""

from teams.models.catalogue import Position, PositionQuerySet, Race, Skill
from teams.models.players import STAT_FIELDS, Player, PlayerQuerySet, PlayerSkill, StatChange
from teams.models.teams import Facility, Stadium, Team, TeamQuerySet
from teams.models.treasury import TreasuryEntry

__all__ = [
    "STAT_FIELDS",
    "Facility",
    "Player",
    "PlayerQuerySet",
    "PlayerSkill",
    "Position",
    "PositionQuerySet",
    "Race",
    "Skill",
    "Stadium",
    "StatChange",
    "Team",
    "TeamQuerySet",
    "TreasuryEntry",
]
