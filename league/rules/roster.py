"""Roster rules: what a team may hold and what it costs (R5-R8). Pure: plain specs in, problems out.

Problems are codes with parameters, so the interface can word them in Norwegian or English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

MESSAGES: dict[str, str] = {
    "over_budget": "The team costs {cost:,} but the treasury holds {budget:,}.",
    "position_limit": "{position}: at most {max} (you have {count}).",
    "too_many_players": "At most {max} players on the roster (you have {count}).",
    "too_few_players": "At least {min} players at creation (you have {count}).",
    "big_guy_not_allied": "{position} does not play for {race}.",
    "big_guy_limit": "At most {max} Big Guy on a team (you have {count}).",
    "no_apothecary": "{race} may not have an apothecary.",
    "fan_factor_limit": "Fan factor can be bought up to {max} at creation (you asked for {count}).",
    "fan_factor_after_creation": "Fan factor cannot be bought after the team is created.",
    "reroll_limit": "At most {max} team re-rolls (you would have {count}).",
    "negative": "{what} cannot be negative.",
    "unknown_position": "{position} is not a position of {race}.",
}


@dataclass(frozen=True)
class PositionSpec:
    key: Any
    name: str
    max: int
    price: int
    big_guy: bool = False
    allied: tuple[str, ...] = ()


@dataclass(frozen=True)
class RaceSpec:
    name: str
    reroll_price: int
    apothecary: bool
    positions: tuple[PositionSpec, ...]
    big_guys: tuple[PositionSpec, ...] = ()

    def position(self, key: Any) -> PositionSpec | None:
        return next((p for p in (*self.positions, *self.big_guys) if p.key == key), None)


@dataclass(frozen=True)
class RosterPlan:
    """What the team would hold: players per position key, and staff."""

    players: Mapping[Any, int] = field(default_factory=dict)
    rerolls: int = 0
    fan_factor: int = 0
    assistant_coaches: int = 0
    cheerleaders: int = 0
    apothecary: bool = False

    @property
    def player_count(self) -> int:
        return sum(self.players.values())


@dataclass(frozen=True)
class RosterProblem:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return MESSAGES[self.code].format(**self.params)

    def __str__(self) -> str:
        return self.message


class RosterRules:
    """Mixed into Ruleset: the roster checks and prices of R5-R8."""

    settings: Any

    def roster_problems(self, race: RaceSpec, plan: RosterPlan, *, creation: bool) -> list[RosterProblem]:
        s = self.settings
        problems: list[RosterProblem] = []
        for what, value in (
            ("players", min(plan.players.values(), default=0)),
            ("rerolls", plan.rerolls),
            ("fan factor", plan.fan_factor),
            ("assistant coaches", plan.assistant_coaches),
            ("cheerleaders", plan.cheerleaders),
        ):
            if value < 0:
                problems.append(RosterProblem("negative", {"what": what}))
        big_guys = 0
        for key, count in plan.players.items():
            if not count:
                continue
            position = race.position(key)
            if position is None:
                problems.append(RosterProblem("unknown_position", {"position": key, "race": race.name}))
                continue
            if position.big_guy:
                big_guys += count
                if race.name not in position.allied:
                    problems.append(RosterProblem("big_guy_not_allied", {"position": position.name, "race": race.name}))
            elif count > position.max:
                problems.append(
                    RosterProblem("position_limit", {"max": position.max, "position": position.name, "count": count})
                )
        if big_guys > s.big_guy_limit:
            problems.append(RosterProblem("big_guy_limit", {"max": s.big_guy_limit, "count": big_guys}))
        count = plan.player_count
        if count > s.max_players:
            problems.append(RosterProblem("too_many_players", {"max": s.max_players, "count": count}))
        if creation and count < s.min_players_creation:
            problems.append(RosterProblem("too_few_players", {"min": s.min_players_creation, "count": count}))
        if plan.apothecary and not race.apothecary:
            problems.append(RosterProblem("no_apothecary", {"race": race.name}))
        if creation and plan.fan_factor > s.max_fan_factor_creation:
            problems.append(
                RosterProblem("fan_factor_limit", {"max": s.max_fan_factor_creation, "count": plan.fan_factor})
            )
        if plan.rerolls > s.max_rerolls:
            problems.append(RosterProblem("reroll_limit", {"max": s.max_rerolls, "count": plan.rerolls}))
        return problems

    def creation_cost(self, race: RaceSpec, plan: RosterPlan) -> int:
        """Players at list price, re-rolls at base price, FF, staff, cheerleaders progressive (R5-R7)."""
        s = self.settings
        players = 0
        for key, count in plan.players.items():
            position = race.position(key)
            if position is not None:
                players += position.price * count
        return (
            players
            + plan.rerolls * race.reroll_price
            + plan.fan_factor * s.fan_factor_price
            + plan.assistant_coaches * s.assistant_coach_price
            + self.cheerleaders_value(plan.cheerleaders)  # type: ignore[attr-defined]
            + (s.apothecary_price if plan.apothecary else 0)
        )

    def creation_problems(self, race: RaceSpec, plan: RosterPlan, *, budget: int | None = None) -> list[RosterProblem]:
        budget = self.settings.starting_treasury if budget is None else budget
        problems = self.roster_problems(race, plan, creation=True)
        cost = self.creation_cost(race, plan)
        if cost > budget:
            problems.insert(0, RosterProblem("over_budget", {"cost": cost, "budget": budget}))
        return problems
