"""Filing a match report: what a coach sends, everything impossible about it, and the report saved."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.accounts import display_name, is_board
from league.lib.refusals import Refusal
from league.lib.writes import league_write
from league.models import Notification
from league.notices.services import notify
from league.rules.records import REPORTED_COUNTERS
from matches.models import ApothecaryUse, Match, PlayerMatch, PreMatch, SquadEntry
from matches.notices import action_key, acts_as_coach, coaches, words
from matches.prematch.base import team_side
from matches.results import result_problems
from teams.models import Player


class ReportError(Refusal):
    pass


@dataclass
class LineInput:
    player_id: int
    completions: int = 0
    touchdowns: int = 0
    interceptions: int = 0
    casualties: int = 0
    foul_casualties: int = 0
    crowd_casualties: int = 0
    injury: str = ""
    injured_by_id: int | None = None
    sent_off: bool = False

    @property
    def empty(self) -> bool:
        return not (any(getattr(self, c) for c in REPORTED_COUNTERS) or self.injury or self.sent_off)


@dataclass
class ApothecaryInput:
    player_id: int
    action: str
    ap: int
    roll: int | None = None


@dataclass
class ReportInput:
    home_score: int
    away_score: int
    tiebreak_winner_id: int | None = None
    lines: list[LineInput] = field(default_factory=list)
    apothecary: list[ApothecaryInput] = field(default_factory=list)
    comment: str = ""


def squad_ids(match: Match) -> set[int] | None:
    """The players who took the field, when the pre-match squads were picked; else None."""

    picked = list(
        SquadEntry.objects.filter(match=match, status=SquadEntry.Status.PLAYING).values_list("player_id", flat=True)
    )
    return set(picked) if picked else None


def report_problems(match: Match, report: ReportInput) -> list[str]:
    """Everything impossible about a report, each with a message; an empty list means it can be filed."""
    problems = result_problems(
        match,
        home_score=report.home_score,
        away_score=report.away_score,
        tiebreak_winner_id=report.tiebreak_winner_id,
    )
    players = Player.objects.in_bulk(
        {line.player_id for line in report.lines}
        | {u.player_id for u in report.apothecary}
        | {line.injured_by_id for line in report.lines if line.injured_by_id}
    )
    squad = squad_ids(match)
    seen: set[int] = set()
    touchdowns = {match.home_id: 0, match.away_id: 0}
    for line in report.lines:
        player = players.get(line.player_id)
        if player is None or player.team_id not in (match.home_id, match.away_id):
            problems.append(_("A player of another team is in the report."))
            continue
        if line.player_id in seen:
            problems.append(_("%(player)s is in the report twice.") % {"player": player})
        seen.add(line.player_id)
        if squad is not None and line.player_id not in squad:
            problems.append(_("%(player)s was not in the match squad.") % {"player": player})
        elif squad is None and not player.on_roster:
            problems.append(_("%(player)s is not on the roster.") % {"player": player})
        if any(getattr(line, c) < 0 for c in REPORTED_COUNTERS):
            problems.append(_("%(player)s: counts cannot be negative.") % {"player": player})
        touchdowns[player.team_id] += line.touchdowns
        if line.injury not in PlayerMatch.Injury.values:
            problems.append(_("%(player)s: unknown injury.") % {"player": player})
        if line.injured_by_id:
            by = players.get(line.injured_by_id)
            if by is None or by.team_id == player.team_id or by.team_id not in (match.home_id, match.away_id):
                problems.append(_("%(player)s: the injury must be caused by an opponent.") % {"player": player})
    for team_id, scored in ((match.home_id, report.home_score), (match.away_id, report.away_score)):
        if touchdowns[team_id] > scored:
            problems.append(
                ngettext(
                    "%(n)s touchdown is credited to %(team)s players, but the team scored %(score)s.",
                    "%(n)s touchdowns are credited to %(team)s players, but the team scored %(score)s.",
                    touchdowns[team_id],
                )
                % {"n": touchdowns[team_id], "team": _team_name(match, team_id), "score": scored}
            )
    problems += apothecary_problems(match, report, players)
    return problems


def apothecary_problems(match: Match, report: ReportInput, players: dict[int, Player]) -> list[str]:
    r = match.season.ruleset.rules
    problems: list[str] = []
    prematch = PreMatch.objects.filter(match=match).first()
    spent: dict[int, int] = {  # AP spent on the niggling checks count against the same 3 (R26, R36)
        team_id: (getattr(prematch, f"{team_side(match, team_id)}_niggling_ap") if prematch else 0)
        for team_id in (match.home_id, match.away_id)
    }
    seen: set[tuple[int, str]] = set()
    teams = {match.home_id: match.home, match.away_id: match.away}
    for use in report.apothecary:
        player = players.get(use.player_id)
        if player is None or player.team_id not in teams:
            problems.append(_("The apothecary can only treat a player of the match."))
            continue
        team = teams[player.team_id]
        if not team.apothecary:
            problems.append(_("%(team)s has no apothecary.") % {"team": team.name})
            continue
        try:
            cost = r.apothecary_cost(use.action)
        except ValueError:
            problems.append(_("Unknown apothecary action."))
            continue
        injury = next((line.injury for line in report.lines if line.player_id == use.player_id), "")
        Action, Injury = ApothecaryUse.Action, PlayerMatch.Injury
        needs = {
            Action.HEAL_DEAD: Injury.DEAD,
            Action.REVIVE: Injury.DEAD,
            Action.HEAL_SERIOUS: Injury.SERIOUS,
            Action.HEAL_BADLY_HURT: Injury.BADLY_HURT,
        }.get(use.action)
        if use.action == Action.NIGGLING:
            problems.append(_("Niggling checks are made before the match, in the pre-match sequence (R36)."))
        elif needs != injury:
            problems.append(
                _("%(action)s: %(player)s is not reported %(injury)s.")
                % {
                    "action": ApothecaryUse.Action(use.action).label,
                    "player": player,
                    "injury": PlayerMatch.Injury(needs).label.lower(),
                }
            )
        if use.ap != cost:
            problems.append(
                _("%(action)s costs %(cost)s AP, not %(ap)s (R26).")
                % {"action": ApothecaryUse.Action(use.action).label, "cost": cost, "ap": use.ap}
            )
        if (use.player_id, use.action) in seen:
            problems.append(_("The apothecary is used twice on %(player)s for the same thing.") % {"player": player})
        seen.add((use.player_id, use.action))
        if use.action != "niggling_check" and (use.roll is None or not 1 <= use.roll <= 6):
            problems.append(_("The apothecary's 2+ roll (a D6) is missing for %(player)s.") % {"player": player})
        spent[team.pk] = spent.get(team.pk, 0) + use.ap
    for team_id, ap in spent.items():
        if ap > r.settings.apothecary_ap:
            problems.append(
                _("%(team)s's apothecary spends %(ap)s AP of %(max)s (R26).")
                % {"team": teams[team_id].name, "ap": ap, "max": r.settings.apothecary_ap}
            )
    return problems


def _team_name(match: Match, team_id: int) -> str:
    return (match.home if match.home_id == team_id else match.away).name


def _lock(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("season__ruleset", "home", "away", "cup")
        .get(pk=match.pk)
    )


@league_write
def file_report(match: Match, report: ReportInput, *, by: Any, tell: bool = True) -> Match:
    """File (or re-file) the report. Nothing is saved if anything in it is impossible. `tell`: the coaches
    hear of it (the board's settlement tells them once, of the whole)."""
    match = _lock(match)
    if match.status == Match.Status.CONFIRMED:
        raise ReportError([_("The report is confirmed; the board must reopen it to change it.")])
    if match.status == Match.Status.VOID:
        raise ReportError([_("The match is void.")])
    if not (match.home_id and match.away_id):
        raise ReportError([_("Both teams must be known before the match is played.")])
    if match.status == Match.Status.REOPENED and not _may_refile(match, by):
        raise ReportError(  # R47: the report went back to the coach who filed it
            [_("The board reopened this report for %(name)s to correct and file again.") % {"name": filer_name(match)}]
        )
    prematch = PreMatch.objects.filter(match=match).first()
    if prematch is None or prematch.done < PreMatch.Step.MASTER_CHEF:
        # The squads, the gate and the ratings are what the post-match sequence works from.
        raise ReportError([_("Walk the pre-match sequence first: the report needs the squads and the gate.")])
    problems = report_problems(match, report)
    if problems:
        raise ReportError(problems)
    refiled = match.status in Match.FILED
    match.lines.all().delete()
    match.apothecary_uses.all().delete()
    players = Player.objects.in_bulk(
        {line.player_id for line in report.lines} | {u.player_id for u in report.apothecary}
    )
    caused = {match.home_id: 0, match.away_id: 0}
    for line in report.lines:
        if line.empty:
            continue
        team_id = players[line.player_id].team_id
        PlayerMatch.objects.create(
            match=match,
            player_id=line.player_id,
            team_id=team_id,
            **{c: getattr(line, c) for c in REPORTED_COUNTERS},
            injury=line.injury,
            injured_by_id=line.injured_by_id,
            sent_off=line.sent_off,
        )
        caused[team_id] += line.casualties + line.foul_casualties + line.crowd_casualties  # R38
    for use in report.apothecary:
        ApothecaryUse.objects.create(
            match=match,
            team_id=players[use.player_id].team_id,
            player_id=use.player_id,
            action=use.action,
            ap=use.ap,
            roll=use.roll,
        )
    match.home_score, match.away_score = report.home_score, report.away_score
    match.tiebreak_winner_id = report.tiebreak_winner_id
    match.home_casualties, match.away_casualties = caused[match.home_id], caused[match.away_id]
    match.comment = report.comment
    match.status = Match.Status.REPORTED
    match.filed_by = by
    match.filed_at = timezone.now()
    match.dispute_comment = ""
    match.reopened_at = None
    match.save()
    if tell:
        _tell_filed(match, by, refiled=refiled)
    return match


def _tell_filed(match: Match, by: Any, *, refiled: bool) -> None:
    confirm = action_key("confirm", match)
    if acts_as_coach(match, by):  # the opponent confirms or disputes it
        team = match.home if match.home.coach_id == by.pk else match.away
        params = words(match, team=team.name)
        notify(coaches(match, but=by), Notification.Kind.REPORT_FILED, match=match, params=params, action=confirm)
    else:  # the board filed or corrected it: either coach confirms
        params = words(match, ruling="correct" if refiled else "file")
        notify(coaches(match, but=by), Notification.Kind.BOARD_RULED, match=match, params=params, action=confirm)


def _may_refile(match: Match, by: Any) -> bool:
    """A reopened report is filed again by the coach who filed it, or by the board (R47)."""
    return by is None or is_board(by) or getattr(by, "pk", None) == match.filed_by_id


def filer_name(match: Match) -> str:
    return display_name(match.filed_by) if match.filed_by_id else _("the board")
