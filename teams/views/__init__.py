"""The team pages, one module per page: the catalogue and team pages, team management, players, the
JSON API. The names are re-exported here for `teams.urls`."""

from teams.views.api import PRIVATE_FIELDS, api_races, api_team, api_teams
from teams.views.base import can_change
from teams.views.exports import team_ledger_csv, team_roster_csv
from teams.views.management import (
    STAFF_PURCHASES,
    creation_prices,
    team_buy,
    team_create,
    team_hire,
    team_import,
    team_manage,
    team_register,
)
from teams.views.pages import FIXTURES_SHOWN, race_detail, race_list, team_detail, team_history, team_ledger, team_list
from teams.views.players import (
    MATCHES_PER_PAGE,
    player_detail,
    player_edit,
    player_leave,
    player_match_history,
    player_mutation,
    with_career,
)

__all__ = [
    "FIXTURES_SHOWN",
    "MATCHES_PER_PAGE",
    "PRIVATE_FIELDS",
    "STAFF_PURCHASES",
    "api_races",
    "api_team",
    "api_teams",
    "can_change",
    "creation_prices",
    "player_detail",
    "player_edit",
    "player_leave",
    "player_match_history",
    "player_mutation",
    "race_detail",
    "race_list",
    "team_buy",
    "team_create",
    "team_detail",
    "team_hire",
    "team_history",
    "team_import",
    "team_ledger",
    "team_ledger_csv",
    "team_list",
    "team_manage",
    "team_register",
    "team_roster_csv",
    "with_career",
]
