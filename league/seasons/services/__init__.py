"""The board's writes for seasons: divisions, fixtures, the cup, tiebreaks and the season end.

One module a part: `base` (the refusal, R43's one running season, the pre-match records a fixture
keeps), `setup` (a season, its divisions and teams, the stadiums' start, the start), `fixtures` (and
the tiebreak game), `cup`, `season_end`. The names below are what views, commands and tests call.
"""

from league.seasons.services.base import (
    SeasonError,
    is_running,
    refuse_teams_of_another_running_season,
    running_elsewhere,
)
from league.seasons.services.cup import cup_winner, draw_cup
from league.seasons.services.fixtures import (
    add_fixture,
    generate_fixtures,
    move_fixture,
    record_tiebreak,
    withdraw_tiebreak,
)
from league.seasons.services.season_end import SeasonEndPlan, commit_season_end, season_end_preview
from league.seasons.services.setup import (
    DivisionPlan,
    create_season,
    default_divisions,
    set_division_teams,
    stadium_rules_in_force,
    start_season,
    start_stadiums,
)

__all__ = [
    "DivisionPlan",
    "SeasonEndPlan",
    "SeasonError",
    "add_fixture",
    "commit_season_end",
    "create_season",
    "cup_winner",
    "default_divisions",
    "draw_cup",
    "generate_fixtures",
    "is_running",
    "move_fixture",
    "record_tiebreak",
    "refuse_teams_of_another_running_season",
    "running_elsewhere",
    "season_end_preview",
    "set_division_teams",
    "stadium_rules_in_force",
    "start_season",
    "start_stadiums",
    "withdraw_tiebreak",
]
