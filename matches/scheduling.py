"""Fixture dates agreed in the app: a coach proposes up to three dates and times, the other
accepts one or proposes others, the board sets a round's deadline and can date a fixture itself.

Every write locks the match row first, so a double submit, or both coaches answering at once, is carried
out one after the other: the second finds the proposal no longer open and changes nothing. The proposals
are kept (who, when, how each ended) and the match's own history records each date it was given.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from league.accounts import display_name, is_board
from league.lib.refusals import AlreadyDone, Refusal
from league.lib.writes import league_write
from league.models import Notification, RoundDeadline, Season
from league.notices.services import notify
from matches.models import MAX_PROPOSED, DateProposal, Match, PreMatch
from matches.notices import action_key, coaches, words
from teams.models import Team

# The other coach is e-mailed about a match's proposals at most this often; later ones are saved and shown
# in his inbox and on the match page, only not mailed again, so twenty clicks are not twenty e-mails.
PROPOSALS_MAILED_EVERY = datetime.timedelta(hours=1)


class SchedulingError(Refusal):
    """A proposal, an answer, a date or a deadline the league refuses; nothing changed."""


def _notify(
    recipients: list[Any],
    kind: str,
    *,
    match: Match,
    by: Any = None,
    action: str = "",
    mail_every: datetime.timedelta | None = None,
    **params: str,
) -> None:
    """Tells the coaches of a date (league.notices: the inbox, and an e-mail once the write commits).
    Called inside the writing transaction, one call per event."""
    name = display_name(by) if getattr(by, "pk", None) is not None else ""
    params = words(match, **({"by": name} if name else {}), **params)
    notify(recipients, kind, match=match, params=params, action=action, mail_every=mail_every)


# --- reads ----------------------------------------------------------------------------------------


def competition_of(match: Match) -> str:
    return RoundDeadline.Competition.CUP if match.cup_id else RoundDeadline.Competition.LEAGUE


def deadline_for(match: Match) -> datetime.date | None:
    return (
        RoundDeadline.objects.filter(season_id=match.season_id, competition=competition_of(match), round=match.round)
        .values_list("deadline", flat=True)
        .first()
    )


def open_proposals(match: Match) -> list[DateProposal]:
    return list(match.date_proposals.filter(status=DateProposal.Status.OPEN).select_related("team", "proposed_by"))


def coached_team(match: Match, user: Any) -> Team | None:
    """The team of the match this user coaches (the home team first), or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return next((t for t in (match.home, match.away) if t is not None and t.coach_id == user.pk), None)


def can_schedule(match: Match) -> bool:
    """A date can still be agreed: both teams known, not played, the pre-match not begun at the table (the
    weather rolled; squads are picked ahead of the day)."""
    if match.status != Match.Status.SCHEDULED or match.home_id is None or match.away_id is None:
        return False
    return not PreMatch.objects.filter(match=match, done__gte=PreMatch.Step.WEATHER).exists()


def local(when: datetime.datetime) -> datetime.datetime:
    return timezone.localtime(when)


def shown(when: datetime.datetime) -> str:
    return formats.date_format(local(when), "DATETIME_FORMAT")


# --- the checks every write shares -----------------------------------------------------------------


def _locked(match: Match) -> Match:
    # the match row alone is locked (of=self): its teams are read, not changed
    return Match.objects.select_for_update(of=("self",)).select_related("home", "away", "season").get(pk=match.pk)


def _refuse_unless_open(match: Match) -> None:
    if match.home_id is None or match.away_id is None:
        raise SchedulingError([_("Both teams must be known before a date is agreed.")])
    if match.status != Match.Status.SCHEDULED:
        raise SchedulingError([_("The match is no longer to be played: its date cannot change.")])
    if match.season.status == Season.Status.FINISHED:
        raise SchedulingError([_("The season is over.")])
    if PreMatch.objects.filter(match=match, done__gte=PreMatch.Step.WEATHER).exists():
        raise SchedulingError([_("The pre-match sequence has begun: the date can no longer change.")])


def _refuse_past(when: datetime.datetime) -> None:
    if when <= timezone.now():
        raise SchedulingError([_("%(when)s is in the past: choose a date and time to come.") % {"when": shown(when)}])


def by_deadline(when: datetime.datetime, deadline: datetime.date | None) -> bool:
    """Whether a start keeps the round's deadline (none set: any does): the day it starts in Oslo."""
    return deadline is None or local(when).date() <= deadline


def _refuse_after_deadline(match: Match, when: datetime.datetime) -> None:
    deadline = deadline_for(match)
    if not by_deadline(when, deadline):
        raise SchedulingError(
            [
                _("The board's deadline for round %(round)s is %(deadline)s: propose a date by then, or ask the board.")
                % {"round": match.round, "deadline": formats.date_format(deadline, "DATE_FORMAT")}
            ]
        )


def _coach_of(match: Match, by: Any) -> Team:
    team = coached_team(match, by)
    if team is None:
        raise SchedulingError([_("Only the coaches of the two teams agree this match's date.")])
    return team


def _coaches_both(match: Match, by: Any) -> bool:
    return match.home.coach_id == by.pk and match.away.coach_id == by.pk


def _set_date(match: Match, when_date: datetime.date, when_time: datetime.time | None, *, by: Any) -> bool:
    """The match's date (and time), recorded in its history as `by`'s; True when it had a date before."""
    had_date = match.date is not None
    match.date, match.start_time = when_date, when_time
    match._history_user = by  # simple_history: who gave the date, outside a request too
    match.save(update_fields=["date", "start_time"])
    return had_date


def close_open_proposals(match: Match, *, by: Any, but: DateProposal | None = None) -> None:
    """The match has its date: every open proposal (but the one accepted) is closed, answered by `by`."""
    still_open = match.date_proposals.filter(status=DateProposal.Status.OPEN)
    if but is not None:
        still_open = still_open.exclude(pk=but.pk)
    still_open.update(status=DateProposal.Status.CLOSED, answered_by=by, answered_at=timezone.now())


# --- the writes -------------------------------------------------------------------------------------


@league_write
def propose_dates(match: Match, *, starts: Sequence[datetime.datetime], by: Any) -> list[DateProposal]:
    """`by`, a coach of the match, proposes up to three dates and times. They replace every open
    proposal: his own earlier ones, and the other coach's, which this answers with other dates."""
    match = _locked(match)
    team = _coach_of(match, by)
    _refuse_unless_open(match)
    if not starts:
        raise SchedulingError([_("Propose at least one date and time.")])
    if len(starts) > MAX_PROPOSED:
        raise SchedulingError([_("Propose at most %(n)s dates at once.") % {"n": MAX_PROPOSED}])
    if len(set(starts)) != len(starts):
        raise SchedulingError([_("The same date and time is proposed twice.")])
    for when in starts:
        _refuse_past(when)
        _refuse_after_deadline(match, when)
    current = open_proposals(match)
    if sorted(p.starts_at for p in current if p.team_id == team.pk) == sorted(starts) and all(
        p.team_id == team.pk for p in current
    ):
        return current  # the same form sent twice: nothing more to do
    now = timezone.now()
    mine = Q(team=team)
    match.date_proposals.filter(mine, status=DateProposal.Status.OPEN).update(
        status=DateProposal.Status.CLOSED, answered_by=by, answered_at=now
    )
    match.date_proposals.filter(~mine, status=DateProposal.Status.OPEN).update(
        status=DateProposal.Status.DECLINED, answered_by=by, answered_at=now
    )
    made = [
        DateProposal.objects.create(match=match, team=team, starts_at=when, proposed_by=by, proposed_at=now)
        for when in sorted(starts)
    ]
    dates = ",".join(local(p.starts_at).isoformat(timespec="minutes") for p in made)
    answer = action_key("date", match)  # open while the other coach's answer waits (matches.selectors)
    _notify(
        coaches(match, but=by),
        Notification.Kind.DATE_PROPOSED,
        match=match,
        by=by,
        action=answer,
        mail_every=PROPOSALS_MAILED_EVERY,
        dates=dates,
    )
    return made


@league_write
def accept_date(proposal: DateProposal, *, by: Any) -> Match:
    """The other coach accepts one proposed date: it becomes the match's date, the others close."""
    match = _locked(proposal.match)
    proposal = DateProposal.objects.select_for_update().get(pk=proposal.pk)
    if proposal.status == DateProposal.Status.ACCEPTED:
        raise AlreadyDone(result=match)
    team = _coach_of(match, by)
    if proposal.team_id == team.pk and not _coaches_both(match, by):
        raise SchedulingError([_("You proposed this date: the other coach accepts it or proposes others.")])
    if proposal.status != DateProposal.Status.OPEN:
        raise SchedulingError([_("This proposal is no longer open: the dates have changed since. Look again.")])
    _refuse_unless_open(match)
    _refuse_past(proposal.starts_at)
    _refuse_after_deadline(match, proposal.starts_at)  # a deadline set after the proposal holds too
    now = timezone.now()
    when = local(proposal.starts_at)
    had_date = _set_date(match, when.date(), when.time().replace(tzinfo=None), by=by)
    close_open_proposals(match, by=by, but=proposal)
    proposal.status, proposal.answered_by, proposal.answered_at = DateProposal.Status.ACCEPTED, by, now
    proposal.save(update_fields=["status", "answered_by", "answered_at"])
    _notify(
        [proposal.proposed_by] if proposal.proposed_by_id else [],
        Notification.Kind.DATE_CHANGED if had_date else Notification.Kind.DATE_ACCEPTED,
        match=match,
        by=by,
        date=local(proposal.starts_at).isoformat(timespec="minutes"),
    )
    return match


@league_write
def board_schedule(match: Match, *, date: datetime.date, time: datetime.time | None, by: Any) -> Match:
    """The board dates a fixture itself (the coaches did not agree, or told the board): open proposals close."""
    if not is_board(by):
        raise SchedulingError([_("Only the board sets a fixture's date itself.")])
    match = _locked(match)
    _refuse_unless_open(match)
    if date < timezone.localdate():
        when = formats.date_format(date, "DATE_FORMAT")
        raise SchedulingError([_("%(when)s is in the past: choose a date to come.") % {"when": when}])
    if time is not None:
        _refuse_past(timezone.make_aware(datetime.datetime.combine(date, time)))
    if (match.date, match.start_time) == (date, time):
        return match  # the date it has (a form sent twice): nothing changes, no one is told again
    had_date = _set_date(match, date, time, by=by)
    close_open_proposals(match, by=by)
    _notify(
        coaches(match),
        Notification.Kind.DATE_CHANGED if had_date else Notification.Kind.FIXTURE_SCHEDULED,
        match=match,
        date=(match.starts_at or match.date).isoformat(),
    )
    return match


@league_write
def set_round_deadline(
    season: Season, *, competition: str, round: int, deadline: datetime.date | None, by: Any
) -> RoundDeadline | None:
    """The board sets (or, with no date, lifts) the deadline of a season's round."""
    if not is_board(by):
        raise SchedulingError([_("Only the board sets a round's deadline.")])
    season = Season.objects.select_for_update().get(pk=season.pk)
    matches = Match.objects.filter(
        season=season, round=round, cup__isnull=competition == RoundDeadline.Competition.LEAGUE
    )
    if not matches.exists():
        raise SchedulingError([_("Round %(round)s has no fixtures this season.") % {"round": round}])
    existing = RoundDeadline.objects.select_for_update().filter(season=season, competition=competition, round=round)
    if deadline is None:
        for row in existing:
            row._history_user = by
            row.delete()
        return None
    if deadline < timezone.localdate():
        raise SchedulingError([_("The deadline is in the past: choose a day to come.")])
    row = existing.first() or RoundDeadline(season=season, competition=competition, round=round)
    row.deadline, row.set_by, row.set_at = deadline, by, timezone.now()
    row._history_user = by
    row.save()
    return row


# --- the board's overview ---------------------------------------------------------------------------


@dataclass
class RoundSchedule:
    competition: str
    round: int
    deadline: datetime.date | None
    fixtures: int = 0
    to_play: int = 0  # its fixtures not played yet (a cup's still without its teams too): none, no deadline
    unscheduled: list[Match] = field(default_factory=list)
    overdue: list[Match] = field(default_factory=list)
    name: str = ""  # as every page names the round ("final", "round 2"): Match.round_name

    @property
    def key(self) -> str:
        return f"{self.competition}-{self.round}"


def schedule_overview(season: Season, *, today: datetime.date) -> list[RoundSchedule]:
    """Each round of the season with its deadline, its fixtures still without a date, and those past the
    deadline: not yet played once it has passed, or dated after it. Two queries."""
    deadlines = {(d.competition, d.round): d.deadline for d in RoundDeadline.objects.filter(season=season)}
    rounds: dict[tuple[str, int], RoundSchedule] = {}
    matches = (
        Match.objects.filter(season=season)
        .exclude(status__in=[Match.Status.BYE, Match.Status.VOID])
        .select_related("home", "away", "division", "cup")
        .order_by("cup", "round", "division", "pk")
    )
    for match in matches:
        key = (competition_of(match), match.round)
        row = rounds.setdefault(key, RoundSchedule(key[0], key[1], deadlines.get(key), name=match.round_name))
        row.fixtures += 1
        row.to_play += match.status == Match.Status.SCHEDULED
        if match.status != Match.Status.SCHEDULED or match.home_id is None or match.away_id is None:
            continue
        if match.date is None:
            row.unscheduled.append(match)
        if row.deadline is not None and (row.deadline < today or (match.date and match.date > row.deadline)):
            row.overdue.append(match)
    return sorted(rounds.values(), key=lambda r: (r.competition == RoundDeadline.Competition.CUP, r.round))
