"""The pre-match sequence of the referee sheet, step by step (R3, R12-R18, R22, R23, R36, R39).

Each step takes its dice (entered at the table or rolled by the server, recorded either way),
computes its result with league.rules and keeps the table cells it used. Steps run in order and
each is applied once: the PreMatch row is locked while a step runs and its `done` marks progress.
The niggling checks come before the team ratings and the handicap: R3 says the match squad is
picked after them, and the TR is that squad's.
"""

from matches.prematch.base import (
    TICKETS,
    PreMatchError,
    chef_bought,
    chef_teams,
    get_prematch,
    inspiration_pending,
    neutral_allowed,
    niggling_checked,
    niggling_players,
    team_side,
)
from matches.prematch.chef import buy_chef_dice, choose_inspired_development, inspire, inspired_rolls
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import check_niggling, roll_handicap
from matches.squads import division_die, squad_rating

__all__ = [
    "TICKETS",
    "PreMatchError",
    "buy_chef_dice",
    "check_niggling",
    "chef_bought",
    "chef_teams",
    "choose_inspired_development",
    "division_die",
    "get_prematch",
    "inspiration_pending",
    "inspire",
    "inspired_rolls",
    "neutral_allowed",
    "niggling_checked",
    "niggling_players",
    "pick_squad",
    "roll_gate",
    "roll_handicap",
    "roll_weather",
    "set_tickets",
    "squad_rating",
    "team_side",
]
