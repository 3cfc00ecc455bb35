"""Pre-match steps 6-7: niggling injuries, the team ratings and the handicap
(R3: the squad's TR is taken after the niggling checks)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from league.lib.writes import league_write
from league.rules.messages import N_, Msg
from matches import dice
from matches.models import HandicapDraw, Match, PreMatch, SquadEntry
from matches.prematch.base import (
    PreMatchError,
    _explain,
    _lock_at_step,
    _settle,
    niggling_checked,
    niggling_players,
    team_side,
)
from matches.squads import squad_rating
from teams.models import Team

# --- 6. niggling injuries -----------------------------------------------------------------------


@league_write
def check_niggling(
    match: Match,
    team: Team,
    *,
    apothecary_for: Sequence[int] = (),
    entered: dict[int, Sequence[int]] | None = None,
    by: Any,
) -> PreMatch:
    """One D6 per niggling injury, a 1 misses the match (R36); the apothecary may pass a player's
    dice for 1 AP each, declared before any die is rolled."""
    match, prematch = _lock_at_step(match, PreMatch.Step.NIGGLING)
    r = prematch.ruleset.rules
    if niggling_checked(match, prematch, team):
        raise PreMatchError([_("%(team)s has made its niggling checks.") % {"team": team.name}])
    lines = []
    ap = 0
    for player in niggling_players(match, team):
        passed_by_apothecary = player.pk in apothecary_for
        if passed_by_apothecary:
            if not team.apothecary:
                raise PreMatchError([_("%(team)s has no apothecary.") % {"team": team.name}])
            ap += player.niggling
            lines.append(
                Msg(N_("%(player)s: the apothecary passes %(n)s NI (%(n)s AP)."), player=player, n=player.niggling)
            )
            continue
        d = dice.roll(
            match,
            f"niggling:{player.pk}",
            step="niggling",
            count=player.niggling,
            entered=(entered or {}).get(player.pk),
            by=by,
            player=player,
            team=team,
        )
        failed = any(r.niggling_check_fails(v) for v in d.values)
        lines.append(
            Msg(
                N_("%(player)s: %(n)s × D6 %(dice)s → %(result)s"),
                player=player,
                n=player.niggling,
                dice=d.shown,
                result=Msg(N_("misses the match")) if failed else Msg(N_("plays")),
            )
        )
        if failed:
            SquadEntry.objects.filter(match=match, player=player).update(status=SquadEntry.Status.MISSED_NIGGLING)
    if ap > r.settings.apothecary_ap:
        raise PreMatchError([_("The apothecary has %(n)s AP (R26).") % {"n": r.settings.apothecary_ap}])
    _explain(prematch, f"niggling:{team.pk}", lines or [Msg(N_("No niggling injuries in the squad."))])
    setattr(prematch, f"{team_side(match, team)}_niggling_checked", True)
    setattr(prematch, f"{team_side(match, team)}_niggling_ap", ap)
    if prematch.home_niggling_checked and prematch.away_niggling_checked:
        prematch.done = PreMatch.Step.NIGGLING
    prematch.save()
    return prematch


# --- 7. team ratings and handicap ---------------------------------------------------------------


@league_write
def roll_handicap(match: Match, *, entered: Sequence[int] | None = None, by: Any) -> PreMatch:
    """The lower-rated team rolls D66 on table 2 as often as table 1 says; duplicates are re-rolled (R22, R23).
    Entered dice are used in order; a duplicate asks for another die."""
    match, prematch = _lock_at_step(match, PreMatch.Step.HANDICAP)
    r = prematch.ruleset.rules
    home_tr, away_tr = squad_rating(match, match.home, prematch), squad_rating(match, match.away, prematch)
    prematch.home_rating, prematch.away_rating = home_tr.value, away_tr.value
    count = r.explain_handicap_rolls(home_tr.value, away_tr.value)
    lines = [
        Msg(
            N_("TR %(home)s: %(h)s; %(away)s: %(a)s"),
            home=match.home.name,
            h=home_tr.value,
            away=match.away.name,
            a=away_tr.value,
        )
    ]
    lines += [str(c) for c in count.cells] + list(count.steps)
    prematch.handicap_rolls = count.value
    lower = None
    if count.value:
        lower = match.home if home_tr.value < away_tr.value else match.away
        prematch.handicap_team = lower
    queue = list(entered or [])
    taken: set[str] = set()
    attempt = 0
    while lower is not None and len(taken) < count.value:
        attempt += 1
        if attempt > 50:
            raise PreMatchError([_("Too many duplicate handicap rolls.")])
        value = queue.pop(0) if queue else None
        if entered is not None and value is None:
            raise PreMatchError([_("Enter %(n)s D66 (duplicates are rolled again, R23).") % {"n": count.value}])
        given = [value // 10, value % 10] if value is not None else None
        d = dice.roll(match, f"handicap:{attempt}", step="handicap", d66=True, entered=given, by=by, team=lower)
        result = r.handicap_result(d.total)
        if result.key in taken:
            lines.append(Msg(N_("D66 %(d)s: %(name)s again, rolled again (R23)."), d=d.shown, name=result.name))
            continue
        taken.add(result.key)
        HandicapDraw.objects.create(
            match=match, team=lower, index=len(taken), key=result.key, name=result.name, effect=result.effect, dice=d
        )
        lines.append(
            Msg(
                N_("D66 %(d)s: %(name)s (Handicap tabell 2, %(range)s)"),
                d=d.shown,
                name=result.name,
                range=result.d66.label(),
            )
        )
        if result.key == "virus":  # R23: no opponent with a niggling injury may play
            opponent = match.away if lower.pk == match.home_id else match.home
            SquadEntry.objects.filter(
                match=match, team=opponent, player__niggling__gt=0, status=SquadEntry.Status.PLAYING
            ).update(status=SquadEntry.Status.MISSED_VIRUS)
    _explain(prematch, "handicap", lines)
    prematch.done = PreMatch.Step.HANDICAP
    _settle(match, prematch)
    prematch.save()
    return prematch
