"""What the league waits for, and from whom: every open action, derived from the league's rows alone.

A coach's list (`coach_actions`: his pre-matches, reports, confirmations, reopened reports, post-matches,
level-ups, date answers, or the team he has yet to found) and the board's desk (`board_actions`: disputes,
reopened reports overdue, fixtures past their round's deadline or undated near it, post-matches
unfinished for days, teams in no division, coaches with no team, the season that could end) are the one
answer to "what is to do". Mitt lag, the desk, the nav's count and the reminders read them, and a notice
that asks for an action is open exactly while its key is on its reader's list (`unread_count`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from league.accounts import COACH, display_name, holders, is_board, roles
from league.models import Cup, LeagueSettings, Notification, RoundDeadline, Season, SeasonEntry
from league.seasons.selectors import division_lines, ties_to_settle
from league.seasons.services.cup import cup_winner
from matches.models import Match, PostMatch
from matches.notices import action_key
from matches.postmatch.base import unfinished_postmatches
from matches.scheduling import competition_of
from matches.selectors import Todo, coach_todos, next_matches, scheduled_for
from teams.models import Team
from teams.selectors import with_treasury

# The board's desk, most urgent first: what holds coaches up before what only waits.
URGENCY = (
    "dispute",
    "reopened",
    "season_end",
    "overdue",
    "postmatch_overdue",
    "undated",
    "no_division",
    "no_team",
)


def _day(when: date | datetime | None) -> str:
    if when is None:
        return ""
    if isinstance(when, datetime):
        when = timezone.localtime(when).date()
    return formats.date_format(when, "DATE_FORMAT")


def _not_finished() -> Q:
    return ~Q(season__status=Season.Status.FINISHED)


# --- a coach ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Coaching:
    """A coach's active teams (with their treasuries) and their matches still to play, read once for
    his list, what he waits for and his page."""

    teams: list[Team]
    scheduled: list[Match]


def coaching(user) -> Coaching:
    """Each team with `treasury` and `entered` (in a division of a season not ended)."""
    entered = SeasonEntry.objects.filter(team=OuterRef("pk")).exclude(season__status=Season.Status.FINISHED)
    teams = Team.objects.active().filter(coach=user).select_related("race").annotate(entered=Exists(entered))
    teams = list(with_treasury(teams))
    return Coaching(teams, list(scheduled_for([t.pk for t in teams])) if teams else [])


def coach_actions(user, *, today: date | None = None, of: Coaching | None = None) -> list[Todo]:
    """Everything waiting for this coach, in the league's order (matches.selectors.coach_todos), and the
    team to found when he coaches none yet."""
    if not user.is_authenticated:
        return []
    of = of or coaching(user)
    if not of.teams:
        if _holds_coach_role(user):
            found = _("Found your team: choose its race and buy its players")
            return [Todo("found_team", found, reverse("team_create"))]
        return []
    return coach_todos(user, of.teams, of.scheduled, today=today or timezone.localdate())


def _holds_coach_role(user) -> bool:
    """A coach by his role, held through his group or himself; a superuser holds it without coaching."""
    return COACH in roles(user) and holders(COACH).filter(pk=user.pk).exists()


@dataclass(frozen=True)
class Waiting:
    """Something of the coach's that waits for someone else: whom, and where to look."""

    text: str
    url: str


def coach_waits(user, *, of: Coaching | None = None) -> list[Waiting]:
    """What the coach's matches and teams wait for from others: the board (a dispute, a division), the
    other coach (a report to confirm or file again, a post-match to finish before the next match)."""
    if not user.is_authenticated:
        return []
    of = of or coaching(user)
    teams = of.teams
    if not teams:
        return []
    mine = [t.pk for t in teams]
    found = [
        Waiting(_("%(team)s waits for the board to put it in a division.") % {"team": t.name}, t.get_absolute_url())
        for t in teams
        if not t.entered
    ]
    filed = (
        Match.objects.filter(Q(home__in=mine) | Q(away__in=mine), _not_finished(), status__in=Match.FILED)
        .select_related("home__coach", "away__coach", "filed_by")
        .order_by("filed_at", "pk")
    )
    for m in filed:
        if m.status == Match.Status.DISPUTED:
            text = _("%(match)s: the report is disputed and waits for the board to settle it.") % {"match": m}
        elif m.status == Match.Status.REOPENED and m.filed_by_id != user.pk:
            text = _("%(match)s: the board reopened the report; it waits for %(name)s to file it again.") % {
                "match": m,
                "name": display_name(m.filed_by) if m.filed_by_id else _("the board"),
            }
        elif m.status == Match.Status.REPORTED and m.filed_by_id == user.pk:
            other = m.away if m.home.coach_id == user.pk else m.home
            text = _("%(match)s: your report waits for %(name)s to confirm it.") % {
                "match": m,
                "name": display_name(other.coach),
            }
        else:
            continue
        found.append(Waiting(text, m.get_absolute_url()))
    found += _next_match_waits(teams, of.scheduled)
    return found


def _next_match_waits(teams: list[Team], scheduled: list[Match]) -> list[Waiting]:
    """A team's next match held by the opponent's unfinished post-match (R24: it comes before his next
    pre-match)."""
    nexts = next_matches(teams, scheduled)
    opponents = {m.away_id if m.home_id == pk else m.home_id: (pk, m) for pk, m in nexts.items()}
    held = (
        unfinished_postmatches(list(opponents))
        .exclude(match__in=list(m.pk for m in nexts.values()))
        .select_related("team__coach", "match__home", "match__away")
    )
    found = []
    for row in held:
        _mine, match = opponents[row.team_id]
        found.append(
            Waiting(
                _(
                    "Your match against %(team)s waits for %(name)s to finish the post-match sequence of %(match)s "
                    "first."
                )
                % {"team": row.team.name, "name": display_name(row.team.coach), "match": row.match},
                match.get_absolute_url(),
            )
        )
    return found


# --- the board -------------------------------------------------------------------------------------


def board_actions(*, today: date | None = None) -> list[Todo]:
    """The board's desk, most urgent first, each item one tap from where it is done."""
    today = today or timezone.localdate()
    days = LeagueSettings.current().board_days
    found = [
        *_disputes(),
        *_reopened(today, days),
        *_seasons_to_end(),
        *_fixtures_past_deadline(today, days),
        *_postmatches_overdue(today, days),
        *_teams_in_no_division(),
        *_coaches_without_team(),
    ]
    order = {kind: n for n, kind in enumerate(URGENCY)}
    return sorted(found, key=lambda t: (order.get(t.kind, len(order)), t.since or timezone.now()))


def _disputes() -> list[Todo]:
    disputed = Match.objects.filter(_not_finished(), status=Match.Status.DISPUTED).select_related("home", "away")
    return [
        Todo(
            "dispute",
            _("%(match)s %(home)s–%(away)s: the report is disputed (%(comment)s); confirm it or correct it")
            % {"match": m, "home": m.home_score, "away": m.away_score, "comment": m.dispute_comment[:120]},
            m.get_absolute_url(),
            m,
            who=_("the board"),
            since=m.filed_at,
        )
        for m in disputed.order_by("filed_at", "pk")
    ]


def _deadlines(seasons) -> dict[tuple[int, str, int], date]:
    return {(d.season_id, d.competition, d.round): d.deadline for d in RoundDeadline.objects.filter(season__in=seasons)}


def _reopened(today: date, days: int) -> list[Todo]:
    """A reopened report not filed again within `days`, or past its round's deadline (R47): the board may
    file it itself. One the board filed is the board's at once."""
    reopened = list(
        Match.objects.filter(_not_finished(), status=Match.Status.REOPENED).select_related("home", "away", "filed_by")
    )
    deadlines = _deadlines({m.season_id for m in reopened})
    found = []
    for m in reopened:
        coach_filed = m.filed_by_id in {m.home.coach_id, m.away.coach_id}
        deadline = deadlines.get((m.season_id, competition_of(m), m.round))
        late = m.reopened_at is None or timezone.localtime(m.reopened_at).date() + timedelta(days=days) <= today
        if coach_filed and not late and not (deadline is not None and deadline < today):
            continue
        name = display_name(m.filed_by) if coach_filed else _("the board")
        found.append(
            Todo(
                "reopened",
                _("%(match)s: the reopened report waits for %(name)s since %(day)s; file it yourself (R47)")
                % {"match": m, "name": name, "day": _day(m.reopened_at)},
                reverse("match_report", args=[m.pk]),
                m,
                who=name,
                since=m.reopened_at,
            )
        )
    return found


def _fixtures_past_deadline(today: date, days: int) -> list[Todo]:
    """Fixtures still to play after their round's deadline, and undated ones whose deadline is near."""
    scheduled = list(
        Match.objects.filter(
            _not_finished(), status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
        ).select_related("home__coach", "away__coach", "cup")  # the cup's draw names its round ("final")
    )
    deadlines = _deadlines({m.season_id for m in scheduled})
    found = []
    for m in sorted(scheduled, key=lambda m: (m.round, m.pk)):
        deadline = deadlines.get((m.season_id, competition_of(m), m.round))
        if deadline is None:
            continue
        coaches = _("%(home)s and %(away)s") % {"home": display_name(m.home.coach), "away": display_name(m.away.coach)}
        if deadline < today:
            label = _("%(match)s (%(round)s): its deadline, %(day)s, has passed; date it, forfeit or void it")
            kind = "overdue"
        elif m.date is None and deadline <= today + timedelta(days=days):
            label = _("%(match)s (%(round)s) has no date yet; its deadline is %(day)s")
            kind = "undated"
        else:
            continue
        found.append(
            Todo(
                kind,
                label % {"match": m, "round": m.round_name, "day": _day(deadline)},
                m.get_absolute_url(),
                m,
                who=coaches,
                since=timezone.make_aware(datetime.combine(deadline, datetime.min.time())),
            )
        )
    return found


def _postmatches_overdue(today: date, days: int) -> list[Todo]:
    """Post-match sequences unfinished `days` after their match was confirmed: the board may walk them
    itself (R44)."""
    before = today - timedelta(days=days)
    rows = (
        PostMatch.objects.filter(
            match__status=Match.Status.CONFIRMED,
            done__lt=PostMatch.Step.TEAM_RATING,
            match__confirmed_at__date__lte=before,
        )
        .select_related("match__home", "match__away", "team__coach")
        .order_by("match__confirmed_at", "pk")
    )
    return [
        Todo(
            "postmatch_overdue",
            _("%(match)s: the post-match sequence of %(team)s is unfinished since %(day)s")
            % {"match": row.match, "team": row.team.name, "day": _day(row.match.confirmed_at)},
            reverse("match_postmatch", args=[row.match_id, row.team_id]),
            row.match,
            row.team,
            key=action_key("postmatch_overdue", row.match, row.team),
            who=display_name(row.team.coach),
            since=row.match.confirmed_at,
        )
        for row in rows
    ]


def _teams_in_no_division() -> list[Todo]:
    """Active teams entered in no season that has not ended: the board puts them in a division of the
    season being prepared (or of the running one, while its divisions take teams)."""
    teams = (
        Team.objects.active()
        .exclude(season_entries__season__in=Season.objects.exclude(status=Season.Status.FINISHED))
        .select_related("coach")
        .order_by("created_at", "pk")
    )
    teams = list(teams)
    if not teams:
        return []
    season = Season.objects.exclude(status=Season.Status.FINISHED).order_by("-created_at").first()
    url = season.get_absolute_url() if season is not None else reverse("season_create")
    return [
        Todo(
            "no_division",
            _("%(team)s (%(name)s) plays in no division: put it in one")
            % {"team": t.name, "name": display_name(t.coach)},
            url,
            team=t,
            key=action_key("no_division", t),
            who=_("the board"),
            since=t.created_at,
        )
        for t in teams
    ]


def _coaches_without_team() -> list[Todo]:
    coaches = holders(COACH).filter(is_superuser=False).exclude(teams__active=True)
    return [
        Todo(
            "no_team",
            _("%(name)s has no team yet: Mitt lag asks for one") % {"name": display_name(u)},
            reverse("coaches"),
            key=action_key("no_team", u),
            who=display_name(u),
            since=u.date_joined,
        )
        for u in coaches.order_by("date_joined", "pk")
    ]


def _seasons_to_end() -> list[Todo]:
    """A running season whose matches are all decided: it ends when nothing is open (R44), else the
    desk says what stops it."""
    found = []
    running = Season.objects.running().select_related("ruleset")
    for season in running:
        if Match.objects.filter(season=season, division__isnull=False, status=Match.Status.SCHEDULED).exists():
            continue  # the league is still being played: nothing to end yet
        if not Match.objects.filter(season=season).exists():
            continue
        open_items = season_open(season)
        tables = {d.level: division_lines(d) for d in season.divisions.all()}
        ties = ties_to_settle(season, tables)
        if open_items or ties:
            label = _("%(season)s: the league is played, but %(n)s things are open before it ends") % {
                "season": season,
                "n": len(open_items) + len(ties),
            }
        else:
            label = _("%(season)s can end: nothing of it is open") % {"season": season}
        found.append(
            Todo(
                "season_end",
                label,
                reverse("season_end", args=[season.pk]),
                key=action_key("season_end", season),
                who=_("the board"),
            )
        )
    return found


def season_open(season: Season) -> list[Todo]:
    """What stops the season's end (R44), each with who must act and where: a match to play or whose
    report is not counted, and a post-match sequence unfinished."""
    found = []
    matches = (
        Match.objects.filter(season=season)
        .exclude(status__in=[Match.Status.CONFIRMED, Match.Status.VOID, Match.Status.BYE])
        .filter(home__isnull=False, away__isnull=False)
        .select_related("home__coach", "away__coach", "filed_by")
        .order_by("cup", "round", "pk")
    )
    for m in matches:
        coaches = _("%(home)s and %(away)s") % {"home": display_name(m.home.coach), "away": display_name(m.away.coach)}
        if m.status == Match.Status.SCHEDULED:
            label, who = _("%(match)s is not played yet"), coaches
        elif m.status == Match.Status.REPORTED:
            other = [c for c in (m.home.coach, m.away.coach) if c.pk != m.filed_by_id]
            label, who = _("%(match)s: the report waits for its confirmation"), ", ".join(map(display_name, other))
        elif m.status == Match.Status.DISPUTED:
            label, who = _("%(match)s: the disputed report waits for the board"), _("the board")
        else:
            label = _("%(match)s: the reopened report waits to be filed again")
            who = display_name(m.filed_by) if m.filed_by_id else _("the board")
        found.append(Todo("open_match", label % {"match": m}, m.get_absolute_url(), m, who=who))
    cup = Cup.objects.filter(season=season).first()
    if cup is not None and cup_winner(cup) is None and not any(m.cup_id for m in matches):
        # no cup match left to play, and no winner: a voided one waits for the replay the board adds (R34)
        label = _("%(cup)s has no winner: a voided cup match waits for its replay") % {"cup": cup.name}
        found.append(Todo("open_cup", label, reverse("cup", args=[season.pk]), who=_("the board")))
    rows = (
        PostMatch.objects.filter(match__season=season, match__status=Match.Status.CONFIRMED)
        .filter(done__lt=PostMatch.Step.TEAM_RATING)
        .select_related("match__home", "match__away", "team__coach")
        .order_by("match__confirmed_at", "pk")
    )
    found += [
        Todo(
            "open_postmatch",
            _("%(match)s: the post-match sequence of %(team)s is unfinished")
            % {"match": row.match, "team": row.team.name},
            reverse("match_postmatch", args=[row.match_id, row.team_id]),
            row.match,
            row.team,
            who=display_name(row.team.coach),
        )
        for row in rows
    ]
    return found


# --- everyone --------------------------------------------------------------------------------------


def actions_for(user, *, today: date | None = None) -> list[Todo]:
    """The user's whole list: his own as a coach, and the desk when he is on the board."""
    own = coach_actions(user, today=today)
    return [*own, *board_actions(today=today)] if is_board(user) else own


def coaching_for_request(request: HttpRequest) -> Coaching:
    if not hasattr(request, "_coaching"):
        request._coaching = coaching(request.user)
    return request._coaching


def _lists(request: HttpRequest) -> tuple[list[Todo], list[Todo]]:
    """The logged-in user's own list and the board's desk (empty if he is not on the board), read once a
    request: the nav's counts and the page read them both."""
    if not request.user.is_authenticated:
        return [], []
    if not hasattr(request, "_waiting"):
        own = coach_actions(request.user, of=coaching_for_request(request))
        request._waiting = (own, board_actions() if is_board(request.user) else [])
    return request._waiting


def for_request(request: HttpRequest) -> list[Todo]:
    """`actions_for` the logged-in user, once a request."""
    own, board = _lists(request)
    return [*own, *board]


def own_for_request(request: HttpRequest) -> list[Todo]:
    return _lists(request)[0]


def desk_count(request: HttpRequest) -> int:
    return len(_lists(request)[1])


def unread_count(request: HttpRequest) -> int:
    """What still waits for the user in his notices: the unread news, and the unread notices whose action
    is still on his list (one done by anyone is no longer counted)."""
    if not request.user.is_authenticated:
        return 0
    if not hasattr(request, "_unread_notices"):
        keys = [t.key for t in for_request(request)]
        unread = Notification.objects.filter(recipient=request.user, read_at__isnull=True)
        request._unread_notices = unread.filter(Q(action="") | Q(action__in=keys)).count()
    return request._unread_notices
