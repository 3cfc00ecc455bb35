"""Step 5, SPP and development (R4, R28, R29): the rolls, the choices and what they change."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from league import rules
from league.lib.writes import league_write
from league.rules.messages import N_, Msg
from matches import dice
from matches.models import (
    DevelopmentRoll,
    Match,
    PostMatch,
)
from matches.postmatch.base import PostMatchError, finish_step, lock_step
from matches.postmatch.mvp import earned_this_match
from teams.models import Player, PlayerSkill, Skill, StatChange, Team

# --- 5. SPP and development (R4, R28, R29) -----------------------------------------------------------


Earned = Mapping[int, tuple[Player, int]]  # earned_this_match's answer: player id → the player, his SPP


def spp_this_match(match: Match, team: Team, earned: Earned | None = None) -> list[Msg]:
    """Each player's SPP from this match (his line and MVP, R28; an Inspiration MVP, R23) and his total
    after it, by number: shown before the development rolls and kept when the step is done, so the
    total stays the one after this match. The next match waits for this sequence (R24), so
    the player's total now is his total after this match."""
    earned = earned if earned is not None else earned_this_match(match, team, match.season.ruleset.rules)
    return [
        Msg(
            N_("#%(number)s %(player)s: %(earned)s SPP this match, %(total)s SPP in all"),
            number=str(player.number),
            player=player.name,
            earned=spp,
            total=player.spp,
        )
        for player, spp in sorted(earned.values(), key=lambda pair: pair[0].number)
        if spp
    ]


def pending_development(match: Match, team: Team, earned: Earned | None = None) -> list[tuple[Player, int]]:
    """The development rolls the team's players have earned in this match and not rolled yet; `earned`
    when the caller has read it already (the page shows the SPP too)."""
    r = match.season.ruleset.rules
    rolled = set(DevelopmentRoll.objects.filter(match=match, player__team=team).values_list("player_id", "index"))
    pending = []
    earned = earned if earned is not None else earned_this_match(match, team, r)
    for player, spp in earned.values():
        after = player.spp
        for i in range(1, r.level_ups(after - spp, after) + 1):
            if (player.pk, i) not in rolled:
                pending.append((player, i))
    return pending


@league_write
def roll_development(
    match: Match, team: Team, *, by: Any = None, entered: Mapping[str, Sequence[int]] | None = None
) -> list[DevelopmentRoll]:
    """Roll the development dice, only when the development step is the next one."""
    match, team, _postmatch = lock_step(match, team, PostMatch.Step.DEVELOPMENT)
    return development_rolls(match, team, by=by, entered=entered)


@league_write
def development_rolls(
    match: Match,
    team: Team,
    *,
    by: Any = None,
    entered: Mapping[str, Sequence[int]] | None = None,
    earned: Earned | None = None,
) -> list[DevelopmentRoll]:
    """Roll (once) the development dice the team's players earned in this match; `earned` when the
    caller has read it already."""
    r = match.season.ruleset.rules
    entered = entered or {}
    rolls = []
    existing_rolls = {
        (d.player_id, d.index): d
        for d in DevelopmentRoll.objects.filter(match=match, player__team=team)
        .select_related("player__position", "dice")
        .prefetch_related("player__position__skills")
    }
    earned = earned if earned is not None else earned_this_match(match, team, r)
    for player, spp in earned.values():
        after = player.spp
        before = after - spp
        for i in range(1, r.level_ups(before, after) + 1):
            existing = existing_rolls.get((player.pk, i))
            if existing and existing.before_match:
                continue  # an Inspiration MVP's roll, made and chosen in the pre-match sequence (R23)
            if existing:
                rolls.append(existing)
                continue
            rolls.append(roll_one_development(match, team, player, i, r, entered=entered, by=by))
    return rolls


def roll_one_development(
    match: Match,
    team: Team,
    player: Player,
    index: int,
    r: rules.Ruleset,
    *,
    entered: Mapping[str, Sequence[int]],
    by: Any,
    before_match: bool = False,
) -> DevelopmentRoll:
    """The player's index-th development roll of the match (R29): the 2D6, recorded once."""
    d = dice.roll(
        match,
        f"development:{player.pk}:{index}",
        step="development",
        count=2,
        entered=entered.get(f"development:{player.pk}:{index}"),
        by=by,
        player=player,
        team=team,
    )
    options = r.development_options(*d.values)
    return DevelopmentRoll.objects.create(
        match=match,
        player=player,
        index=index,
        dice=d,
        result=options.result,
        is_double=options.is_double,
        before_match=before_match,
    )


def skill_specs() -> list[rules.SkillSpec]:
    return [rules.SkillSpec(s.name, s.letter, s.kind) for s in Skill.objects.all()]


def _gained_names(player: Player) -> set[str]:
    """The skills the player has gained, from the prefetch when the caller made one."""
    if "gained_skills" in getattr(player, "_prefetched_objects_cache", {}):
        return {gained.skill.name for gained in player.gained_skills.all()}
    return set(player.gained_skills.values_list("skill__name", flat=True))


def choices_for(
    roll: DevelopmentRoll, r: rules.Ruleset, *, taken: Sequence[str] = (), skills: list[rules.SkillSpec] | None = None
) -> list[str]:
    """The choices this roll allows the player now (R29); `skills` saves reading the catalogue again."""
    player = roll.player
    position = player.position
    owned = {s.name for s in position.skills.all()} | _gained_names(player) | set(taken)
    skills = skills if skills is not None else skill_specs()
    stat_allowed = {
        s: r.stat_change_allowed(getattr(position, s.lower()), getattr(player, s.lower()), 1)
        for s in ("MA", "AG", "ST")
    }
    return rules.development_choices(
        result=roll.result,
        is_double=roll.is_double,
        normal=position.normal_access,
        double=position.double_access,
        skills=skills,
        owned=owned,
        stat_allowed=stat_allowed,
        mutation_categories=r.mutation_categories(),
        always_mutates=r.may_always_mutate(position.name),
    )


def _mutation(
    match: Match,
    player: Player,
    index: int,
    category: str,
    r: rules.Ruleset,
    owned: set[str],
    entered: Mapping[str, Sequence[int]],
    by: Any,
) -> tuple[str, str]:
    """Roll a mutation: the Tzeentch 2D6 table for those who always mutate, else the category's D4.
    A mutation the player has is re-rolled once, and the last roll stands (R29)."""
    tzeentch = r.may_always_mutate(player.position.name)

    def throw(suffix: str) -> tuple[Any, str]:
        key = f"mutation:{player.pk}:{index}{suffix}"
        d = dice.roll(
            match,
            key,
            step="development",
            sides=6 if tzeentch else 4,
            count=2 if tzeentch else 1,
            entered=entered.get(key),
            by=by,
            player=player,
        )
        return d, r.tzeentch_mutation(*d.values) if tzeentch else r.mutation(category, d.values[0])

    d, name = throw("")
    thrown = f"Tzeentch 2D6 {d.shown}" if tzeentch else f"{category} D4 {d.shown}"
    if name in owned:
        d, name = throw(":reroll")
        thrown += f", re-rolled {d.shown}"
    return name, thrown


@league_write
def develop(
    match: Match, team: Team, *, choices: Mapping[int, str], entered: Mapping[str, Sequence[int]] | None = None, by: Any
) -> PostMatch:
    """Apply the coach's choice for every development roll at once (R29)."""
    match, team, postmatch = lock_step(match, team, PostMatch.Step.DEVELOPMENT)
    r = postmatch.ruleset.rules
    earned = earned_this_match(match, team, match.season.ruleset.rules)  # read once for the rolls and the list
    rolls = development_rolls(match, team, by=by, earned=earned)
    lines = apply_development(match, rolls, r, choices=choices, entered=entered or {}, by=by)
    postmatch.explanations = {**postmatch.explanations, "spp": spp_this_match(match, team, earned)}
    return finish_step(
        postmatch, PostMatch.Step.DEVELOPMENT, "development", lines or [_("No player reached a new level.")]
    )


def apply_development(
    match: Match,
    rolls: Sequence[DevelopmentRoll],
    r: rules.Ruleset,
    *,
    choices: Mapping[int, str],
    entered: Mapping[str, Sequence[int]],
    by: Any,
) -> list[str]:
    """The coach's choice for each roll, checked against R29 and applied; the team row is locked.
    The post-match development step and the Inspiration MVP's roll before the match (R23) share it."""
    missing = [roll for roll in rolls if not choices.get(roll.pk)]
    if missing:
        raise PostMatchError([_("Choose for every development roll.")])
    lines = []
    taken: dict[int, list[str]] = {}
    stat_changes: list[StatChange] = []
    gained: list[PlayerSkill] = []
    chosen: list[DevelopmentRoll] = []
    catalogue = {s.name: s for s in Skill.objects.all()}
    specs = [rules.SkillSpec(s.name, s.letter, s.kind) for s in catalogue.values()]
    # One object per player, read at once, so a second roll sees the first one's change (two +1 MA,
    # the ±2 limit) and the step's reads do not grow with the number of players.
    fresh: dict[int, Player] = (
        Player.objects.select_related("position")
        .prefetch_related("position__skills", "gained_skills__skill")
        .in_bulk({roll.player_id for roll in rolls})
    )
    for roll in rolls:
        roll.player = fresh[roll.player_id]
        choice = choices[roll.pk]
        allowed = choices_for(roll, r, taken=taken.get(roll.player_id, []), skills=specs)
        if choice not in allowed:
            raise PostMatchError(
                [
                    _("%(player)s cannot take %(choice)s with %(dice)s (R29).")
                    % {"player": roll.player, "choice": choice, "dice": roll.dice.shown}
                ]
            )
        player = roll.player  # the team row is locked for the whole step
        owned = {sk.name for sk in player.position.skills.all()} | _gained_names(player) | set(taken.get(player.pk, []))
        if choice.startswith(rules.STAT_CHOICE):
            stat = choice.removeprefix(rules.STAT_CHOICE)
            field = f"{stat.lower()}_change"
            setattr(player, field, getattr(player, field) + 1)
            player.save(update_fields=[field])
            stat_changes.append(
                StatChange(
                    player=player,
                    stat=stat,
                    change=1,
                    reason=StatChange.Reason.DEVELOPMENT,
                    note=f"2D6 {roll.dice.shown}",
                    match_id=match.pk,
                )
            )
            applied = f"+1 {stat}"
        else:
            name, how = choice, f"2D6 {roll.dice.shown}"
            if choice.startswith(rules.MUTATION_CHOICE):
                category = choice.removeprefix(rules.MUTATION_CHOICE)
                name, thrown = _mutation(match, player, roll.index, category, r, owned, entered, by)
                how += f", {thrown}"
                if name == "choice":  # Tzeentch 12: the coach picks on the player page, as at creation
                    player.mutation_choice_pending = True
                    player.save(update_fields=["mutation_choice_pending"])
                    roll.choice = _("Tzeentch 12: chosen on the player page")
                    roll.save(update_fields=["choice"])
                    lines.append(f"{player}: {how} → {roll.choice}")
                    continue
                if name in owned:
                    raise PostMatchError(
                        [
                            _("%(player)s already has %(skill)s: choose another mutation.")
                            % {"player": player, "skill": name}
                        ]
                    )
            gained.append(
                PlayerSkill(
                    player=player,
                    skill=catalogue[name],
                    origin=PlayerSkill.Origin.MUTATION
                    if choice.startswith(rules.MUTATION_CHOICE)
                    else PlayerSkill.Origin.DEVELOPMENT,
                    roll=how,
                    match_id=match.pk,
                )
            )
            applied = name
        taken.setdefault(player.pk, []).append(applied)
        roll.choice = applied
        chosen.append(roll)
        lines.append(
            _("%(player)s: 2D6 %(dice)s (%(result)s%(double)s) → %(choice)s")
            % {
                "player": player,
                "dice": roll.dice.shown,
                "result": roll.result,
                "double": _(", double") if roll.is_double else "",
                "choice": applied,
            }
        )
    # the rows of every choice written at once: the step's queries do not grow with its rolls
    StatChange.objects.bulk_create(stat_changes)
    PlayerSkill.objects.bulk_create(gained)
    DevelopmentRoll.objects.bulk_update(chosen, ["choice"])
    return lines
