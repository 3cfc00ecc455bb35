"""The board's results: a forfeit (R35), and what makes a result impossible."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from league.lib.refusals import Refusal
from league.lib.writes import league_write
from league.models import Notification
from league.notices.services import notify
from matches import stats
from matches.chat import announce_result
from matches.cup import advance_cup
from matches.models import Match, PostMatch
from matches.notices import coaches, words
from teams.ledger import lock_team


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


@league_write
def record_forfeit(match: Match, forfeiting_team: Any, *, by: Any) -> Match:
    """R35 (Oberwald FAQ 3.7): the forfeiting team gets no winnings, MVP or SPP and loses 2 FF, here and
    only here; the opponent is awarded the win 2-0 and rolls its winnings as a winner in its post-match
    sequence (R42). The numbers are settings of the ruleset."""
    match = Match.objects.select_for_update(of=("self",)).select_related("cup", "season__ruleset").get(pk=match.pk)
    if match.status != Match.Status.SCHEDULED:
        raise MatchError([_("This match already has a result.")])
    if not (match.home_id and match.away_id):
        raise MatchError([_("Both teams must be known before the match is played.")])
    if forfeiting_team.pk not in (match.home_id, match.away_id):
        raise MatchError([_("That team does not play this match.")])
    s = match.season.ruleset.rules.settings
    winner_score, loser_score = s.forfeit_score
    home_forfeits = forfeiting_team.pk == match.home_id
    match.home_score, match.away_score = (loser_score, winner_score) if home_forfeits else (winner_score, loser_score)
    match.home_casualties = match.away_casualties = 0
    match.tiebreak_winner = None
    match.forfeited_by = forfeiting_team
    team = lock_team(forfeiting_team)
    lost = min(team.fan_factor, s.forfeit_fan_factor_loss)  # FF never below 0
    match.forfeit_fan_factor_lost = lost
    match.status = Match.Status.CONFIRMED
    match.confirmed_at = timezone.now()
    match.confirmed_by = by if getattr(by, "is_authenticated", False) else None
    match.save()
    stats.count_match(match, sign=1)  # the kept tables, in this transaction
    if lost:
        team.fan_factor -= lost
        team._change_reason = f"R35: {match}"[:100]
        team.save(update_fields=["fan_factor"])
    # Both teams' post-match sequences, of the steps that apply (R42: matches.postmatch.base.steps_not_applicable):
    # each holds its team's next match until it is walked, as after a played match.
    for team_id in (match.home_id, match.away_id):
        PostMatch.objects.get_or_create(match=match, team_id=team_id, defaults={"ruleset": match.season.ruleset})
    advance_cup(match)
    ruling = words(match, ruling="forfeit", team=forfeiting_team.name)
    notify(coaches(match, but=by), Notification.Kind.BOARD_RULED, match=match, params=ruling)
    announce_result(match)
    return match
