"""The match page's reads: each team's report lines under its own name, each die with what
it gave, read from the rows the sequences stored (no rule worked out again, no query per die), the
referee sheet's photos with who added them, and what each person may do on the match."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from league.accounts import display_name
from league.lib.numbers import money, signed
from league.rules.records import record_spp
from matches.models import DiceRoll, Match, PlayerMatch, PostMatch, PreMatch, ReportPhoto
from matches.notices import acts_as_coach, acts_for
from matches.report.confirmation import take_back_problems
from teams.models import Team


@dataclass(frozen=True)
class MatchActions:
    """What this person may do on the match, decided once here and read by the view and its template
    alike; each is what the service then accepts (a button never leads to a refusal it could foresee)."""

    party: bool = False  # one of the match's two coaches, or the board (matches.notices.takes_part)
    to_play: bool = False  # a party, the match still to play: the live log is his to keep
    prematch: bool = False
    sheet: bool = False
    report: str = ""  # the report button's words, "" for none
    confirm: bool = False
    dispute: bool = False
    reopen: bool = False
    void: bool = False
    replay: bool = False  # the board adds the replay of a voided match
    forfeit: bool = False
    move: bool = False
    postmatch: tuple[Team, ...] = ()
    locked: tuple[str, ...] = ()  # why a confirmed match can no longer be reopened or voided, for the board


def match_actions(user: Any, match: Match, *, board: bool) -> MatchActions:
    """`board`: the user is on the board (league.accounts.is_board, read once by the view)."""
    coach = acts_as_coach(match, user)
    if not (coach or board):
        return MatchActions()
    S = Match.Status
    both = match.home_id is not None and match.away_id is not None
    filed_by_me = match.filed_by_id == getattr(user, "pk", None)
    mine = acts_for(user, match)
    report = ""
    pre = getattr(match, "prematch", None)  # None before the first step
    walked = pre is not None and pre.done >= PreMatch.Step.MASTER_CHEF  # the report needs the squads and the gate
    if both and match.status == S.SCHEDULED and walked:
        report = _("File the report")
    elif match.status == S.REOPENED and (board or filed_by_me):
        report = _("Correct the report and file it again") if not board or filed_by_me else _("File the report (board)")
    elif match.status == S.DISPUTED and board:
        report = _("Correct the report (board)")
    elif match.status == S.DISPUTED and filed_by_me:
        report = _("Correct your report")
    elif match.status == S.REPORTED and (board or filed_by_me):
        report = _("Edit the report")
    walkover = match.is_walkover
    replayed = replay_of(match) is not None
    locked = tuple(take_back_problems(match)) if board and match.status == S.CONFIRMED else ()
    return MatchActions(
        party=True,
        to_play=match.status == S.SCHEDULED,
        prematch=both and match.status == S.SCHEDULED,
        sheet=both and not walkover,
        report=report,
        confirm=(match.status == S.REPORTED and (board or not filed_by_me)) or (match.status == S.DISPUTED and board),
        dispute=match.status == S.REPORTED and coach and not filed_by_me,
        reopen=board and match.status == S.CONFIRMED and not walkover and not locked,  # R46: a forfeit is voided
        void=board and match.status not in (S.VOID, S.BYE) and not locked,
        replay=board and match.status == S.VOID and both and not replayed,
        forfeit=board and both and match.status == S.SCHEDULED,
        move=board and match.status == S.SCHEDULED,
        locked=locked,
        postmatch=tuple(t for t in (match.home, match.away) if t is not None and t.pk in mine)
        if match.status == S.CONFIRMED
        else (),
    )


def replay_of(match: Match) -> Match | None:
    """A voided match's replay, if the board added one."""
    if match.status != Match.Status.VOID:
        return None
    return match.replays.exclude(status=Match.Status.VOID).first()


@dataclass(frozen=True)
class ReportSide:
    """One team's players in the report, by number, each line with its SPP (R28) as `line.spp`."""

    team: Team
    lines: list[PlayerMatch]


def report_sides(match: Match, lines: Iterable[PlayerMatch]) -> list[ReportSide]:
    """The home team's lines, then the away team's: a reader sees whose player each one is. None when
    no player has a line (a forfeit is not played, R35)."""
    lines = list(lines)
    if not lines:
        return []
    r = match.season.ruleset.rules
    by_team: dict[int, list[PlayerMatch]] = {match.home_id: [], match.away_id: []}
    for line in lines:
        line.spp = record_spp(r, line)
        by_team.setdefault(line.team_id, []).append(line)
    teams = [t for t in (match.home, match.away) if t is not None]
    return [ReportSide(t, sorted(by_team[t.pk], key=lambda line: line.player.number)) for t in teams]


def who_acted(match: Match, *, private: bool) -> Callable[[AbstractBaseUser | None], str]:
    """Who rolled a die or saved a change: his name for members (league.accounts.display_name), his part
    in the match for anyone else (coaches' names are for members, as settings.PUBLIC_TEAM_DETAILS says).
    Only the two coaches and the board act on a match; no user is the server (the demo league,
    the commands)."""
    parts = {}
    for team, part in ((match.away, _("away coach")), (match.home, _("home coach"))):  # home wins a tie
        if team is not None:
            parts[team.coach_id] = part

    def who(user: AbstractBaseUser | None) -> str:
        if user is None:
            return _("the server")
        return display_name(user) if private else parts.get(user.pk, _("the board"))

    return who


def with_who(rows: Iterable[Any], field: str, who: Callable[[AbstractBaseUser | None], str]) -> list[Any]:
    """The rows, each with `row.who`: who(row.<field>)."""
    rows = list(rows)
    for row in rows:
        row.who = who(getattr(row, field))
    return rows


def report_photos(
    match: Match, who: Callable[[AbstractBaseUser | None], str], *, user: Any, board: bool
) -> tuple[list[ReportPhoto], list[Any]]:
    """The photos by slot, each with `who` added it and whether this user may delete it (`deletable`:
    he added it, or he is the board); and the deletions the history keeps, newest first, each with
    `who` deleted it. Two queries. For those who may see them only (the view asks first)."""
    photos = with_who(match.photos.select_related("uploaded_by"), "uploaded_by", who)
    for photo in photos:
        photo.deletable = board or photo.uploaded_by_id == user.pk
    deleted = ReportPhoto.history.filter(match_id=match.pk, history_type="-").select_related("history_user")
    return photos, with_who(deleted.order_by("-history_date")[:20], "history_user", who)


# The dice whose result a pre-match or post-match row keeps; any other die's cell stays empty.
PREMATCH_DICE = {"weather", "gate", "vandalism"}
POSTMATCH_DICE = {"winnings", "kiosk", "fan_factor", "mvp"}


def with_results(match: Match, dice: Sequence[DiceRoll]) -> list[DiceRoll]:
    """Each die with what it gave as `die.result` ("" when no row keeps it): the weather by name, a
    gate's spectators, the gold won, the fan factor's change, the MVP. Reads the pre-match (with the
    match when the view joined it) and the teams' post-match rows once, whatever the number of dice."""
    heads = {d.purpose.split(":")[0] for d in dice}
    pre = getattr(match, "prematch", None) if heads & PREMATCH_DICE else None
    posts = {p.team_id: p for p in match.postmatches.select_related("mvp")} if heads & POSTMATCH_DICE else {}
    weather = _weather_names(match) if "weather" in heads else {}
    for die in dice:
        head, _sep, rest = die.purpose.partition(":")
        die.result = _result(head, rest, die, pre, posts.get(die.team_id), weather)
    return list(dice)


def _weather_names(match: Match) -> dict[str, str]:
    """The season ruleset's weather table, key → name (the names are the ruleset's own words)."""
    return {band.value.key: band.value.name for band in match.season.ruleset.rules.tables.weather.bands}


def _result(
    head: str,
    rest: str,
    die: DiceRoll,
    pre: PreMatch | None,
    post: PostMatch | None,
    weather: Mapping[str, str],
) -> str:
    if head in PREMATCH_DICE:
        return _prematch_result(head, rest, pre, weather) if pre is not None else ""
    return _postmatch_result(head, post) if head in POSTMATCH_DICE and post is not None else ""


def _prematch_result(head: str, side: str, pre: PreMatch, weather: Mapping[str, str]) -> str:
    if head == "weather":  # as it counted for the match: a roof's nice weather (R39) is what the die gave
        return weather.get(pre.weather, pre.weather)
    if head == "gate":
        gate = pre.home_gate if side == "home" else pre.away_gate
        return _("%(n)s spectators") % {"n": money(gate)} if gate is not None else ""
    if pre.vandalised is None:
        return ""
    return _("Vandalised") if pre.vandalised else _("No vandalism")


def _postmatch_result(head: str, post: PostMatch) -> str:
    if head in ("winnings", "kiosk"):
        gold = post.winnings if head == "winnings" else post.kiosk
        return money(gold) if gold is not None else ""
    if head == "fan_factor":
        return f"FF {signed(post.fan_factor_change)}" if post.fan_factor_change is not None else ""
    return str(post.mvp) if post.mvp is not None else ""  # the MVP's die
