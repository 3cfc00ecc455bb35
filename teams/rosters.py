"""What a team write is checked against: the race's catalogue, the roster plan and its problems as messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league import rules
from league.lib.numbers import money
from league.lib.refusals import Refusal
from teams.models import Position, Race, Team


class TeamRuleError(Refusal):
    pass


def problem_messages(problems: Sequence[rules.RosterProblem]) -> list[str]:
    return [translate_problem(p) for p in problems]


def translate_problem(problem: rules.RosterProblem) -> str:
    templates = {
        "over_budget": _("The team costs %(cost)s but the treasury holds %(budget)s."),
        "position_limit": _("%(position)s: at most %(max)s (you have %(count)s)."),
        "too_many_players": _("At most %(max)s players on the roster (you have %(count)s)."),
        "too_few_players": _("At least %(min)s players at creation (you have %(count)s)."),
        "big_guy_not_allied": _("%(position)s does not play for %(race)s."),
        "no_apothecary": _("%(race)s may not have an apothecary."),
        "fan_factor_limit": _("Fan factor can be bought up to %(max)s at creation (you asked for %(count)s)."),
        "fan_factor_after_creation": _("Fan factor cannot be bought after the team is created."),
        "reroll_limit": _("At most %(max)s team re-rolls (you would have %(count)s)."),
        "negative": _("%(what)s cannot be negative."),
        "unknown_position": _("%(position)s is not a position of %(race)s."),
    }
    params = dict(problem.params)
    if problem.code == "over_budget":  # amounts as the book writes them: "1 000 000" in Norwegian
        params = {"cost": money(params["cost"]), "budget": money(params["budget"])}
    if problem.code == "big_guy_limit":
        return ngettext(
            "At most %(max)s Big Guy on a team (you have %(count)s).",
            "At most %(max)s Big Guys on a team (you have %(count)s).",
            params["max"],
        ) % params
    return templates[problem.code] % params


# --- catalogue helpers ---------------------------------------------------------------------------


def race_positions(race: Race) -> tuple[list[Position], list[Position]]:
    positions = list(Position.objects.for_race(race).prefetch_related("allied_races", "skills"))
    return [p for p in positions if not p.big_guy], [p for p in positions if p.big_guy]


def plural_name(name: str) -> str:
    """A position's name in the plural, as the rulebook's roster tables write it ("Lineman" → "Linemen",
    "Witch Elf" → "Witch Elves", "Mummy" → "Mummies", "Screamer of Tzeentch" → "Screamers of Tzeentch"):
    the catalogue names positions in the singular, a roster copied from paper may not."""
    head, sep, tail = name, "", ""
    for word in (" of ", " on "):
        if word in name:
            head, sep, tail = name.partition(word)
            break
    low = head.lower()
    if low.endswith("man"):
        head = head[:-3] + "men"
    elif low.endswith(("elf", "olf")):
        head = head[:-1] + "ves"
    elif low.endswith("y") and low[-2:-1] not in ("a", "e", "i", "o", "u"):
        head = head[:-1] + "ies"
    elif not low.endswith("s"):
        head += "s"
    return head + sep + tail


def race_spec(race: Race) -> rules.RaceSpec:
    """The race for the rules: its own positions and every Big Guy, so a non-allied one is named as such."""
    own = list(race.positions.all())
    big_guys = list(Position.objects.filter(big_guy=True).prefetch_related("allied_races"))
    return race.spec(own, big_guys)


def roster_counts(team: Team) -> dict[int, int]:
    counts: dict[int, int] = {}
    for position_id in team.players.on_roster().values_list("position_id", flat=True):
        counts[position_id] = counts.get(position_id, 0) + 1
    return counts


def current_plan(team: Team, **changes: Any) -> rules.RosterPlan:
    values = {
        "players": roster_counts(team),
        "rerolls": team.rerolls,
        "fan_factor": team.fan_factor,
        "assistant_coaches": team.assistant_coaches,
        "cheerleaders": team.cheerleaders,
        "apothecary": team.apothecary,
    }
    values.update(changes)
    return rules.RosterPlan(**values)


def check_roster(team: Team, plan: rules.RosterPlan) -> None:
    problems = team.ruleset.rules.roster_problems(race_spec(team.race), plan, creation=False)
    if problems:
        raise TeamRuleError(problem_messages(problems))


def next_number(team: Team) -> int:
    taken = set(team.players.on_roster().values_list("number", flat=True))
    return next(n for n in range(1, 100) if n not in taken)
