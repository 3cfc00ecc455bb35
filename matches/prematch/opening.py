"""Pre-match steps 1-5: the squads, the weather, ticket price and venue, the gate and vandalism,
and the fan-factor modifier."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from league.lib.writes import league_write
from league.rules.messages import N_, Joined, Msg
from matches import dice
from matches.models import DiceRoll, Match, PreMatch, SquadEntry
from matches.postmatch.base import unfinished_postmatches
from matches.prematch.base import (
    TICKETS,
    PreMatchError,
    _explain,
    _lock_at_step,
    neutral_allowed,
    niggling_players,
    team_side,
)
from matches.squads import division_die
from teams.models import Player, Team

# --- 1. squads ----------------------------------------------------------------------------------


@league_write
def pick_squad(match: Match, team: Team, player_ids: Sequence[int], *, by: Any) -> PreMatch:
    """Up to 16 available players (R3); can be changed until the weather is rolled."""
    match, prematch = _lock_at_step(match, PreMatch.Step.SQUADS)
    if prematch.done >= PreMatch.Step.WEATHER:
        raise PreMatchError([_("The squads are set: the weather has been rolled.")])
    if team.pk not in (match.home_id, match.away_id):
        raise PreMatchError([_("That team does not play this match.")])
    unfinished = unfinished_postmatches([team.pk]).exclude(match=match).select_related("match").first()
    if unfinished is not None:  # injuries, deaths and level-ups of the last match come first (R24)
        raise PreMatchError(
            [
                _("%(team)s must finish the post-match sequence of %(match)s first.")
                % {"team": team.name, "match": unfinished.match}
            ]
        )
    r = prematch.ruleset.rules
    ids = set(player_ids)
    players = list(Player.objects.filter(pk__in=ids))
    problems = []
    if len(ids) > r.settings.max_squad:
        problems.append(_("At most %(n)s players in the match squad (R3).") % {"n": r.settings.max_squad})
    if not ids:
        problems.append(_("Pick the players who take the field."))
    for p in players:
        if p.team_id != team.pk or not p.on_roster:
            problems.append(_("%(player)s is not on %(team)s's roster.") % {"player": p, "team": team.name})
        elif p.miss_matches:
            problems.append(_("%(player)s misses this match (injury).") % {"player": p})
    if len(players) != len(ids):
        problems.append(_("A player in the squad does not exist."))
    if problems:
        raise PreMatchError(problems)
    SquadEntry.objects.filter(match=match, team=team).delete()
    SquadEntry.objects.bulk_create(SquadEntry(match=match, team=team, player=p) for p in players)
    picked = set(SquadEntry.objects.filter(match=match).values_list("team_id", flat=True))
    prematch.done = PreMatch.Step.SQUADS if {match.home_id, match.away_id} <= picked else 0
    prematch.save()
    return prematch


# --- 2. weather ---------------------------------------------------------------------------------


@league_write
def roll_weather(match: Match, *, entered: Sequence[int] | None, by: Any) -> PreMatch:
    match, prematch = _lock_at_step(match, PreMatch.Step.WEATHER)
    r = prematch.ruleset.rules
    d = dice.roll(match, "weather", step="weather", count=2, entered=entered, by=by)
    roof = match.home.stadium.roof and not match.neutral  # R39: the roof counts at the owner's home only
    printed = r.weather(*d.values)
    weather = r.weather(*d.values, roof=roof)
    prematch.weather = weather.key
    # the explanation's lines are messages, shown in each reader's language
    lines = [Msg(N_("Weather: 2D6 %(dice)s = %(total)s → %(name)s"), dice=d.shown, total=d.total, name=printed.name)]
    if weather.key != printed.key:
        lines.append(Msg(N_("The roof cancels it: nice weather (R39).")))
    _explain(prematch, "weather", lines)
    prematch.done = PreMatch.Step.WEATHER
    prematch.save()
    return prematch


# --- 3. ticket price and venue ------------------------------------------------------------------


@league_write
def set_tickets(match: Match, *, ticket: str, neutral: bool, by: Any) -> PreMatch:
    match, prematch = _lock_at_step(match, PreMatch.Step.TICKETS)
    if ticket not in ("ordinary", "cheap", "expensive"):
        raise PreMatchError([_("Choose ordinary, cheap or expensive tickets.")])
    if neutral and not neutral_allowed(match):
        raise PreMatchError(
            [_("A neutral venue is allowed only in the cup or the first season with stadium rules (R14).")]
        )
    prematch.ticket = "ordinary" if neutral else ticket  # R14: ordinary prices at a neutral venue
    match.neutral = neutral
    match.save(update_fields=["neutral"])
    if neutral and match.home.stadium.roof:  # the roof counted only at home (R39): the weather as rolled
        rolled = DiceRoll.objects.get(match=match, purpose="weather")
        weather = prematch.ruleset.rules.weather(*rolled.values)
        if weather.key != prematch.weather:
            prematch.weather = weather.key
            _explain(
                prematch,
                "weather",
                [
                    *prematch.explanations.get("weather", [])[:1],
                    Msg(N_("At a neutral venue the roof does not count: %(name)s."), name=weather.name),
                ],
            )
    _explain(
        prematch,
        "tickets",
        [
            Msg(
                N_("Neutral venue: capacity %(capacity)s, no home or away modifier, ordinary prices (R14)."),
                capacity=prematch.ruleset.rules.settings.neutral_capacity,
            )
            if neutral
            else Msg(N_("Tickets: %(ticket)s."), ticket=Msg(TICKETS.get(prematch.ticket, prematch.ticket)))
        ],
    )
    prematch.done = PreMatch.Step.TICKETS
    prematch.save()
    return prematch


# --- 4. gate and vandalism, 5. fan-factor modifier ----------------------------------------------


@league_write
def roll_gate(
    match: Match,
    *,
    home_dice: Sequence[int] | None,
    away_dice: Sequence[int] | None,
    vandalism_die: Sequence[int] | None = None,
    by: Any,
) -> PreMatch:
    """Both gates (R12-R14), the vandalism check when they exceed capacity (R18), then the FFM (R15)."""
    match, prematch = _lock_at_step(match, PreMatch.Step.GATE)
    r = prematch.ruleset.rules
    lines = []
    gates = {}
    for side, team, entered in (("home", match.home, home_dice), ("away", match.away, away_dice)):
        die = division_die(match, team)
        rolled = (
            dice.roll(
                match, f"gate:{side}", step="gate", sides=die, count=team.fan_factor, entered=entered, by=by, team=team
            )
            if team.fan_factor
            else None
        )
        values = rolled.values if rolled else []
        explained = r.explain_gate(values, home=side == "home", ticket=prematch.ticket, neutral=match.neutral, die=die)
        gates[side] = explained.value
        lines.append(
            Msg(
                N_("%(team)s: FF %(ff)s × D%(die)s. %(steps)s"),
                team=team.name,
                ff=team.fan_factor,
                die=die,
                steps=Joined("; ", explained.steps),
            )
        )
    prematch.home_gate, prematch.away_gate = gates["home"], gates["away"]
    # R19: the facilities count as they are for this match, not as bought afterwards
    prematch.home_facilities = (
        [] if match.neutral else sorted(match.home.stadium.facilities.values_list("key", flat=True))
    )
    capacity = r.settings.neutral_capacity if match.neutral else match.home.stadium.capacity
    prematch.capacity = capacity
    vandalism = r.explain_vandalism_target(gates["home"], gates["away"], capacity, neutral=match.neutral)
    prematch.vandalism_target = vandalism.value
    lines += [str(c) for c in vandalism.cells] + list(vandalism.steps)
    if vandalism.value is not None:
        if vandalism.value >= 7:
            prematch.vandalised = True
        else:
            d = dice.roll(match, "vandalism", step="gate", entered=vandalism_die, by=by, team=match.home)
            prematch.vandalised = r.vandalised(vandalism.value, d.values[0])
            lines.append(Msg(N_("Vandalism: D6 %(roll)s against %(target)s+."), roll=d.shown, target=vandalism.value))
        if prematch.vandalised:
            caretakers = match.home.stadium.facilities.filter(key="caretakers").exists() and not match.neutral
            prematch.seats_lost = r.seats_destroyed(
                gates["home"], gates["away"], capacity, caretakers=caretakers, neutral=match.neutral
            )
            care = Msg(N_(", caretakers repair %(seats)s"), seats=r.settings.caretakers_repair) if caretakers else ""
            lines.append(
                Msg(N_("Vandalised: %(n)s seats lost after the match%(care)s (R18)."), n=prematch.seats_lost, care=care)
            )
        else:
            lines.append(Msg(N_("No vandalism.")))
    _explain(prematch, "gate", lines)
    ffm = r.explain_fan_factor_modifier(gates["home"], gates["away"])
    prematch.fan_factor_modifier = ffm.value
    _explain(prematch, "ffm", [str(c) for c in ffm.cells])
    prematch.done = PreMatch.Step.FAN_FACTOR_MODIFIER
    for team in (match.home, match.away):  # nothing to check: that team's checks are done
        if not niggling_players(match, team):
            _explain(
                prematch,
                f"niggling:{team.pk}",
                [Msg(N_("%(team)s: no niggling injuries in the squad."), team=team.name)],
            )
            setattr(prematch, f"{team_side(match, team)}_niggling_checked", True)
    if prematch.home_niggling_checked and prematch.away_niggling_checked:
        prematch.done = PreMatch.Step.NIGGLING
    prematch.save()
    return prematch
