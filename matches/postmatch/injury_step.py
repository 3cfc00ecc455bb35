"""Step 2, injuries (R25, R26, R37, R9): the matches served, Regeneration, the serious injury table,
the apothecary's treatments and the after-match healer on the dead; the decisions come from
league.rules.injuries, the dice rolled ahead and whom the healer may attempt from `injury_facts`, the
tables a player rolls on from `injury_tables`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league import rules
from league.lib.writes import league_write
from league.messages import as_message
from league.rules.injuries import Fate, InjuredPlayer, healer_attempts, healer_may_treat, injury_fate
from league.rules.messages import N_, Joined, Msg
from matches import dice
from matches.models import ApothecaryUse, Match, PostMatch, SquadEntry
from matches.postmatch.base import PostMatchError, finish_step, lock_step
from matches.postmatch.injury_facts import injured_lines, injured_player
from matches.postmatch.injury_tables import bury, player_die, revive, serious_injury
from matches.postmatch.raising import raise_the_dead
from teams.ledger import post_entry
from teams.models import Player, Race, Team, TreasuryEntry

Entered = Mapping[str, Sequence[int]]
Uses = Mapping[tuple[int, str], ApothecaryUse]


@dataclass
class _Casualties:
    """What the injury rolls leave for the healer: the explanation lines so far, the dead it may
    attempt, and which injured players have Regeneration (R9)."""

    lines: list[str] = field(default_factory=list)
    dead: list[Player] = field(default_factory=list)
    regeneration: dict[int, bool] = field(default_factory=dict)


@league_write
def injuries(
    match: Match,
    team: Team,
    *,
    healer_targets: Sequence[int] = (),
    entered: Entered | None = None,
    raise_zombie: int | None = None,
    by: Any,
) -> PostMatch:
    """Regeneration, the serious injury table for the unhealed, the Bandage Crew (or the Apprentice /
    Familiar) on the dead, the revival table; fees from the treasury, this match's winnings included."""

    match, team, postmatch = lock_step(match, team, PostMatch.Step.INJURIES)
    r = postmatch.ruleset.rules
    entered = entered or {}
    lines = _matches_served(match, team)
    casualties = _injury_rolls(match, team, r, by, entered)
    lines += casualties.lines
    lines += _healer(match, team, casualties, healer_targets, r, by, entered)
    lines += raise_the_dead(match, team, r, raise_zombie)
    return finish_step(postmatch, PostMatch.Step.INJURIES, "injuries", lines or [_("No injuries.")])


def _matches_served(match: Match, team: Team) -> list[str]:
    """R37: a match to miss is served with every match the team plays."""
    played = set(SquadEntry.objects.filter(match=match, team=team).values_list("player_id", flat=True))
    served = Player.objects.on_roster().filter(team=team, miss_matches__gt=0).exclude(pk__in=played)
    lines = []
    for p in served:  # saved one by one: each change leaves a history record
        p.miss_matches -= 1
        p.save(update_fields=["miss_matches"])
        lines.append(_("%(player)s has served a match (%(left)s left).") % {"player": p, "left": p.miss_matches})
    return lines


def _injury_rolls(match: Match, team: Team, r: rules.Ruleset, by: Any, entered: Entered) -> _Casualties:
    """Each injured player in turn (R25, R26): Regeneration first, then what the apothecary did or the
    serious injury table; the dead are left for the healer."""
    uses = {(u.player_id, u.action): u for u in match.apothecary_uses.filter(team=team)}
    casualties = _Casualties()
    for line in injured_lines(match, team):
        player = Player.objects.select_related("position").get(pk=line.player_id)
        injured = injured_player(line, player, uses)
        casualties.regeneration[player.pk] = injured.regeneration
        if injured.regeneration:
            injured, said = _regeneration(match, player, injured, r, by, entered)
            casualties.lines.append(said)
            if injury_fate(r, injured) == Fate.REGENERATES:
                continue
        _fate(match, player, injured, uses, casualties, r, by, entered)
    return casualties


def _regeneration(
    match: Match, player: Player, injured: InjuredPlayer, r: rules.Ruleset, by: Any, entered: Entered
) -> tuple[InjuredPlayer, str]:
    """The Regeneration roll (R25): the player's facts with its die, and the line that reads it out."""
    d = player_die(match, "regeneration", player, by=by, entered=entered)
    injured = replace(injured, regeneration_roll=d.values[0])
    if injury_fate(r, injured) == Fate.REGENERATES:
        return injured, _("%(player)s regenerates: D6 %(roll)s (3+, R25).") % {"player": player, "roll": d.shown}
    return injured, _("%(player)s does not regenerate: D6 %(roll)s.") % {"player": player, "roll": d.shown}


def _fate(
    match: Match,
    player: Player,
    injured: InjuredPlayer,
    uses: Uses,
    casualties: _Casualties,
    r: rules.Ruleset,
    by: Any,
    entered: Entered,
) -> None:
    """What befalls a player who did not regenerate, as league.rules.injuries decides it: back next
    match, healed or saved by the apothecary, the serious injury table, revived, buried, or dead."""
    fate = injury_fate(r, injured)
    said = casualties.lines.append
    if fate == Fate.BADLY_HURT:
        said(_("%(player)s: badly hurt, back for the next match.") % {"player": player})
    elif fate == Fate.HEALED:
        said(
            _("%(player)s: the apothecary heals the serious injury (%(roll)s, R26).")
            % {"player": player, "roll": uses[(player.pk, ApothecaryUse.Action.HEAL_SERIOUS)].roll}
        )
    elif fate == Fate.ROLL_SERIOUS_INJURY:
        said(serious_injury(match, player, injured, casualties.dead, r, by, entered))
    elif fate == Fate.SAVED:
        said(
            _("%(player)s is saved by the apothecary (%(roll)s, R26).")
            % {"player": player, "roll": uses[(player.pk, ApothecaryUse.Action.HEAL_DEAD)].roll}
        )
    elif fate == Fate.REVIVED:
        said(Joined("", [f"{player}: ", revive(player, match, r, by, entered)]))
        player.save()
    elif fate == Fate.BURIED:
        said(_("%(player)s: the apothecary failed, and no one else may treat %(player)s.") % {"player": player})
        bury(player.pk)
    else:
        casualties.dead.append(player)


def _healer(
    match: Match,
    team: Team,
    casualties: _Casualties,
    healer_targets: Sequence[int],
    r: rules.Ruleset,
    by: Any,
    entered: Entered,
) -> list[str]:
    """The Bandage Crew (or the Apprentice / Familiar) on the dead the coach picked (R25, R9), a fee
    and a D6 an attempt; the dead it does not bring back are buried."""
    targets = [int(t) for t in healer_targets]
    dead_ids = {p.pk for p in casualties.dead}
    fee = _attempt_fee(team.race.healer, targets, dead_ids, r.settings)
    by_id = {p.pk: p for p in casualties.dead}
    lines = []
    for attempt, pk in enumerate(targets, start=1):
        if not healer_may_treat(team.race.healer, regeneration=casualties.regeneration[pk]):
            raise PostMatchError([_("The Apprentice cannot treat a player with Regeneration (R9).")])
        revived, said = _healer_attempt(match, team, by_id[pk], attempt, fee, r, by, entered)
        lines.append(said)
        if revived:
            dead_ids.discard(pk)
    for pk in dead_ids:
        bury(pk)
        lines.append(_("%(player)s is dead. ✝") % {"player": by_id[pk]})
    return lines


def _attempt_fee(healer: str, targets: list[int], dead_ids: set[int], settings: Any) -> int:
    """The fee of each attempt; refused unless each attempt is on another dead player the apothecary
    did not treat, and no more than the healer may make (R25)."""
    if len(set(targets)) != len(targets):
        raise PostMatchError([_("Each attempt must be on another player (R25).")])
    if not set(targets) <= dead_ids:
        raise PostMatchError([_("Only a dead player not treated by the apothecary can be attempted.")])
    limit, fee = healer_attempts(healer, settings)
    if len(targets) > limit:
        raise PostMatchError([ngettext("At most %(n)s attempt.", "At most %(n)s attempts.", limit) % {"n": limit}])
    return fee


def _healer_attempt(
    match: Match, team: Team, player: Player, attempt: int, fee: int, r: rules.Ruleset, by: Any, entered: Entered
) -> tuple[bool, str]:
    """One attempt: its fee from the treasury, its D6; a success rolls on the revival table. Whether the
    player came back, and the line that says so (the healer named by his choice's message id, so the
    ledger and the explanation read in each reader's language)."""
    healer = as_message(Race.Healer(team.race.healer).label)
    post_entry(
        team,
        -fee,
        kind=TreasuryEntry.Kind.FEE,
        description=Msg(N_("%(healer)s: %(player)s"), healer=healer, player=str(player)),
        by=by,
        cause=match,
        idempotency_key=f"healer:{match.pk}:{team.pk}:{attempt}",
    )
    key = f"healer:{team.pk}:{attempt}"
    d = dice.roll(match, key, step="injuries", entered=entered.get(key), by=by, player=player, team=team)
    ok, target = _healer_roll(team.race.healer, attempt, d.values[0], r)
    shown = {
        "healer": healer,
        "n": attempt,
        "player": player,
        "roll": d.shown,
        "target": target,
    }
    if not ok:
        return False, Msg(N_("%(healer)s, attempt %(n)s on %(player)s: D6 %(roll)s (%(target)s) fails."), **shown)
    said = Msg(
        N_("%(healer)s, attempt %(n)s on %(player)s: D6 %(roll)s (%(target)s) → %(result)s"),
        **shown,
        result=revive(player, match, r, by, entered),
    )
    player.save()
    return True, said


def _healer_roll(healer: str, attempt: int, roll: int, r: rules.Ruleset) -> tuple[bool, str]:
    """Whether the healer's D6 brings the player back on this attempt, and the target shown: the
    Bandage Crew's by attempt, the Apprentice's or Familiar's the same each time."""
    if healer == Race.Healer.BANDAGE_CREW:
        return r.bandage_crew_succeeds(attempt, roll), f"{r.bandage_crew_target(attempt)}+"
    return r.apprentice_outcome(roll) == "revived", f"{r.settings.apprentice_target}+"
