"""The post-match sequence for one team, step by step in the order of R24.

Each step takes its dice (entered at the table or rolled by the server, recorded either way), works
out its result with league.rules, keeps the table cells it used, and is applied whole and once: the
PostMatch row is locked while a step runs, `done` marks progress, and money carries an idempotency
key in the ledger. The match's SPP were added when the report was confirmed.

One module a part: `base` (the row locked at its step, the step finished), `steps` (winnings, stadium,
fan factor, purchases, the new TR), `injury_step` (whose decisions are league.rules.injuries; what it is
decided from and the dice rolled ahead: `injury_facts`; the tables a player rolls on: `injury_tables`),
`raising`, `mvp`, `development`. The names below are what views, forms, commands and tests call.
"""

from __future__ import annotations

from matches.postmatch.base import (
    PostMatchError,
    begun,
    get_postmatch,
    progress,
    steps_not_applicable,
    unfinished_postmatches,
)
from matches.postmatch.development import (
    Earned,
    apply_development,
    choices_for,
    develop,
    development_rolls,
    pending_development,
    roll_development,
    roll_one_development,
    skill_specs,
    spp_this_match,
)
from matches.postmatch.injury_facts import (
    InjuryFacts,
    healer_candidates,
    healer_limit,
    healer_price,
    injured_lines,
    injury_dice_shown,
    injury_facts,
    pending_injury_dice,
    revived_by_apothecary,
    roll_injury_dice,
)
from matches.postmatch.injury_step import injuries
from matches.postmatch.mvp import earned_this_match, mvp, mvp_candidates
from matches.postmatch.raising import opponents_dead
from matches.postmatch.steps import (
    complete,
    fan_factor,
    kiosk_applies,
    purchases_done,
    purchases_made,
    stadium,
    winnings,
)

__all__ = [
    "Earned",
    "InjuryFacts",
    "PostMatchError",
    "apply_development",
    "begun",
    "choices_for",
    "complete",
    "develop",
    "development_rolls",
    "earned_this_match",
    "fan_factor",
    "get_postmatch",
    "healer_candidates",
    "healer_limit",
    "healer_price",
    "injured_lines",
    "injuries",
    "injury_dice_shown",
    "injury_facts",
    "kiosk_applies",
    "mvp",
    "mvp_candidates",
    "opponents_dead",
    "pending_development",
    "pending_injury_dice",
    "progress",
    "purchases_done",
    "purchases_made",
    "revived_by_apothecary",
    "roll_development",
    "roll_injury_dice",
    "roll_one_development",
    "skill_specs",
    "spp_this_match",
    "stadium",
    "steps_not_applicable",
    "unfinished_postmatches",
    "winnings",
]
