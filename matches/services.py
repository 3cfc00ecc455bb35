"""Writes on matches: recording a confirmed result."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.refusals import Refusal
from matches.models import Match


class MatchError(Refusal):
    pass


def result_problems(match: Match, *, home_score: int, away_score: int, tiebreak_winner_id: int | None) -> list[str]:
    problems = []
    if home_score < 0 or away_score < 0:
        problems.append(_("A score cannot be negative."))
    if tiebreak_winner_id is not None and tiebreak_winner_id not in (match.home_id, match.away_id):
        problems.append(_("The tiebreak winner must be one of the two teams."))
    if match.cup_id and home_score == away_score and tiebreak_winner_id is None:
        problems.append(_("A cup match cannot end drawn: record the tiebreak winner (R34)."))
    if tiebreak_winner_id is not None and home_score != away_score:
        problems.append(_("Only a drawn cup match has a tiebreak winner."))
    if tiebreak_winner_id is not None and not match.cup_id:
        problems.append(_("League matches may end drawn: there is no tiebreak winner."))
    return problems


@transaction.atomic
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
    """The board records a confirmed result. Counts once: a second call on a confirmed match is refused."""
    from league.services import advance_cup

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
    advance_cup(match)
    return match
