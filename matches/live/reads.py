"""The live page's reads, the report form's prefill from an ended log, and the matches being played now."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models import Exists, OuterRef

from league.rules import live as rules
from league.rules.records import REPORTED_COUNTERS
from matches.live.state import as_rules_events, playable, setup_of, side_of
from matches.models import LiveEvent, Match, PreMatch, SquadEntry


def log_rows(match: Match) -> list[LiveEvent]:
    """The whole log, oldest first, with who entered each entry."""
    return list(
        LiveEvent.objects.filter(match=match).select_related("player", "victim", "author", "team").order_by("pk")
    )


def squads(match: Match, leaving_out: Collection[int] = ()) -> dict[str, list[Any]]:
    """The players who took the field, by side, by number: whom an entry names (`leaving_out`: those out
    of play)."""
    by_side: dict[str, list[Any]] = {rules.HOME: [], rules.AWAY: []}
    for entry in (
        SquadEntry.objects.filter(match=match, status=SquadEntry.Status.PLAYING)
        .exclude(player_id__in=leaving_out)
        .select_related("player")
        .order_by("player__number")
    ):
        by_side[side_of(match, entry.team_id)].append(entry.player)
    return by_side


def weather_name(match: Match, key: str) -> str:
    for band in match.season.ruleset.rules.tables.weather.bands:
        if band.value.key == key:
            return band.value.name
    return key


def report_prefill(match: Match) -> dict | None:
    """The report form's initial data from an ended log: the score and each player's line (Comp, TD,
    Int, Cas by block or foul, crowd casualties (R28), injury and by whom, sent off). None without an
    ended log: the form is empty as before. The apothecary and serious injury details are the
    filing coach's to add."""
    events = list(LiveEvent.objects.filter(match=match))
    kept = as_rules_events(match, events)
    if not any(e.kind == LiveEvent.Kind.END for e in kept):
        return None
    state = rules.derive(setup_of(match, None, events), kept)
    lines = {
        player_id: {
            **{c: getattr(t, c) for c in REPORTED_COUNTERS},
            "injury": t.injury,
            "injured_by": t.injured_by,
            "sent_off": t.sent_off,
        }
        for player_id, t in rules.tally(kept).items()
    }
    return {"home_score": state.score[rules.HOME], "away_score": state.score[rules.AWAY], "lines": lines}


def shown(match: Match) -> bool:
    """Whether the match page links to the live page: while the match can be played, or its log is kept."""
    if match.status != Match.Status.SCHEDULED:
        return LiveEvent.objects.filter(match=match).exists()
    return (
        playable(match, PreMatch.objects.filter(match=match).first()) or LiveEvent.objects.filter(match=match).exists()
    )


def playing_now():
    """Matches being played now: a started log, not ended, the report not yet filed (the front page)."""
    # Most of the week nothing is being played: a plain read of the started matches first, as the
    # whole question takes PostgreSQL longer to plan than to answer.
    if not LiveEvent.objects.filter(kind=LiveEvent.Kind.START, match__status=Match.Status.SCHEDULED).exists():
        return Match.objects.none()
    live = LiveEvent.objects.filter(match=OuterRef("pk"), undone_by__isnull=True)
    return (
        Match.objects.filter(status=Match.Status.SCHEDULED)
        .filter(Exists(live.filter(kind=LiveEvent.Kind.START)))
        .exclude(Exists(live.filter(kind=LiveEvent.Kind.END)))
        .select_related("home", "away")
        .order_by("pk")
    )
