"""What a development roll lets the coach choose (R29). Pure: skills are (name, letter, kind) tuples."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

STAT_CHOICE = "stat:"
MUTATION_CHOICE = "mutation:"


@dataclass(frozen=True)
class SkillSpec:
    name: str
    letter: str  # G A S P M, "" for racial characteristics
    kind: str  # "S" skill or "T" trait


def development_choices(
    *,
    result: str,
    is_double: bool,
    normal: str,
    double: str,
    skills: Iterable[SkillSpec],
    owned: Iterable[str],
    stat_allowed: Mapping[str, bool],
    mutation_categories: Iterable[str],
    always_mutates: bool = False,
) -> list[str]:
    """The allowed choices: skill names, "stat:MA" for the increase, "mutation:<category>" for a D4 mutation.

    A skill from the normal categories always; the stat the roll shows if within +2 (a skill may be
    taken instead); on doubles a trait from the normal categories or a skill from any other. Mutations
    are traits, so they need doubles and M among the normal categories, except for the positions that
    may always mutate. A skill the player has cannot be taken again.
    """
    owned = set(owned)
    choices: list[str] = []
    if result in ("MA", "AG", "ST") and stat_allowed.get(result, False):
        choices.append(STAT_CHOICE + result)
    for skill in skills:
        if skill.name in owned or not skill.letter or skill.letter == "M":
            continue
        in_normal = skill.letter in normal
        if (skill.kind == "S" and in_normal) or (
            is_double and ((skill.kind == "T" and in_normal) or (skill.kind == "S" and skill.letter in double))
        ):
            choices.append(skill.name)
    if always_mutates or (is_double and "M" in normal):
        choices += [MUTATION_CHOICE + c for c in mutation_categories]
    return choices
