"""The tables an injured player rolls on in the injuries step (R25, R29, R41): the serious injury table,
the revival table and the stat an injury lowers; and the dead buried."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from league import rules
from league.rules.injuries import Fate, InjuredPlayer, injury_fate
from league.rules.messages import N_, Joined, Msg
from matches import dice
from matches.models import DiceRoll, Match
from teams.models import Player, StatChange


def player_die(
    match: Match, purpose: str, player: Player, *, by: Any, entered: Mapping[str, Sequence[int]], **kwargs: Any
) -> DiceRoll:
    """One of the injuries step's dice for a player, stored under "<purpose>:<player>" (entered or rolled)."""
    key = f"{purpose}:{player.pk}"
    return dice.roll(match, key, step="injuries", entered=entered.get(key), by=by, player=player, **kwargs)


def lose_stat(player: Player, stat: str, r: rules.Ruleset, note: str, match: Match) -> Msg:
    """An injury's -1 to a stat, as league.rules decides it: never past -2 from the position's value and
    never moved to another stat (R41); a stat lowered to 0 hits another at random (R29). The part of
    the explanation line says which, R41's refusal too."""
    base = {s: getattr(player.position, s.lower()) for s in rules.STATS}
    loss = r.stat_loss(stat, base, {s: getattr(player, s.lower()) for s in rules.STATS})
    if loss.choose_from:
        loss = loss.moved_to(loss.choose_from[dice.randbelow(len(loss.choose_from))])
    if loss.lowered is not None:
        field = f"{loss.lowered.lower()}_change"
        setattr(player, field, getattr(player, field) - 1)
        StatChange.objects.create(
            player=player,
            stat=loss.lowered,
            change=-1,
            reason=StatChange.Reason.INJURY,
            note=note,
            match_id=match.pk,
        )
    return loss.shown


def revive(player: Player, match: Match, r: rules.Ruleset, by: Any, entered: Mapping[str, Sequence[int]]) -> Msg:
    """A revived player rolls on the revival table, and the dice for the matches he misses."""
    d = player_die(match, "revival", player, d66=True, by=by, entered=entered)
    result = r.revival(d.total)
    miss = result.plus
    if result.dice:
        m = player_die(match, "revival_miss", player, sides=result.die, count=result.dice, by=by, entered=entered)
        miss = result.miss_matches(m.values)
    player.miss_matches = max(player.miss_matches, miss)
    parts: list[str] = [
        Msg(
            # Msg translates one message id: the singular is a message of its own
            N_("revived: Gjenoppliving-tabell D66 %(d)s %(name)s, out %(miss)s match")
            if miss == 1
            else N_("revived: Gjenoppliving-tabell D66 %(d)s %(name)s, out %(miss)s matches"),
            d=d.shown,
            name=result.name,
            miss=miss,
        )
    ]
    if result.niggling:
        player.niggling += 1
        parts.append("NI")
    if result.stat:
        parts.append(lose_stat(player, result.stat, r, result.name, match))
    return Joined(", ", parts)


def serious_injury(
    match: Match,
    player: Player,
    injured: InjuredPlayer,
    dead: list[Player],
    r: rules.Ruleset,
    by: Any,
    entered: Mapping[str, Sequence[int]],
) -> str:
    """Roll on the serious injury table and apply the result: dead (for the healer, or buried after the
    apothecary, R25), or out for matches, a niggling injury, a stat lost."""
    d = player_die(match, "serious_injury", player, d66=True, by=by, entered=entered)
    si = r.serious_injury(d.total)
    fate = injury_fate(r, replace(injured, serious_injury_dead=si.dead))
    if fate == Fate.BURIED:
        bury(player.pk)
    if fate in (Fate.BURIED, Fate.DEAD):
        if fate == Fate.DEAD:
            dead.append(player)
        return _("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(name)s.") % {
            "player": player,
            "d": d.shown,
            "name": si.name,
        }
    parts: list[str] = [si.name]
    player.miss_matches = max(player.miss_matches, si.miss_matches)
    if si.miss_matches:
        parts.append(Msg(N_("misses %(n)s"), n=si.miss_matches))
    if si.niggling:
        player.niggling += 1
        parts.append("NI")
    if si.stat:  # R41: a stat at -2 lowers nothing; the matches missed and the niggling injury stand
        parts.append(lose_stat(player, si.stat, r, si.name, match))
    player.save()
    return Msg(
        N_("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(result)s."),
        player=player,
        d=d.shown,
        result=Joined(", ", parts),
    )


def bury(player_id: int) -> None:
    """Dead, saved with a history record (a bare UPDATE would leave none)."""
    player = Player.objects.get(pk=player_id)
    player.status, player.left_at = Player.Status.DEAD, timezone.now()
    player.save(update_fields=["status", "left_at"])
