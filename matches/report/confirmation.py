"""A filed report confirmed and counted once, disputed, reopened or voided by the board: what
confirmation counted on the players' records and the kept statistics is taken back exactly."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from league.accounts import BOARD, holders, is_board
from league.lib.writes import league_write
from league.models import Notification
from league.notices.services import notify
from league.rules.records import RECORD_COUNTERS, record_counts, record_spp
from matches import stats
from matches.chat import announce_result, announce_void
from matches.cup import advance_cup, next_cup_match, undo_cup_advance
from matches.models import Match, PlayerMatch, PostMatch
from matches.notices import action_key, acts_as_coach, coaches, words
from matches.postmatch.base import begun
from matches.report.filing import ReportError, ReportInput, _lock, file_report, filer_name
from teams.ledger import lock_team
from teams.models import Player


def _refuse_unless_other_coach(match: Match, by: Any, refusal: str) -> None:
    """Only the coach who did not file the report, or the board, confirms or disputes it; `by=None` is
    the league's own scripts (the demo, the benchmark)."""

    if by is None or is_board(by):
        return
    coaches = {getattr(match.home, "coach_id", None), getattr(match.away, "coach_id", None)}
    if by.pk not in coaches or by.pk == match.filed_by_id:
        raise ReportError([refusal])


@league_write
def confirm_report(match: Match, *, by: Any, tell: bool = True) -> Match:
    """Confirm and count the report: applied exactly once (a second confirmation does nothing)."""
    match = _lock(match)
    if match.status == Match.Status.CONFIRMED:
        return match
    _refuse_unless_other_coach(match, by, _("The other coach confirms the report."))
    if match.status == Match.Status.DISPUTED and not (by is None or is_board(by)):
        raise ReportError([_("The report is disputed: the board settles it (R45).")])
    if match.status == Match.Status.REOPENED and not (by is None or is_board(by)):
        raise ReportError(  # R47: the opponent's confirmation waits for the report filed again
            [
                _("The board reopened the report: %(name)s corrects it and files it again first.")
                % {"name": filer_name(match)}
            ]
        )
    if match.status not in Match.FILED:
        raise ReportError([_("There is no report to confirm.")])
    match.status = Match.Status.CONFIRMED
    match.confirmed_at = timezone.now()
    match.confirmed_by = by
    match.reopened_at = None
    _apply(match, sign=1)  # with the confirmation time, which the report's lines keep (matches.stats)
    match.save()
    advance_cup(match)
    for team_id in (match.home_id, match.away_id):  # each coach's post-match sequence can begin
        PostMatch.objects.get_or_create(match=match, team_id=team_id, defaults={"ruleset": match.season.ruleset})
    if tell:
        _tell_confirmed(match, by)
    announce_result(match)
    return match


def _tell_confirmed(match: Match, by: Any) -> None:
    """The filer hears that his report counts; when the board confirmed it, the other coach hears so too."""
    filer = [match.filed_by] if match.filed_by_id and match.filed_by_id != getattr(by, "pk", None) else []
    notify(filer, Notification.Kind.REPORT_CONFIRMED, match=match, params=words(match))
    if by is not None and not acts_as_coach(match, by):
        others = [c for c in coaches(match, but=by) if c.pk != match.filed_by_id]
        notify(others, Notification.Kind.BOARD_RULED, match=match, params=words(match, ruling="confirm"))


@league_write
def dispute_report(match: Match, *, by: Any, comment: str) -> Match:
    match = _lock(match)
    if match.status != Match.Status.REPORTED:
        raise ReportError([_("Only a report awaiting confirmation can be disputed.")])
    _refuse_unless_other_coach(match, by, _("The other coach disputes the report."))
    if not comment.strip():
        raise ReportError([_("Say what is wrong with the report.")])
    match.status = Match.Status.DISPUTED
    match.dispute_comment = comment.strip()
    match.save()
    filer = [match.filed_by] if match.filed_by_id and match.filed_by_id != getattr(by, "pk", None) else []
    comment_words = words(match, comment=match.dispute_comment[:300])
    notify(filer, Notification.Kind.REPORT_DISPUTED, match=match, params=comment_words)
    # R45: the board settles it, and hears of it at once
    board = [u for u in holders(BOARD) if u.pk != getattr(by, "pk", None)]
    settle = action_key("dispute", match)
    notify(board, Notification.Kind.DISPUTE_TO_SETTLE, match=match, params=comment_words, action=settle)
    return match


@league_write
def settle_report(match: Match, report: ReportInput, *, by: Any) -> Match:
    """The board's correction of a disputed report, or of a reopened one its coach did not file again
    (R45, R47): filed as the board has it and counted at once, the board's word being the last."""
    if not is_board(by):
        raise ReportError([_("Only the board settles a report.")])
    file_report(match, report, by=by, tell=False)
    settled = confirm_report(match, by=by, tell=False)
    # one notice each, the outcome and what it opens: the coach's post-match sequence
    for team in (settled.home, settled.away):
        notify(
            [team.coach],
            Notification.Kind.BOARD_RULED,
            match=settled,
            url=reverse("match_postmatch", args=[settled.pk, team.pk]),
            params=words(settled, ruling="settle"),
            action=action_key("postmatch", settled, team),
        )
    return settled


def settles(match: Match, by: Any) -> bool:
    """Whether the board's filing of this report settles it (counted at once) rather than files it."""
    return match.status in (Match.Status.DISPUTED, Match.Status.REOPENED) and is_board(by)


@league_write
def reopen_report(match: Match, *, by: Any) -> Match:
    """The board reopens a confirmed report: what it counted is taken back, the report stays filed."""
    match = _lock(match)
    if match.status != Match.Status.CONFIRMED:
        raise ReportError([_("Only a confirmed report can be reopened.")])
    if match.forfeited_by_id:
        raise ReportError([_("A forfeit has no report to reopen: void it instead (R35).")])
    _refuse_unless_taken_back(match)
    _apply(match, sign=-1)
    undo_cup_advance(match)
    _drop_unbegun_post_match(match)
    match.status = Match.Status.REOPENED  # R47: back with the coach who filed it
    match.reopened_at = timezone.now()
    match.confirmed_at = None
    match.confirmed_by = None
    match.save()
    filer = [c for c in coaches(match, but=by) if c.pk == match.filed_by_id]
    others = [c for c in coaches(match, but=by) if c.pk != match.filed_by_id]
    notify(
        filer,
        Notification.Kind.BOARD_RULED,
        match=match,
        params=words(match, ruling="reopen"),
        action=action_key("refile", match),
    )
    params = words(match, ruling="reopen_waits", name=filer_name(match))
    notify(others, Notification.Kind.BOARD_RULED, match=match, params=params)
    return match


@league_write
def void_match(match: Match, *, by: Any) -> Match:
    """The board voids a match: nothing of it counts. A bye is none to void: the cup's draw gave it, and
    its team stays in the next round whatever its status says."""
    match = _lock(match)
    if match.status == Match.Status.VOID:
        return match
    if match.status == Match.Status.BYE:
        raise ReportError([_("A bye is no match to void: the cup's draw gave it.")])
    if match.status == Match.Status.CONFIRMED:
        _refuse_unless_taken_back(match)
        _apply(match, sign=-1)
        undo_cup_advance(match)
        _drop_unbegun_post_match(match)
        _undo_forfeit(match)
    had_result = match.status == Match.Status.CONFIRMED
    match.status = Match.Status.VOID
    match.save()
    if had_result:
        announce_void(match)
    notify(coaches(match, but=by), Notification.Kind.BOARD_RULED, match=match, params=words(match, ruling="void"))
    return match


def _apply(match: Match, *, sign: int) -> None:
    """Add (or take back) the report's deeds on the players' records (R28): each player locked, changed
    and saved, so his history records it."""
    stats.count_match(match, sign=sign)  # the kept tables and counters, in this transaction
    lines = list(match.lines.all())
    players = Player.objects.select_for_update().order_by("pk").in_bulk([line.player_id for line in lines])
    for line in lines:
        player = players[line.player_id]
        for name, count in record_counts(line).items():
            setattr(player, name, getattr(player, name) + sign * count)
        player.save(update_fields=list(RECORD_COUNTERS))


def take_back_problems(match: Match) -> list[str]:
    """Why a confirmed match's report can no longer be reopened or voided: winnings paid, injuries rolled
    and skills taken stand (the board corrects them as records), and a cup round played on from it."""
    problems = []
    if any(begun(match, row) for row in PostMatch.objects.filter(match=match, done__gt=0)):
        problems.append(
            _(
                "The post-match sequence has begun: the report can no longer be reopened or voided. "
                "The board corrects what is wrong in the admin: a treasury correction on the team "
                "(a ledger line) or a player correction (SPP, injuries, skills), each with its reason."
            )
        )
    following = next_cup_match(match)
    if following is not None and following.status not in (Match.Status.SCHEDULED, Match.Status.VOID):
        problems.append(_("The next cup round is already played: reopen that match first."))
    return problems


def _refuse_unless_taken_back(match: Match) -> None:
    problems = take_back_problems(match)
    if problems:
        raise ReportError(problems)


def _undo_forfeit(match: Match) -> None:
    """A voided forfeit gives back the fan factor it took (R35)."""
    if not (match.forfeited_by_id and match.forfeit_fan_factor_lost):
        return

    team = lock_team(match.forfeited_by_id)
    team.fan_factor += match.forfeit_fan_factor_lost
    team._change_reason = f"R35 void: {match}"[:100]
    team.save(update_fields=["fan_factor"])
    match.forfeit_fan_factor_lost = 0


def _drop_unbegun_post_match(match: Match) -> None:
    """The post-match rows confirmation opened, none begun (`take_back_problems` came first;
    a forfeiter's purchases and TR do not count): gone, so they block no team's next match."""
    PostMatch.objects.filter(match=match).delete()


def report_history(match: Match) -> list:
    """The report lines' history, newest first: each filed, changed or MVP'd line with its SPP (R28)
    and injury, so the match page shows what the report and the post-match did to each player."""
    r = match.season.ruleset.rules
    rows = list(
        PlayerMatch.history.filter(match_id=match.pk)
        .select_related("history_user", "player")
        .order_by("-history_date", "-history_id")[:60]
    )
    for row in rows:
        row.spp = record_spp(r, row)
    return rows
