"""The small steps of the post-match sequence: winnings, the stadium, fan factor, purchases, the new TR."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from league.lib.numbers import money
from league.lib.writes import league_write
from league.rules.messages import N_, Msg
from matches import dice
from matches.models import (
    Match,
    PlayerMatch,
    PostMatch,
)
from matches.postmatch.base import (
    PostMatchError,
    casualties_caused,
    facilities_of,
    finish_step,
    lock_step,
    prematch_of,
    side_of,
)
from matches.squads import division_die, squad_rating
from teams.ledger import post_entry, treasury
from teams.models import Stadium, Team, TreasuryEntry
from teams.selectors import roster_sheet

# --- 1. winnings (R17, R19-R21) -----------------------------------------------------------------


def kiosk_applies(match: Match, team: Team) -> bool:
    """The kiosk pays at home, as the facilities stood at the gate (R19)."""
    pre = prematch_of(match)
    return team.pk == match.home_id and not match.neutral and pre is not None and "kiosk" in pre.home_facilities


@league_write
def winnings(
    match: Match, team: Team, *, roll: Sequence[int] | None, kiosk: Sequence[int] | None = None, by: Any
) -> PostMatch:
    match, team, postmatch = lock_step(match, team, PostMatch.Step.WINNINGS)
    r = postmatch.ruleset.rules
    pre = prematch_of(match)
    forfeit = match.forfeited_by_id is not None
    if not forfeit and (pre is None or pre.home_gate is None):
        raise PostMatchError([_("The winnings need the gate: walk the pre-match sequence first.")])
    side = side_of(match, team)
    home = side == "home"
    rating = getattr(pre, f"{side}_rating") if pre else None
    if rating is None and forfeit:
        rating = roster_sheet(team.pk).team_rating.value
    elif rating is None:
        rating = squad_rating(match, team, pre).value
    die = division_die(match, team)
    d = dice.roll(match, f"winnings:{team.pk}", step="winnings", sides=die, entered=roll, by=by, team=team)
    score = match.home_score if home else match.away_score
    # R35: a forfeit is not played: no gate, no home crowd, no facilities; the winner rolls with its +1
    neutral = match.neutral or forfeit
    attendance = 0 if forfeit else pre.home_gate + pre.away_gate
    facilities = set(pre.home_facilities) if home and not neutral else set()  # R19: at home, as at the gate
    vip = "vip_lounge" in facilities and r.vip_lounge_applies(
        touchdowns=score, casualties=casualties_caused(match, team)
    )
    explained = r.explain_winnings(
        d.values[0],
        team_rating=rating,
        attendance=attendance,
        capacity=r.settings.neutral_capacity if forfeit else pre.capacity,
        won=match.winner_id == team.pk,
        home=home,
        ticket="ordinary" if forfeit else pre.ticket,
        neutral=neutral,
        vip=vip,
        die=die,
    )
    lines = [
        _("D%(die)s %(roll)s, TR %(tr)s, attendance %(att)s")
        % {"die": die, "roll": d.shown, "tr": rating, "att": money(attendance)}
    ]
    if forfeit:
        lines.append(_("Won by a forfeit: no gate, no home bonus (R35)."))
    lines += [str(c) for c in explained.cells] + list(explained.steps)
    postmatch.winnings = explained.value
    if explained.value:
        post_entry(
            team,
            explained.value,
            kind=TreasuryEntry.Kind.WINNINGS,
            description=Msg(N_("Winnings: %(match)s"), match=str(match)),
            by=by,
            cause=match,
            idempotency_key=f"winnings:{match.pk}:{team.pk}",
        )
    postmatch.kiosk = 0
    if "kiosk" in facilities:
        k = dice.roll(match, f"kiosk:{team.pk}", step="winnings", entered=kiosk, by=by, team=team)
        postmatch.kiosk = r.kiosk_income(k.values[0])
        lines.append(
            _("Kiosk: D6 %(roll)s → %(income)s (3+, R19)") % {"roll": k.shown, "income": money(postmatch.kiosk)}
        )
        if postmatch.kiosk:
            post_entry(
                team,
                postmatch.kiosk,
                kind=TreasuryEntry.Kind.WINNINGS,
                description=Msg(N_("Kiosk")),
                by=by,
                cause=match,
                idempotency_key=f"kiosk:{match.pk}:{team.pk}",
            )
    return finish_step(postmatch, PostMatch.Step.WINNINGS, "winnings", lines)


# --- 3. stadium (R18) -------------------------------------------------------------------------------


@league_write
def stadium(match: Match, team: Team, *, by: Any) -> PostMatch:
    match, team, postmatch = lock_step(match, team, PostMatch.Step.STADIUM)
    pre = prematch_of(match)
    lines = []
    if team.pk == match.home_id and pre and pre.vandalised and pre.seats_lost and not match.neutral:
        ground = Stadium.objects.select_for_update().get(team=team)
        ground.capacity = max(0, ground.capacity - pre.seats_lost)
        ground.save(update_fields=["capacity"])
        lines.append(
            _("Vandalism: %(n)s seats lost; capacity now %(c)s (R18).")
            % {"n": money(pre.seats_lost), "c": money(ground.capacity)}
        )
    return finish_step(postmatch, PostMatch.Step.STADIUM, "stadium", lines or [_("The stadium is unharmed.")])


# --- 6. fan factor (R30) ----------------------------------------------------------------------------


@league_write
def fan_factor(match: Match, team: Team, *, roll: Sequence[int] | None = None, by: Any) -> PostMatch:
    match, team, postmatch = lock_step(match, team, PostMatch.Step.FAN_FACTOR)
    r = postmatch.ruleset.rules
    d = dice.roll(match, f"fan_factor:{team.pk}", step="fan_factor", entered=roll, by=by, team=team)
    home = team.pk == match.home_id
    scored = match.home_score if home else match.away_score
    winner = match.winner_id
    result = "win" if winner == team.pk else "loss" if winner is not None else "draw"
    if match.forfeited_by_id is not None:
        # R42: a win by a forfeit counts the win and the awarded touchdowns, nothing of a match not played
        casualties, crowd, tv = 0, False, False
    else:
        casualties = casualties_caused(match, team)
        crowd = PlayerMatch.objects.filter(match=match, team=team, crowd_casualties__gt=0).exists()
        pre = prematch_of(match)
        # both teams, in the owner's home matches, with the facilities as they were for the match (R19)
        tv = not match.neutral and "tv_station" in (pre.home_facilities if pre else facilities_of(match.home))
    explained = r.explain_fan_factor_change(
        d.values[0],
        fan_factor=team.fan_factor,
        result=result,
        touchdowns=scored,
        casualties=casualties,
        crowd_casualty=crowd,
        tv_station=tv,
    )
    postmatch.fan_factor_change = explained.value
    old = team.fan_factor
    team.fan_factor = old + explained.value  # the team row is locked: load, change, save keeps the history
    team.save(update_fields=["fan_factor"])
    lines = list(explained.steps) + [str(c) for c in explained.cells]
    lines.append(_("Fan factor %(old)s → %(new)s") % {"old": old, "new": team.fan_factor})
    return finish_step(postmatch, PostMatch.Step.FAN_FACTOR, "fan_factor", lines)


# --- 7. purchases, 8. new team rating -----------------------------------------------------------------


def purchases_made(match: Match, team: Team) -> list[Msg]:
    """What the team bought since the report was confirmed, from its ledger, and its treasury after:
    kept when the purchases step is done, and kept again with the new team rating."""
    bought = TreasuryEntry.objects.filter(team=team, kind=TreasuryEntry.Kind.PURCHASE).order_by("seq")
    if match.confirmed_at is not None:
        bought = bought.filter(created_at__gte=match.confirmed_at)
    lines = [Msg(N_("Bought: %(what)s, %(price)s"), what=e.message or e.description, price=-e.amount) for e in bought]
    return [
        *(lines or [Msg(N_("Nothing bought."))]),
        Msg(N_("Treasury after the purchases: %(gold)s"), gold=treasury(team)),
    ]


@league_write
def purchases_done(match: Match, team: Team, *, by: Any) -> PostMatch:
    match, team, postmatch = lock_step(match, team, PostMatch.Step.PURCHASES)
    return finish_step(postmatch, PostMatch.Step.PURCHASES, "purchases", purchases_made(match, team))


@league_write
def complete(match: Match, team: Team, *, by: Any) -> PostMatch:
    match, team, postmatch = lock_step(match, team, PostMatch.Step.TEAM_RATING)
    # Purchases are made on the team page, which stays open between "Purchases done" and this step, and
    # the new TR counts whatever was bought by then: the coach reads the purchases' record as what his
    # sequence bought, so it is written again here, with the treasury as it is now. Refusing a purchase
    # in between would close the team page for no rule's sake, and the TR would still count it.
    postmatch.explanations = {**postmatch.explanations, "purchases": purchases_made(match, team)}
    sheet = roster_sheet(team.pk)
    postmatch.team_rating = sheet.team_rating.value
    postmatch.completed_at = timezone.now()
    return finish_step(postmatch, PostMatch.Step.TEAM_RATING, "team_rating", list(sheet.team_rating.steps))
