"""The board's corrections of a team or a player after the fact, each a record with its reason."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from league import rules
from league.lib.writes import league_write
from league.rules.messages import N_, Msg
from league.rules.records import RECORD_COUNTERS
from teams.ledger import lock_team, post_entry
from teams.models import Player, PlayerSkill, Skill, Stadium, StatChange, Team, TreasuryEntry
from teams.rosters import TeamRuleError, check_roster, current_plan

# --- the board's corrections ---------------------------------------------------------------------
# A mistake found after the fact is corrected by a new record, never by overwriting: gold by a ledger
# line (Kind.CORRECTION), counters by load-change-save so django-simple-history keeps the old value,
# who changed it and why.

TEAM_CORRECTABLE = ("fan_factor", "rerolls", "assistant_coaches", "cheerleaders", "mvps_received", "trophy_rerolls")
PLAYER_CORRECTABLE = (*RECORD_COUNTERS, "niggling", "miss_matches")


def _with_reason(obj: Model, reason: str, by: Any) -> None:
    """What the history row of the next save records beside the new values."""
    obj._change_reason = reason[:100]
    if getattr(by, "is_authenticated", False):
        obj._history_user = by


def _apply_deltas(
    obj: Model, fields: Sequence[str], changes: Mapping[str, int], labels: Mapping[str, str]
) -> list[str]:
    unknown = set(changes) - set(fields)
    if unknown:
        raise TeamRuleError([_("%(field)s cannot be corrected here.") % {"field": ", ".join(sorted(unknown))}])
    problems, changed = [], []
    for name, delta in changes.items():
        if not delta:
            continue
        new = getattr(obj, name) + delta
        if new < 0:
            problems.append(
                _("%(what)s would be %(new)s: it cannot be negative.") % {"what": labels.get(name, name), "new": new}
            )
        setattr(obj, name, new)
        changed.append(name)
    if problems:
        raise TeamRuleError(problems)
    return changed


@league_write
def correct_team(
    team: Team,
    *,
    reason: str,
    by: Any,
    treasury: int = 0,
    capacity: int = 0,
    changes: Mapping[str, int] | None = None,
) -> Team:
    """The board corrects a team: gold as a ledger line, counters and seats with their history.
    Refused whole, nothing saved, on any problem."""
    reason = (reason or "").strip()
    if not reason:
        raise TeamRuleError([_("Say why the board corrects it.")])
    team = lock_team(team)
    labels = {f: str(Team._meta.get_field(f).verbose_name) for f in TEAM_CORRECTABLE}
    changed = _apply_deltas(team, TEAM_CORRECTABLE, changes or {}, labels)
    if not (treasury or capacity or changed):
        raise TeamRuleError([_("Nothing to correct.")])
    if capacity:
        stadium = Stadium.objects.select_for_update().get(team=team)
        if stadium.capacity + capacity < 0:
            raise TeamRuleError([_("The stadium cannot have fewer than 0 seats.")])
        stadium.capacity += capacity
        _with_reason(stadium, _("Correction: %(reason)s") % {"reason": reason}, by)
        stadium.save(update_fields=["capacity"])
    if changed:
        check_roster(team, current_plan(team))  # the limits still hold (R5)
        _with_reason(team, _("Correction: %(reason)s") % {"reason": reason}, by)
        team.save(update_fields=changed)
    if treasury:
        post_entry(
            team,
            treasury,
            kind=TreasuryEntry.Kind.CORRECTION,
            description=Msg(N_("Correction: %(reason)s"), reason=reason),
            by=by,
        )
    return team


@league_write
def correct_player(
    player: Player,
    *,
    reason: str,
    by: Any,
    changes: Mapping[str, int] | None = None,
    stats: Mapping[str, int] | None = None,
    add_skills: Sequence[str] = (),
    remove_skills: Sequence[str] = (),
    status: str | None = None,
) -> Player:
    """The board corrects a player's SPP counters, injuries, stats, skills or status; the player's
    history records each change and the reason. Refused whole, nothing saved, on any problem."""
    reason = (reason or "").strip()
    if not reason:
        raise TeamRuleError([_("Say why the board corrects it.")])
    team = lock_team(player.team_id)
    player = Player.objects.select_for_update().select_related("position").get(pk=player.pk)
    r = team.ruleset.rules
    note = (_("Correction: %(reason)s") % {"reason": reason})[:200]
    labels = {f: str(Player._meta.get_field(f).verbose_name) for f in PLAYER_CORRECTABLE}
    changed = _apply_deltas(player, PLAYER_CORRECTABLE, changes or {}, labels)
    problems: list[str] = []
    stat_rows = []
    for stat, delta in (stats or {}).items():
        if not delta:
            continue
        if stat not in rules.STATS:
            problems.append(_("Unknown stat: %(stat)s.") % {"stat": stat})
            continue
        field = f"{stat.lower()}_change"
        base = getattr(player.position, stat.lower())
        current = base + getattr(player, field)
        if not r.stat_change_allowed(base, current, delta) or current + delta < 1:
            problems.append(
                _("%(stat)s may change by at most ±%(limit)s (R29).") % {"stat": stat, "limit": r.settings.stat_limit}
            )
            continue
        setattr(player, field, getattr(player, field) + delta)
        changed.append(field)
        stat_rows.append(
            StatChange(player=player, stat=stat, change=delta, reason=StatChange.Reason.CORRECTION, note=note)
        )
    catalogue = {s.name.lower(): s for s in Skill.objects.all()}
    owned = set(player.gained_skills.values_list("skill__name", flat=True)) | {
        s.name for s in player.position.skills.all()
    }
    for name in add_skills:
        skill = catalogue.get(name.strip().lower())
        if skill is None:
            problems.append(_("Unknown skill: %(skill)s.") % {"skill": name})
        elif skill.name in owned:
            problems.append(_("The player already has %(skill)s.") % {"skill": skill.name})
    gained = set(player.gained_skills.values_list("skill__name", flat=True))
    for name in remove_skills:
        if name not in gained:
            problems.append(_("%(skill)s is not a skill the player gained.") % {"skill": name})
    if status is not None and status != player.status:
        if status not in Player.Status.values:
            problems.append(_("Unknown status."))
        elif status == Player.Status.ACTIVE:
            if team.players.on_roster().filter(number=player.number).exists():
                problems.append(_("Number %(n)s is already taken.") % {"n": player.number})
            player.left_at = None
        else:
            player.left_at = timezone.now()
        player.status = status
        changed += ["status", "left_at"]
    if problems:
        raise TeamRuleError(problems)
    if not (changed or add_skills or remove_skills):
        raise TeamRuleError([_("Nothing to correct.")])
    skill_notes = [f"+{catalogue[n.strip().lower()].name}" for n in add_skills] + [f"-{n}" for n in remove_skills]
    _with_reason(player, " ".join([note, *skill_notes]), by)
    player.save()  # always: the player's history shows the correction, skills included
    StatChange.objects.bulk_create(stat_rows)
    for name in add_skills:
        PlayerSkill.objects.create(
            player=player, skill=catalogue[name.strip().lower()], origin=PlayerSkill.Origin.CORRECTION, roll=note[:40]
        )
    player.gained_skills.filter(skill__name__in=list(remove_skills)).delete()
    return player
