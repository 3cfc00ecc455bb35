"""The post-match sequence's machinery: its error, its row locked at a step in order, a step finished."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from league.lib.refusals import Refusal
from matches.models import (
    Match,
    PostMatch,
    PreMatch,
)
from teams.models import Team


class PostMatchError(Refusal):
    pass


def get_postmatch(match: Match, team: Team) -> PostMatch:
    """The team's post-match, or an unsaved one at step 0 when the sequence is not begun. A read: a
    page shows it without writing (a write would raise the league version and empty the page cache);
    the confirmation or the first step's POST makes the row (`lock_step`)."""
    postmatch = PostMatch.objects.filter(match=match, team=team).first()
    return postmatch if postmatch is not None else PostMatch(match=match, team=team, ruleset=match.season.ruleset)


def steps_not_applicable(match: Match, team_id: int) -> dict[int, str]:
    """The steps of a team's post-match sequence that do not apply, each with its reason, in step order.

    Only a forfeit skips steps (R35, R42): it is not played. Nobody took the field, so neither team has
    injuries to roll, and no player serves a "misses N matches" (R37 counts the matches the team plays);
    there was no gate, so no vandalism; no player earned SPP, so no development, and the MVP, drawn
    among those who played (R27), has nobody to go to. The forfeiting team also gets no winnings and
    makes no fan factor roll: its 2 FF were taken once, by `matches.results.record_forfeit`. Both teams
    still make their purchases and record their new team rating, and the awarded team rolls its
    winnings and fan factor as the winner (`steps.winnings`, `steps.fan_factor`).
    """
    if match.forfeited_by_id is None:
        return {}
    not_played = {
        PostMatch.Step.INJURIES: _(
            "Not applicable: the match was not played, so no one was hurt and no match is served (R37, R42)."
        ),
        PostMatch.Step.STADIUM: _(
            "Not applicable: the match was not played, so there was no gate and no vandalism (R42)."
        ),
    }
    if match.forfeited_by_id != team_id:
        return {
            **not_played,
            PostMatch.Step.MVP: _("Not applicable: nobody played, so no player can be the MVP (R27, R42)."),
            PostMatch.Step.DEVELOPMENT: _("Not applicable: no SPP were earned in a match not played (R42)."),
        }
    return {
        PostMatch.Step.WINNINGS: _("Not applicable: a team that forfeits gets no winnings (R35)."),
        **not_played,
        PostMatch.Step.MVP: _("Not applicable: a team that forfeits gets no MVP (R35)."),
        PostMatch.Step.DEVELOPMENT: _("Not applicable: a team that forfeits gets no SPP (R35)."),
        PostMatch.Step.FAN_FACTOR: _("Not applicable: the forfeit took %(n)s fan factor, with no roll (R35, R42).")
        % {"n": match.forfeit_fan_factor_lost},
    }


def progress(match: Match, team_id: int, done: int) -> int:
    """How far the sequence has come: the last step done, and the steps after it that do not apply."""
    skipped = steps_not_applicable(match, team_id)
    while done + 1 in skipped:
        done += 1
    return done


def lock_step(match: Match, team: Team, step: int) -> tuple[Match, Team, PostMatch]:
    """The match, the team and its post-match row locked for `step`: refused unless the report is
    confirmed, the team played, the step applies (R42), and every earlier step is done or does not
    apply, this one not."""
    # The match first, as the board's void and reopen lock it (matches.report, _lock): one order, no deadlock.
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("season__ruleset", "home__stadium", "away__stadium")
        .get(pk=match.pk)
    )
    if match.status != Match.Status.CONFIRMED:
        raise PostMatchError([_("The post-match sequence starts once the report is confirmed.")])
    if team.pk not in (match.home_id, match.away_id):
        raise PostMatchError([_("That team did not play this match.")])
    skipped = steps_not_applicable(match, team.pk)
    if step in skipped:
        raise PostMatchError([skipped[step]])
    postmatch = PostMatch.objects.select_for_update().filter(match=match, team=team).first()
    if postmatch is None:  # two first steps at once make one row: the get_or_create meets the unique constraint
        PostMatch.objects.get_or_create(match=match, team=team, defaults={"ruleset": match.season.ruleset})
        postmatch = PostMatch.objects.select_for_update().get(match=match, team=team)
    if postmatch.ruleset_id == match.season.ruleset_id:
        postmatch.ruleset = match.season.ruleset  # already read with the match
    done = progress(match, team.pk, postmatch.done)
    if done >= step:
        raise PostMatchError([_("This step is already done.")])
    if done < step - 1:
        raise PostMatchError([_("Finish the steps before this one first.")])
    team = Team.objects.select_for_update(of=("self",)).select_related("race", "stadium", "ruleset").get(pk=team.pk)
    return match, team, postmatch


def begun(match: Match, postmatch: PostMatch) -> bool:
    """Whether a step that changed the league is taken: winnings up to the fan factor. Purchases are
    made on the team page and the new TR only records them, so a forfeiter's sequence, which has only
    those (R42), never holds back the void of its forfeit."""
    skipped = steps_not_applicable(match, postmatch.team_id)
    return any(
        step not in skipped
        for step in range(PostMatch.Step.WINNINGS, min(postmatch.done, PostMatch.Step.FAN_FACTOR) + 1)
    )


def unfinished_postmatches(team_ids: Iterable[int]) -> QuerySet[PostMatch]:
    """The post-match sequences that hold back the teams' next matches: of a confirmed match, in any
    season, not finished. The last match's injuries, deaths and level-ups come first (R24), so
    `pick_squad` refuses while a team has one, and Mitt lag offers it instead of the next pre-match:
    the one read both ask, so they never disagree."""
    return PostMatch.objects.filter(
        team__in=list(team_ids), match__status=Match.Status.CONFIRMED, done__lt=PostMatch.Step.TEAM_RATING
    )


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
