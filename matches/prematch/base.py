"""What the pre-match steps share: the refusal, the locked PreMatch row, each side's progress,
and the state that says when the sequence is finished."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from league.lib.refusals import Refusal
from league.rules.messages import N_
from matches.models import DevelopmentRoll, HandicapDraw, Match, PreMatch, SquadEntry
from teams.models import Player, Race, Team


class PreMatchError(Refusal):
    pass


def get_prematch(match: Match) -> PreMatch:
    """The match's pre-match, or an unsaved one at step 0 when the sequence is not begun. A read: a
    page shows it without writing (a write would raise the league version and empty the page cache);
    the first step's POST makes the row (`_lock_at_step`)."""
    prematch = PreMatch.objects.filter(match=match).first()
    return prematch if prematch is not None else PreMatch(match=match, ruleset=match.season.ruleset)


def _lock_at_step(match: Match, step: int) -> tuple[Match, PreMatch]:
    """The match and its pre-match locked for `step`: refused if the match is played, a team is unknown,
    the step is done, or an earlier one is not."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("season__ruleset", "home__race", "away__race", "home__stadium", "cup")
        .get(pk=match.pk)
    )
    if match.status not in (Match.Status.SCHEDULED,):
        raise PreMatchError([_("The match is played: the pre-match sequence is closed.")])
    if not (match.home_id and match.away_id):
        raise PreMatchError([_("Both teams must be known first.")])
    # Made by the first step, under the match's lock: two first steps at once make one row.
    PreMatch.objects.get_or_create(match=match, defaults={"ruleset": match.season.ruleset})
    prematch = PreMatch.objects.select_for_update().get(match=match)
    if prematch.done >= step and step != PreMatch.Step.SQUADS:
        raise PreMatchError([_("This step is already done.")])
    if prematch.done < step - 1:
        raise PreMatchError([_("Finish the steps before this one first.")])
    return match, prematch


def team_side(match: Match, team: Team | int) -> str:
    """The prefix of the pre-match's per-side fields: "home" or "away"."""
    return "home" if getattr(team, "pk", team) == match.home_id else "away"


def niggling_checked(match: Match, prematch: PreMatch, team: Team | int) -> bool:
    return getattr(prematch, f"{team_side(match, team)}_niggling_checked")


def chef_bought(match: Match, prematch: PreMatch, team: Team | int) -> bool:
    return getattr(prematch, f"{team_side(match, team)}_chef_bought")


def _explain(prematch: PreMatch, key: str, lines: Sequence[str]) -> None:
    prematch.explanations = {**prematch.explanations, key: list(lines)}


TICKETS = {"cheap": N_("cheap"), "ordinary": N_("ordinary"), "expensive": N_("expensive")}


def neutral_allowed(match: Match) -> bool:
    return bool(match.cup_id) or match.season.first_with_stadium_rules


# --- the state the steps share ----------------------------------------------------------------


def niggling_players(match: Match, team: Team) -> list[Player]:
    return [
        e.player
        for e in SquadEntry.objects.filter(match=match, team=team, player__niggling__gt=0).select_related("player")
    ]


def chef_teams(match: Match) -> list[Team]:
    return [t for t in (match.home, match.away) if t.race.head_coach == Race.HeadCoach.MASTER_CHEF]


def inspiration_pending(match: Match) -> bool:
    """An Inspiration drawn whose player is not chosen, or whose development roll waits for a choice (R23)."""
    return (
        HandicapDraw.objects.filter(match=match, key="inspiration", player__isnull=True).exists()
        or DevelopmentRoll.objects.filter(match=match, before_match=True, choice="").exists()
    )


def _settle(match: Match, prematch: PreMatch) -> None:
    """After the handicap the sequence is finished once the inspired player is chosen and his roll
    resolved (R23) and every Master Chef has bought his dice (none to buy: nothing to wait for)."""
    if prematch.done < PreMatch.Step.HANDICAP:
        return
    chefs = all(chef_bought(match, prematch, t) for t in chef_teams(match))
    prematch.done = PreMatch.Step.MASTER_CHEF if chefs and not inspiration_pending(match) else PreMatch.Step.HANDICAP
