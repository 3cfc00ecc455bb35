"""The match app's rows: the match and its dice, the players' lines, the pre- and post-match
sequences, the live log and the report's photos. One module per part; every model is importable from here."""

from matches.models.lines import ApothecaryUse, PlayerMatch, SquadEntry
from matches.models.live import LiveEvent
from matches.models.match import DiceRoll, Match, MatchQuerySet, status_label, winner_of
from matches.models.photos import PHOTO_SLOTS, ReportPhoto
from matches.models.scheduling import MAX_PROPOSED, DateProposal
from matches.models.sequences import TICKET_LABELS, DevelopmentRoll, HandicapDraw, PostMatch, PreMatch

__all__ = [
    "MAX_PROPOSED",
    "PHOTO_SLOTS",
    "TICKET_LABELS",
    "ApothecaryUse",
    "DateProposal",
    "DevelopmentRoll",
    "DiceRoll",
    "HandicapDraw",
    "LiveEvent",
    "Match",
    "MatchQuerySet",
    "PlayerMatch",
    "PostMatch",
    "PreMatch",
    "ReportPhoto",
    "SquadEntry",
    "status_label",
    "winner_of",
]
