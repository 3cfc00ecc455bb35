"""What a development roll lets the coach choose (R29). Pure: skills are (name, letter, kind) tuples."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from league.rules.explained import Cell, Explained, Section, _die, _non_negative
from league.rules.messages import N_, Msg
from league.rules.tables import STATS

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


# --- the development section of Ruleset (R4, R27-R29) -------------------------------------------

# The development table's results as the catalogue knows them.
DEVELOPMENT_RESULTS = {"skill": N_("skill"), "MA": N_("MA"), "AG": N_("AG"), "ST": N_("ST")}


@dataclass(frozen=True)
class DevelopmentOptions:
    """What a development roll allows (R29)."""

    result: str  # "skill" | "MA" | "AG" | "ST"
    is_double: bool
    normal_skill: bool = True  # a skill from the normal categories is always allowed
    stat: str | None = None  # the optional stat increase
    trait_normal: bool = False  # doubles: a trait from the normal categories
    skill_any_other: bool = False  # doubles: a skill from any other category


class DevelopmentRules(Section):
    """Mixed into Ruleset: SPP, skill points, development rolls, mutations and the MVP."""

    def explain_skill_points(self, spp: int) -> Explained:
        _non_negative("spp", spp)
        band = self.tables.skill_points.lookup(spp)
        points, title = band.value
        return Explained(points, (Cell("skill_points", band.range.label(), None, f"{title}, {points}"),))

    def skill_points(self, spp: int) -> int:
        return self.explain_skill_points(spp).value

    def level_thresholds(self) -> tuple[int, ...]:
        return tuple(b.range.min for b in self.tables.skill_points.bands[1:])  # type: ignore[misc]

    def level_ups(self, spp_before: int, spp_after: int) -> int:
        """Development rolls earned: one per threshold crossed (R4)."""
        _non_negative("spp_before", spp_before)
        _non_negative("spp_after", spp_after)
        return sum(1 for t in self.level_thresholds() if spp_before < t <= spp_after)

    def spp_award(self, kind: str) -> int:
        return self.tables.spp_awards[kind]

    def spp(
        self,
        *,
        completions: int = 0,
        touchdowns: int = 0,
        interceptions: int = 0,
        casualties: int = 0,
        fouls: int = 0,
        mvps: int = 0,
    ) -> int:
        """SPP for a player's deeds (R28); crowd casualties from a block's push count as casualties."""
        a = self.tables.spp_awards
        return (
            completions * a["completion"]
            + touchdowns * a["touchdown"]
            + interceptions * a["interception"]
            + casualties * a["casualty"]
            + fouls * a["foul"]
            + mvps * a["mvp"]
        )

    def development(self, d1: int, d2: int) -> str:
        return self.explain_development(d1, d2).value

    def explain_development(self, d1: int, d2: int) -> Explained:
        _die("d1", d1, 6)
        _die("d2", d2, 6)
        band = self.tables.development.lookup(d1 + d2)
        shown = Msg(DEVELOPMENT_RESULTS.get(band.value, band.value))
        if d1 == d2:
            shown = Msg(N_("%(result)s (double)"), result=shown)
        return Explained(band.value, (Cell("development", band.range.label(), None, shown),))

    def development_options(self, d1: int, d2: int) -> DevelopmentOptions:
        result = self.development(d1, d2)
        double = d1 == d2
        return DevelopmentOptions(
            result=result,
            is_double=double,
            stat=result if result in STATS else None,
            trait_normal=double,
            skill_any_other=double,
        )

    def stat_change_allowed(self, base: int, current: int, change: int) -> bool:
        """No stat more than ±stat_limit from the position's value (R29)."""
        return abs(current + change - base) <= self.settings.stat_limit

    def mutation(self, category: str, d4: int) -> str:
        _die("d4", d4, 4)
        try:
            return self.tables.mutations[category][d4 - 1]
        except KeyError:
            raise ValueError(f"{category!r} is not a mutation category") from None

    def mutation_categories(self) -> tuple[str, ...]:
        return tuple(self.tables.mutations)

    def tzeentch_mutation(self, d1: int, d2: int) -> str:
        """The Tzeentch 2D6 table; 'choice' on 12 means pick any of the others."""
        _die("d1", d1, 6)
        _die("d2", d2, 6)
        return self.tables.tzeentch_mutations.lookup(d1 + d2).value

    def may_always_mutate(self, position: str) -> bool:
        return position in self.tables.mutation_positions

    def receives_mvp(self, mvps_received: int) -> bool:
        return mvps_received < self.settings.mvp_limit

    def mvp_candidates(self, earned_spp: Sequence[Any], played: Sequence[Any]) -> list[Any]:
        """Those who earned SPP in the match, else those who played (R27)."""
        return list(earned_spp) if earned_spp else list(played)
