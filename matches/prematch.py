"""The pre-match sequence of the referee sheet, step by step (R3, R12-R18, R22, R23, R36, R39).

Each step takes its dice (entered at the table or rolled by the server, recorded either way),
computes its result with league.rules and keeps the table cells it used. Steps run in order and
each is applied once: the PreMatch row is locked while a step runs and its `done` marks progress.
The niggling checks come before the team ratings and the handicap: R3 says the match squad is
picked after them, and the TR is that squad's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.refusals import Refusal
from league.rules.messages import N_, Joined, Msg
from matches import dice
from matches.models import DevelopmentRoll, DiceRoll, HandicapDraw, Match, PostMatch, PreMatch, SquadEntry
from matches.postmatch.development import apply_development, roll_one_development
from matches.squads import division_die, squad_rating
from teams.ledger import lock_team, post_entry
from teams.models import Player, Race, Team, TreasuryEntry

Step = PreMatch.Step


class PreMatchError(Refusal):
    pass


def get_prematch(match: Match) -> PreMatch:
    prematch, _created = PreMatch.objects.get_or_create(match=match, defaults={"ruleset": match.season.ruleset})
    return prematch


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
    get_prematch(match)
    prematch = PreMatch.objects.select_for_update().get(match=match)
    if prematch.done >= step and step != Step.SQUADS:
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


# --- 1. squads ----------------------------------------------------------------------------------


@transaction.atomic
def pick_squad(match: Match, team: Team, player_ids: Sequence[int], *, by: Any) -> PreMatch:
    """Up to 16 available players (R3); can be changed until the weather is rolled."""
    match, prematch = _lock_at_step(match, Step.SQUADS)
    if prematch.done >= Step.WEATHER:
        raise PreMatchError([_("The squads are set: the weather has been rolled.")])
    if team.pk not in (match.home_id, match.away_id):
        raise PreMatchError([_("That team does not play this match.")])
    unfinished = (
        PostMatch.objects.filter(team=team, done__lt=PostMatch.Step.TEAM_RATING, match__status=Match.Status.CONFIRMED)
        .exclude(match=match)
        .first()
    )
    if unfinished is not None:  # injuries, deaths and level-ups of the last match come first
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
    prematch.done = Step.SQUADS if {match.home_id, match.away_id} <= picked else 0
    prematch.save()
    return prematch


# --- 2. weather ---------------------------------------------------------------------------------


@transaction.atomic
def roll_weather(match: Match, *, entered: Sequence[int] | None, by: Any) -> PreMatch:
    match, prematch = _lock_at_step(match, Step.WEATHER)
    r = prematch.ruleset.rules
    d = dice.roll(match, "weather", step="weather", count=2, entered=entered, by=by)
    roof = match.home.stadium.roof and not match.neutral  # R39: the roof counts at the owner's home only
    printed = r.weather(*d.values)
    weather = r.weather(*d.values, roof=roof)
    prematch.weather = weather.key
    # the explanation's lines are messages, shown in each reader's language (issue 12)
    lines = [Msg(N_("Weather: 2D6 %(dice)s = %(total)s → %(name)s"), dice=d.shown, total=d.total, name=printed.name)]
    if weather.key != printed.key:
        lines.append(Msg(N_("The roof cancels it: nice weather (R39).")))
    _explain(prematch, "weather", lines)
    prematch.done = Step.WEATHER
    prematch.save()
    return prematch


# --- 3. ticket price and venue ------------------------------------------------------------------


@transaction.atomic
def set_tickets(match: Match, *, ticket: str, neutral: bool, by: Any) -> PreMatch:
    match, prematch = _lock_at_step(match, Step.TICKETS)
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
    prematch.done = Step.TICKETS
    prematch.save()
    return prematch


# --- 4. gate and vandalism, 5. fan-factor modifier ----------------------------------------------


@transaction.atomic
def roll_gate(
    match: Match,
    *,
    home_dice: Sequence[int] | None,
    away_dice: Sequence[int] | None,
    vandalism_die: Sequence[int] | None = None,
    by: Any,
) -> PreMatch:
    """Both gates (R12-R14), the vandalism check when they exceed capacity (R18), then the FFM (R15)."""
    match, prematch = _lock_at_step(match, Step.GATE)
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
    prematch.done = Step.FAN_FACTOR_MODIFIER
    for team in (match.home, match.away):  # nothing to check: that team's checks are done
        if not niggling_players(match, team):
            _explain(
                prematch,
                f"niggling:{team.pk}",
                [Msg(N_("%(team)s: no niggling injuries in the squad."), team=team.name)],
            )
            setattr(prematch, f"{team_side(match, team)}_niggling_checked", True)
    if prematch.home_niggling_checked and prematch.away_niggling_checked:
        prematch.done = Step.NIGGLING
    prematch.save()
    return prematch


# --- 6. niggling injuries -----------------------------------------------------------------------


def niggling_players(match: Match, team: Team) -> list[Player]:
    return [
        e.player
        for e in SquadEntry.objects.filter(match=match, team=team, player__niggling__gt=0).select_related("player")
    ]


@transaction.atomic
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
    match, prematch = _lock_at_step(match, Step.NIGGLING)
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
        prematch.done = Step.NIGGLING
    prematch.save()
    return prematch


# --- 7. team ratings and handicap ---------------------------------------------------------------


@transaction.atomic
def roll_handicap(match: Match, *, entered: Sequence[int] | None = None, by: Any) -> PreMatch:
    """The lower-rated team rolls D66 on table 2 as often as table 1 says; duplicates are re-rolled (R22, R23).
    Entered dice are used in order; a duplicate asks for another die."""
    match, prematch = _lock_at_step(match, Step.HANDICAP)
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
    prematch.done = Step.HANDICAP
    _settle(match, prematch)
    prematch.save()
    return prematch


def inspiration_pending(match: Match) -> bool:
    """An Inspiration drawn whose player is not chosen, or whose development roll waits for a choice (R23)."""
    return (
        HandicapDraw.objects.filter(match=match, key="inspiration", player__isnull=True).exists()
        or DevelopmentRoll.objects.filter(match=match, before_match=True, choice="").exists()
    )


def _settle(match: Match, prematch: PreMatch) -> None:
    """After the handicap the sequence is finished once the inspired player is chosen and his roll
    resolved (R23) and every Master Chef has bought his dice (none to buy: nothing to wait for)."""
    if prematch.done < Step.HANDICAP:
        return
    chefs = all(chef_bought(match, prematch, t) for t in chef_teams(match))
    prematch.done = Step.MASTER_CHEF if chefs and not inspiration_pending(match) else Step.HANDICAP


# --- 8. Master Chef -----------------------------------------------------------------------------


def chef_teams(match: Match) -> list[Team]:
    return [t for t in (match.home, match.away) if t.race.head_coach == Race.HeadCoach.MASTER_CHEF]


@transaction.atomic
def buy_chef_dice(match: Match, team: Team, *, count: int, by: Any) -> PreMatch:
    """A Halfling team's extra Master Chef dice, 20,000 each, paid before the match."""

    match, prematch = _lock_at_step(match, Step.MASTER_CHEF)
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
            description=_("Master Chef: %(n)s extra dice") % {"n": count},
            by=by,
            cause=match,
            idempotency_key=f"chef:{match.pk}:{team.pk}",
        )
    setattr(prematch, f"{team_side(match, team)}_chef_dice", count)
    setattr(prematch, f"{team_side(match, team)}_chef_bought", True)
    _explain(
        prematch,
        f"chef:{team.pk}",
        [Msg(N_("%(team)s: %(n)s extra dice for %(cost)s."), team=team.name, n=count, cost=count * price)],
    )
    _settle(match, prematch)
    prematch.save()
    return prematch


@transaction.atomic
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


@transaction.atomic
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
