"""Calendar feeds: a team's matches, the league's fixtures, and a coach's private feed with his
teams' matches and the rounds' deadlines, as iCalendar (the `icalendar` package).

Each match is one event whose UID never changes (match-<pk>@torshov-league), so a calendar that subscribed
moves the event when the date changes: SEQUENCE counts the changes of its date, LAST-MODIFIED and DTSTAMP
are the time of the last one. Only dated matches are events; a date without a time is a day-long event.
Times are in Europe/Oslo, with the zone's definition in the feed.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlencode

import icalendar
from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from league.lib.writes import league_write
from league.models import CalendarFeed, RoundDeadline, Season, new_calendar_salt
from matches.models import Match

UID_DOMAIN = "torshov-league"
PRODID = "-//Torshov Touchdown//Torshov League//NB"
MATCH_LENGTH = datetime.timedelta(hours=3)  # a Blood Bowl match at the club, with the pre- and post-match
HIDDEN = (Match.Status.BYE, Match.Status.VOID)


def match_uid(pk: int) -> str:
    return f"match-{pk}@{UID_DOMAIN}"


def deadline_uid(pk: int) -> str:
    return f"deadline-{pk}@{UID_DOMAIN}"


# --- what a feed holds ------------------------------------------------------------------------------


def _dated(matches: QuerySet[Match]) -> QuerySet[Match]:
    return (
        matches.filter(date__isnull=False)
        .exclude(status__in=HIDDEN)
        .select_related("home", "away", "division", "cup", "season")
        .order_by("date", "start_time", "pk")
    )


def team_matches(team_id: int) -> QuerySet[Match]:
    return _dated(Match.objects.filter(Q(home_id=team_id) | Q(away_id=team_id)))


def league_matches() -> QuerySet[Match]:
    """The fixtures of the seasons not finished (a finished season's dates stay in a calendar that had them)."""
    return _dated(Match.objects.exclude(season__status=Season.Status.FINISHED))


def coach_matches(user: Any) -> QuerySet[Match]:
    return _dated(Match.objects.filter(Q(home__coach=user) | Q(away__coach=user)))


def coach_deadlines(user: Any) -> QuerySet[RoundDeadline]:
    """The deadlines of the rounds the coach's teams play in, in the seasons not finished."""
    playing = Match.objects.filter(Q(home__coach=user) | Q(away__coach=user)).exclude(
        season__status=Season.Status.FINISHED
    )
    league_rounds = playing.filter(cup__isnull=True).values_list("season_id", "round").distinct()
    cup_rounds = playing.filter(cup__isnull=False).values_list("season_id", "round").distinct()
    wanted = Q(pk__in=[])
    for competition, rounds in (
        (RoundDeadline.Competition.LEAGUE, league_rounds),
        (RoundDeadline.Competition.CUP, cup_rounds),
    ):
        for season_id, round_ in rounds:
            wanted |= Q(season_id=season_id, competition=competition, round=round_)
    # the season's cup with it: a cup round's deadline names the round ("final") as the pages do
    return RoundDeadline.objects.filter(wanted).select_related("season__cup").order_by("deadline", "pk")


# --- the feed ---------------------------------------------------------------------------------------


def _changes(matches: Sequence[Match]) -> dict[int, tuple[int, datetime.datetime]]:
    """Each match's count of changes an event shows (SEQUENCE: its date and time, and its result, which
    the summary names) and when the last was, from its history in one query."""
    history = Match.history.model.objects.filter(id__in=[m.pk for m in matches]).order_by("id", "history_date")
    found: dict[int, tuple[int, datetime.datetime]] = {}
    last: dict[int, tuple] = {}
    shown = ("date", "start_time", "status", "home_score", "away_score")
    for pk, *event, when in history.values_list("id", *shown, "history_date"):
        if pk not in last:
            found[pk] = (0, when)
        elif last[pk] != tuple(event):
            found[pk] = (found[pk][0] + 1, when)
        last[pk] = tuple(event)
    return found


def _summary(match: Match) -> str:
    home, away = match.home.name if match.home else "?", match.away.name if match.away else "?"
    if match.status == Match.Status.CONFIRMED:
        walkover = f" {_('W.O.')}" if match.is_walkover else ""  # R46
        return f"{home} {match.home_score}–{match.away_score}{walkover} {away}"
    return f"{home} – {away}"


def _where(match: Match) -> str:
    competition = match.cup.name if match.cup_id else match.division.name
    return _("%(competition)s, %(round)s") % {"competition": competition, "round": match.round_name}


def match_event(match: Match, *, base_url: str, sequence: int, changed: datetime.datetime) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", match_uid(match.pk))
    event.add("summary", _summary(match))
    starts = match.starts_at
    if starts is not None:
        event.add("dtstart", timezone.localtime(starts))
        event.add("dtend", timezone.localtime(starts + MATCH_LENGTH))
    else:  # a day, no time agreed
        event.add("dtstart", match.date)
        event.add("dtend", match.date + datetime.timedelta(days=1))
    event.add("dtstamp", changed)
    event.add("last-modified", changed)
    event.add("sequence", sequence)
    event.add("description", _where(match))
    event.add("url", base_url + match.get_absolute_url())
    if match.status == Match.Status.CONFIRMED:
        event.add("status", "CONFIRMED")
    return event


def deadline_event(row: RoundDeadline) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", deadline_uid(row.pk))
    if row.competition == RoundDeadline.Competition.CUP:
        event.add("summary", _("Deadline: cup, %(round)s") % {"round": row.season.cup.round_name(row.round)})
    else:
        event.add("summary", _("Deadline: round %(round)s") % {"round": row.round})
    event.add("dtstart", row.deadline)
    event.add("dtend", row.deadline + datetime.timedelta(days=1))
    event.add("dtstamp", row.set_at)
    event.add("last-modified", row.set_at)
    event.add("description", str(row.season))
    event.add("transp", "TRANSPARENT")  # a day to have played by, not a busy day
    return event


def feed(name: str, matches: Iterable[Match], *, base_url: str, deadlines: Iterable[RoundDeadline] = ()) -> bytes:
    """The iCalendar text of the matches (and deadlines), named `name` in the calendar app."""
    matches = list(matches)
    changes = _changes(matches)
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", timezone.get_default_timezone_name())
    calendar.add("refresh-interval", datetime.timedelta(hours=6), parameters={"VALUE": "DURATION"})
    for match in matches:
        sequence, changed = changes.get(match.pk, (0, match.created_at))
        calendar.add_component(match_event(match, base_url=base_url, sequence=sequence, changed=changed))
    for row in deadlines:
        calendar.add_component(deadline_event(row))
    calendar.add_missing_timezones()
    return calendar.to_ical()


def google_calendar_url(match: Match, *, base_url: str) -> str:
    """Google Calendar's "add an event" address for one dated match still to play (as REBBL offers), or ""."""
    if match.date is None or match.status != Match.Status.SCHEDULED:
        return ""
    starts = match.starts_at
    if starts is not None:
        utc = datetime.UTC
        dates = f"{starts.astimezone(utc):%Y%m%dT%H%M%SZ}/{(starts + MATCH_LENGTH).astimezone(utc):%Y%m%dT%H%M%SZ}"
    else:
        dates = f"{match.date:%Y%m%d}/{match.date + datetime.timedelta(days=1):%Y%m%d}"
    query = {
        "action": "TEMPLATE",
        "text": _summary(match),
        "dates": dates,
        "details": f"{_where(match)}\n{base_url}{match.get_absolute_url()}",
        "ctz": timezone.get_default_timezone_name(),
    }
    return "https://calendar.google.com/calendar/render?" + urlencode(query)


# --- the coach's private address --------------------------------------------------------------------

TOKEN_KEY = "torshov.calendar"  # salted_hmac's key salt: these hashes open nothing else
HASH_LENGTH = 32


def _hash(user_pk: int, salt: str) -> str:
    return salted_hmac(TOKEN_KEY, f"{user_pk}:{salt}", algorithm="sha256").hexdigest()[:HASH_LENGTH]


def private_token(user: Any) -> str:
    """The secret of the coach's feed: his id and a keyed hash of it with his salt (empty until he renews)."""
    salt = CalendarFeed.objects.filter(user=user).values_list("salt", flat=True).first() or ""
    return f"{user.pk}-{_hash(user.pk, salt)}"


def private_path(user: Any) -> str:
    return reverse("coach_calendar", args=[private_token(user)])


def feed_owner(token: str) -> Any | None:
    """The coach whose feed this secret opens, or None: a forged secret, or one renewed since."""
    pk, _sep, given = token.partition("-")
    if not (pk.isascii() and pk.isdigit() and len(pk) <= 18 and len(given) == HASH_LENGTH):
        return None
    user = get_user_model().objects.filter(pk=int(pk), is_active=True).first()
    if user is None:
        return None
    return user if constant_time_compare(given, private_token(user).partition("-")[2]) else None


@league_write
def renew_calendar_token(*, user: Any) -> CalendarFeed:
    """A new salt, so a new secret: the old address of the coach's feed is no longer found."""
    row, created = CalendarFeed.objects.select_for_update().get_or_create(user=user)
    if not created:
        row.salt, row.renewed_at = new_calendar_salt(), timezone.now()
        row.save(update_fields=["salt", "renewed_at"])
    return row
