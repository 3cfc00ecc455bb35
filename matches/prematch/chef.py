"""Pre-match step 8: the Master Chef; and the Inspiration handicap's development rolls before kick-off."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from league.lib.writes import league_write
from league.rules.messages import N_, Msg
from matches.models import DevelopmentRoll, HandicapDraw, Match, PreMatch, SquadEntry
from matches.postmatch.development import apply_development, roll_one_development
from matches.prematch.base import PreMatchError, _explain, _lock_at_step, _settle, chef_bought, team_side
from teams.ledger import lock_team, post_entry
from teams.models import Player, Race, Team, TreasuryEntry

# --- 8. Master Chef -----------------------------------------------------------------------------


def chef_dice(count: int) -> Msg:
    """The treasury's line for the Master Chef's extra dice. A message has no plural forms: one of two, as
    ngettext picks them in English and in Norwegian."""
    return Msg(N_("Master Chef: one extra die")) if count == 1 else Msg(N_("Master Chef: %(n)s extra dice"), n=count)


@league_write
def buy_chef_dice(match: Match, team: Team, *, count: int, by: Any) -> PreMatch:
    """A Halfling team's extra Master Chef dice, 20,000 each, paid before the match."""

    match, prematch = _lock_at_step(match, PreMatch.Step.MASTER_CHEF)
    if team.race.head_coach != Race.HeadCoach.MASTER_CHEF:
        raise PreMatchError([_("Only a Master Chef buys extra dice.")])
    if chef_bought(match, prematch, team):
        raise PreMatchError([_("%(team)s has bought its dice.") % {"team": team.name}])
    if count < 0 or count > 10:
        raise PreMatchError([_("Choose 0 to 10 extra dice.")])
    price = prematch.ruleset.rules.settings.master_chef_die_price
    if count:
        locked = lock_team(team)
        post_entry(
            locked,
            -count * price,
            kind=TreasuryEntry.Kind.PURCHASE,
            description=chef_dice(count),
            by=by,
            cause=match,
            idempotency_key=f"chef:{match.pk}:{team.pk}",
        )
    setattr(prematch, f"{team_side(match, team)}_chef_dice", count)
    setattr(prematch, f"{team_side(match, team)}_chef_bought", True)
    _explain(
        prematch,
        f"chef:{team.pk}",
        [Msg(_bought(count), team=team.name, n=count, cost=count * price)],
    )
    _settle(match, prematch)
    prematch.save()
    return prematch


@league_write
def inspire(
    match: Match,
    team: Team,
    player_id: int,
    *,
    entered: Mapping[str, Sequence[int]] | None = None,
    by: Any,
) -> HandicapDraw:
    """Inspiration (handicap 15-16): a chosen player of the squad gets an extra MVP before the match.
    It is extra to the MVP rule and does not count towards it; a development roll it earns is made at
    once, so a skill it gives counts in this match (R23). The coach then chooses with
    `choose_inspired_development`; the pre-match is not finished before."""

    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("season__ruleset", "home__race", "away__race")
        .get(pk=match.pk)
    )
    if match.status != Match.Status.SCHEDULED:
        raise PreMatchError([_("The match is played: the pre-match sequence is closed.")])
    draw = (
        HandicapDraw.objects.select_for_update(of=("self",))
        .filter(match=match, team=team, key="inspiration")
        .order_by("pk")
        .first()
    )
    if draw is None:
        raise PreMatchError([_("%(team)s did not draw Inspiration.") % {"team": team.name}])
    if draw.player_id:
        raise PreMatchError([_("The inspired player is chosen.")])
    if not SquadEntry.objects.filter(
        match=match, team=team, player_id=player_id, status=SquadEntry.Status.PLAYING
    ).exists():
        raise PreMatchError([_("Choose a player of the match squad.")])
    team = lock_team(team)  # the player's record changes: the team's writes wait their turn
    draw.player_id = player_id
    draw.save(update_fields=["player"])
    player = Player.objects.select_for_update().select_related("position", "team__ruleset").get(pk=player_id)
    before = player.spp
    player.mvps += 1
    player.save(update_fields=["mvps"])  # load, change, save: a history record
    r = match.season.ruleset.rules
    earlier = DevelopmentRoll.objects.filter(match=match, player=player).count()
    for i in range(1, r.level_ups(before, player.spp) + 1):
        roll_one_development(match, team, player, earlier + i, r, entered=entered or {}, by=by, before_match=True)
    prematch = PreMatch.objects.select_for_update().get(match=match)
    _settle(match, prematch)
    prematch.save()
    return draw


def inspired_rolls(match: Match, team: Team) -> list[DevelopmentRoll]:
    """The Inspiration MVP's development rolls still waiting for the coach's choice (R23)."""
    return list(
        DevelopmentRoll.objects.filter(match=match, player__team=team, before_match=True, choice="")
        .select_related("player__position", "dice")
        .prefetch_related("player__position__skills")
    )


@league_write
def choose_inspired_development(
    match: Match,
    team: Team,
    *,
    choices: Mapping[int, str],
    entered: Mapping[str, Sequence[int]] | None = None,
    by: Any,
) -> PreMatch:
    """The coach's choice for the Inspiration MVP's development roll, applied before the match (R23, R29)."""

    match = Match.objects.select_for_update(of=("self",)).select_related("season__ruleset").get(pk=match.pk)
    if match.status != Match.Status.SCHEDULED:
        raise PreMatchError([_("The match is played: the pre-match sequence is closed.")])
    team = lock_team(team)
    rolls = inspired_rolls(match, team)
    if not rolls:
        raise PreMatchError([_("%(team)s has no development roll to choose for.") % {"team": team.name}])
    lines = apply_development(match, rolls, match.season.ruleset.rules, choices=choices, entered=entered or {}, by=by)
    prematch = PreMatch.objects.select_for_update().get(match=match)
    _explain(prematch, f"inspiration:{team.pk}", lines)
    _settle(match, prematch)
    prematch.save()
    return prematch


def _bought(count: int) -> str:
    # Msg translates one message id, so the singular is a message of its own ("1 ekstra terninger")
    return N_("%(team)s: one extra die for %(cost)s.") if count == 1 else N_("%(team)s: %(n)s extra dice for %(cost)s.")
