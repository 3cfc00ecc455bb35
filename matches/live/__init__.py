"""The match log kept beside the pitch (issue 17): the writes and the reads of the live page.

Every write locks the match row, so the two coaches' phones take turns, and is idempotent on the
id the phone made (`client_id`): a send retried after a lost answer finds its entry and records
nothing new. Nothing is deleted: an entry is undone by a compensating entry. The score, the half,
the turns, the weather and the re-rolls left are derived from the log by league.rules.live; the
kick-off's and the Master Chef's dice are stored rows (matches/dice.py), typed or rolled.

One module a part: `state` (who writes, when the log is open, the state derived from the log),
`entries` (an entry recorded or refused), `kickoff` (the dice of the match itself: the Kick-Off table,
the Master Chef's), `reads` (the live page's reads, the report's prefill, the front page's matches).
The names below are what views and tests call.
"""

from matches.live.entries import ASKS_FIRST, OUT_OF_PLAY, question, record
from matches.live.reads import log_rows, playing_now, report_prefill, shown, squads, weather_name
from matches.live.state import (
    INJURY_KINDS,
    LIVE_INJURIES,
    PLAYER_KINDS,
    VICTIM_KINDS,
    EventInput,
    LiveError,
    LiveForbidden,
    TurnAlreadyEnded,
    as_rules_events,
    can_write,
    derive,
    effective,
    may_undo,
    out_of_play,
    playable,
    setup_now,
    setup_of,
    side_of,
    team_of,
)

__all__ = [
    "ASKS_FIRST",
    "INJURY_KINDS",
    "LIVE_INJURIES",
    "OUT_OF_PLAY",
    "PLAYER_KINDS",
    "VICTIM_KINDS",
    "EventInput",
    "LiveError",
    "LiveForbidden",
    "TurnAlreadyEnded",
    "as_rules_events",
    "can_write",
    "derive",
    "effective",
    "log_rows",
    "may_undo",
    "out_of_play",
    "playable",
    "playing_now",
    "question",
    "record",
    "report_prefill",
    "setup_now",
    "setup_of",
    "shown",
    "side_of",
    "squads",
    "team_of",
    "weather_name",
]
