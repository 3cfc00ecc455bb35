"""A match's result recorded directly, for tests that need the tables' data quickly."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from league.lib.writes import league_write
from matches import stats
from matches.cup import advance_cup
from matches.models import Match
from matches.results import MatchError, result_problems


@league_write
def record_result(
    match: Match,
    *,
    home_score: int,
    away_score: int,
    home_casualties: int = 0,
    away_casualties: int = 0,
    tiebreak_winner_id: int | None = None,
    by: Any,
) -> Match:
    """A confirmed result, with no pre-match, report or post-match, counted as a confirmed report is.
    Refused on a match that has a result.

    No page records one (RULINGS: a direct result only for a forfeit, R35, and a division's tiebreak
    game, league.seasons.services.fixtures.record_tiebreak): a match so recorded has no gate for its winnings.
    The tests use it to build the tables' data quickly; the league's own scripts play matches through
    the report."""
    match = Match.objects.select_for_update(of=("self",)).select_related("cup").get(pk=match.pk)
    if match.status != Match.Status.SCHEDULED:
        raise MatchError([_("This match already has a result.")])
    if not (match.home_id and match.away_id):
        raise MatchError([_("Both teams must be known before the match is played.")])
    problems = result_problems(
        match, home_score=home_score, away_score=away_score, tiebreak_winner_id=tiebreak_winner_id
    )
    if problems:
        raise MatchError(problems)
    match.home_score, match.away_score = home_score, away_score
    match.home_casualties, match.away_casualties = home_casualties, away_casualties
    match.tiebreak_winner_id = tiebreak_winner_id
    match.status = Match.Status.CONFIRMED
    match.confirmed_at = timezone.now()
    match.confirmed_by = by if getattr(by, "is_authenticated", False) else None
    match.save()
    stats.count_match(match, sign=1)  # the kept tables, in this transaction (issue 16)
    advance_cup(match)
    return match
