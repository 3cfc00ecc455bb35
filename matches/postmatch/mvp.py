"""Step 4, the MVP (R27)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league import rules
from league.lib.writes import league_write
from league.rules.records import record_spp
from matches import dice, stats
from matches.models import (
    HandicapDraw,
    Match,
    PlayerMatch,
    PostMatch,
    SquadEntry,
)
from matches.postmatch.base import finish_step, lock_step
from teams.models import Player, Team

# --- 4. MVP (R27) -----------------------------------------------------------------------------------


def inspired_player_id(match: Match, team: Team) -> int | None:
    return (
        HandicapDraw.objects.filter(match=match, team=team, key="inspiration")
        .values_list("player_id", flat=True)
        .first()
    )


def earned_this_match(match: Match, team: Team, r: rules.Ruleset) -> dict[int, tuple[Player, int]]:
    """Each player's SPP from this match: his report line, his MVP, and an Inspiration MVP (R23)."""
    earned = {
        line.player_id: (line.player, _match_spp(line, r))
        for line in PlayerMatch.objects.filter(match=match, team=team).select_related(
            "player__position", "player__team__ruleset"
        )
    }
    inspired = inspired_player_id(match, team)
    if inspired:
        player, spp = earned.get(inspired) or (
            Player.objects.select_related("position", "team__ruleset").get(pk=inspired),
            0,
        )
        earned[inspired] = (player, spp + r.spp_award("mvp"))
    return earned


def _match_spp(line: PlayerMatch, r: rules.Ruleset) -> int:
    return record_spp(r, line)


def _mvp_pools(match: Match, team: Team, r: rules.Ruleset) -> tuple[list[Player], list[Player]]:
    """Those on the roster who earned SPP in the match, and those who played; never the inspired (R23)."""
    earned = [
        line.player
        for line in PlayerMatch.objects.filter(match=match, team=team)
        .select_related("player")
        .order_by("player__number")
        if _match_spp(line, r) > 0
    ]
    played = [
        e.player
        for e in SquadEntry.objects.filter(match=match, team=team, status=SquadEntry.Status.PLAYING)
        .select_related("player")
        .order_by("player__number")
    ]
    inspired = inspired_player_id(match, team)  # R23: no player gets two MVPs in a match
    earned = [p for p in earned if p.pk != inspired and p.on_roster]
    played = [p for p in played if p.pk != inspired and p.on_roster]
    return earned, played


def mvp_candidates(match: Match, team: Team, r: rules.Ruleset | None = None) -> list[Player] | None:
    """The MVP's candidates in the die's order (face 1 is the first), or None when the team receives
    no more MVPs (R27)."""
    r = r or match.season.ruleset.rules
    if not r.receives_mvp(team.mvps_received):
        return None
    return r.mvp_candidates(*_mvp_pools(match, team, r))


@league_write
def mvp(match: Match, team: Team, *, roll: Sequence[int] | None = None, by: Any) -> PostMatch:
    """One player at random among those who earned SPP, else among those who played, while the team
    still receives MVPs (R27)."""
    match, team, postmatch = lock_step(match, team, PostMatch.Step.MVP)
    r = postmatch.ruleset.rules
    if not r.receives_mvp(team.mvps_received):
        limit = r.settings.mvp_limit
        received = ngettext(
            "%(team)s has received its %(n)s MVP (R27).", "%(team)s has received its %(n)s MVPs (R27).", limit
        )
        return finish_step(postmatch, PostMatch.Step.MVP, "mvp", [received % {"team": team.name, "n": limit}])
    earned, played = _mvp_pools(match, team, r)
    candidates = r.mvp_candidates(earned, played)
    if not candidates:
        return finish_step(postmatch, PostMatch.Step.MVP, "mvp", [_("No player to receive the MVP.")])
    d = dice.roll(match, f"mvp:{team.pk}", step="mvp", sides=len(candidates), entered=roll, by=by, team=team)
    chosen = candidates[d.values[0] - 1]
    # Load, change, save (the team row is locked): each leaves a history record.
    chosen = Player.objects.get(pk=chosen.pk)
    chosen.mvps += 1
    chosen.save(update_fields=["mvps"])
    # A line made now, for one who had none, joins his career at the match's confirmation (matches.stats).
    made = {"team": team, "confirmed_at": match.confirmed_at}
    line, _created = PlayerMatch.objects.get_or_create(match=match, player=chosen, defaults=made)
    line.mvps += 1
    line.save(update_fields=["mvps"])
    stats.count_mvp(match, player_id=chosen.pk, team_id=team.pk)  # kept counters
    team.mvps_received += 1
    team.save(update_fields=["mvps_received"])
    postmatch.mvp = chosen
    pool = _("earned SPP") if earned else _("played")
    line_text = _("D%(n)s %(roll)s among the %(n)s who %(pool)s: %(player)s (+%(spp)s SPP).") % {
        "n": len(candidates),
        "roll": d.shown,
        "pool": pool,
        "player": chosen,
        "spp": r.spp_award("mvp"),
    }
    return finish_step(postmatch, PostMatch.Step.MVP, "mvp", [line_text])
