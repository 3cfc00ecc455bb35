"""The post-match sequence's machinery: its error, its row locked at a step in order, a step finished."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from league.refusals import Refusal
from matches.models import (
    Match,
    PostMatch,
    PreMatch,
)
from teams.models import Team

Step = PostMatch.Step


class PostMatchError(Refusal):
    pass


def get_postmatch(match: Match, team: Team) -> PostMatch:
    postmatch, _created = PostMatch.objects.get_or_create(
        match=match, team=team, defaults={"ruleset": match.season.ruleset}
    )
    return postmatch


def lock_step(match: Match, team: Team, step: int) -> tuple[Match, Team, PostMatch]:
    """The match, the team and its post-match row locked for `step`: refused unless the report is
    confirmed, the team played (and did not forfeit), and every earlier step is done, this one not."""
    match = Match.objects.select_related("season__ruleset", "home__stadium", "away__stadium").get(pk=match.pk)
    if match.status != Match.Status.CONFIRMED:
        raise PostMatchError([_("The post-match sequence starts once the report is confirmed.")])
    if team.pk not in (match.home_id, match.away_id):
        raise PostMatchError([_("That team did not play this match.")])
    if match.forfeited_by_id == team.pk:
        raise PostMatchError([_("A team that forfeits gets no winnings, MVP or SPP (R35).")])
    postmatch = PostMatch.objects.select_for_update().filter(match=match, team=team).first()
    if postmatch is None:
        get_postmatch(match, team)
        postmatch = PostMatch.objects.select_for_update().get(match=match, team=team)
    if postmatch.ruleset_id == match.season.ruleset_id:
        postmatch.ruleset = match.season.ruleset  # already read with the match
    if postmatch.done >= step:
        raise PostMatchError([_("This step is already done.")])
    if postmatch.done < step - 1:
        raise PostMatchError([_("Finish the steps before this one first.")])
    team = Team.objects.select_for_update(of=("self",)).select_related("race", "stadium", "ruleset").get(pk=team.pk)
    return match, team, postmatch


def finish_step(postmatch: PostMatch, step: int, key: str, lines: Sequence[str]) -> PostMatch:
    postmatch.explanations = {**postmatch.explanations, key: list(lines)}
    postmatch.done = step
    postmatch.save()
    return postmatch


def side_of(match: Match, team: Team) -> str:
    return "home" if team.pk == match.home_id else "away"


def prematch_of(match: Match) -> PreMatch | None:
    return PreMatch.objects.filter(match=match).first()


def casualties_caused(match: Match, team: Team) -> int:
    """Casualties the team caused, as they happened (R38)."""
    return match.home_casualties if team.pk == match.home_id else match.away_casualties


def facilities_of(team: Team) -> set[str]:
    return set(team.stadium.facilities.values_list("key", flat=True))
