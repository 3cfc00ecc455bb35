"""The dice of the match itself, stored rows (matches/dice.py) typed or rolled: the Master Chef's
before each half, the Kick-Off table's and the dice its result asks for."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from league import rules as league_rules
from league.rules import live as rules
from matches import dice
from matches.live.state import EventInput, LiveError, side_of, team_of
from matches.models import DiceRoll, Match, PreMatch
from teams.models import Race


def chef_dice(match: Match, prematch: PreMatch, half: int, entry: EventInput, by: Any) -> dict[str, list[int]]:
    """Master Chef's: before each half a D6, and one more per 20,000 spent before the match; the dice
    are stored rows (typed or rolled). Returns each chef side's dice."""
    rolls = []
    for side, team in ((rules.HOME, match.home), (rules.AWAY, match.away)):
        if team.race.head_coach != Race.HeadCoach.MASTER_CHEF:
            continue
        count = 1 + getattr(prematch, f"{side}_chef_dice")
        values = dice.draw(count=count, entered=entry.chef.get(side))
        rolls.append(_dice_row(match, f"chef:{half}:{team.pk}", values, entry.chef.get(side), by, team, step="live"))
    stored = dice.store(match, rolls)  # after an undone half-time the first dice stand
    return {side_of(match, d.team_id): d.values for d in stored.values()}


def _dice_row(match: Match, purpose: str, values: list[int], entered: Any, by: Any, team: Any, **kw) -> DiceRoll:
    return DiceRoll(
        match=match,
        purpose=purpose,
        step=kw.get("step", "live"),
        sides=kw.get("sides", 6),
        count=len(values),
        values=values,
        entered=entered is not None,
        rolled_by=by if getattr(by, "is_authenticated", False) else None,
        team=team,
    )


def kickoff_dice(match: Match, prematch: PreMatch, state: rules.State, entry: EventInput, by: Any) -> dict:
    """The Kick-Off table (2D6 by the kicking team) and the dice its result asks for: the weather
    again on 7 (R39: the roof at home), a D6 of turns on 2, the roll-off for the extra re-roll on
    5 and 9 (a tie is rolled again; typed dice that tie are refused)."""
    r = match.season.ruleset.rules
    kicking = team_of(match, state.kicking)
    cid = entry.client_id.hex
    values = dice.draw(count=2, entered=entry.kickoff)
    result = r.kickoff(*values)
    rows = [_dice_row(match, f"kickoff:{cid}", values, entry.kickoff, by, kicking)]
    data: dict[str, Any] = {"dice": values, "result": result.key, "name": result.name}
    if result.key == rules.CHANGING_WEATHER:
        data.update(_changing_weather(match, r, entry, by, rows))
    elif result.key == rules.RIOT:
        d = dice.draw(count=1, entered=entry.riot)
        rows.append(_dice_row(match, f"riot:{cid}", d, entry.riot, by, kicking))
        data["riot_turns"] = d[0]
    elif result.key in rules.CONTESTS:
        data.update(_roll_off(match, prematch, result.key, entry, by, rows))
    dice.store(match, rows)
    return data


def _changing_weather(
    match: Match, r: league_rules.Ruleset, entry: EventInput, by: Any, rows: list[DiceRoll]
) -> dict[str, Any]:
    """The weather rolled again (R39: under the home team's roof, unless at a neutral venue)."""
    w = dice.draw(count=2, entered=entry.weather)
    rows.append(_dice_row(match, f"kickoff_weather:{entry.client_id.hex}", w, entry.weather, by, None))
    roof = match.home.stadium.roof and not match.neutral
    weather = r.weather(*w, roof=roof)
    return {"weather": weather.key, "weather_name": weather.name, "weather_dice": w}


def _roll_off(
    match: Match, prematch: PreMatch, kind: str, entry: EventInput, by: Any, rows: list[DiceRoll]
) -> dict[str, Any]:
    """Each side's dice for the extra re-roll, with its cheerleaders (the twelfth player) or its
    assistant coaches (the practised move), rolled again on a tie."""
    count = rules.CONTESTS[kind]
    staff = "cheerleaders" if kind == rules.TWELFTH_PLAYER else "assistant_coaches"
    ffm = prematch.fan_factor_modifier or 0
    for attempt in range(1, 21):
        rolled = {s: dice.draw(count=count, entered=entry.contest.get(s)) for s in rules.SIDES}
        home_total, away_total = rules.kickoff_contest(
            kind,
            rolled[rules.HOME],
            rolled[rules.AWAY],
            ffm=ffm,
            home_staff=getattr(match.home, staff),
            away_staff=getattr(match.away, staff),
        )
        for s in rules.SIDES:
            purpose = f"kickoff_contest:{entry.client_id.hex}:{attempt}:{s}"
            rows.append(_dice_row(match, purpose, rolled[s], entry.contest.get(s), by, team_of(match, s)))
        winner = rules.contest_winner(home_total, away_total)
        if winner is not None:
            return {"extra_reroll": winner, "contest": [home_total, away_total]}
        if entry.contest.get(rules.HOME) is not None or entry.contest.get(rules.AWAY) is not None:
            raise LiveError([_("The roll-off is tied (%(n)s each): roll again.") % {"n": home_total}])
    return {}
