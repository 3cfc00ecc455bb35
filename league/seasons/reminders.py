"""The day's reminders, made by `manage.py send_reminders` once a day (cron, or the production recipe's
scheduler), from what the league waits for (league.seasons.waiting): a dated match within the board's
pre-match days whose pre-match step waits for a coach; a post-match sequence still unfinished the board's
post-match days after its match was confirmed; and, for the board, a reopened report its coach has not
filed again (R47). Each once per match, person and day it is about: the notification's unique constraint
makes a second run (or two at once) insert nothing. A missed day is caught up the next, as the windows are
"by then", not "on that day"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from league.accounts import BOARD, holders
from league.models import LeagueSettings, Notification
from league.notices.services import notify
from league.seasons import waiting
from matches.models import Match, PostMatch, PreMatch
from matches.notices import action_key, words


@dataclass(frozen=True)
class Reminded:
    prematch: int
    postmatch: int
    board: int = 0


def prematch_due(today: date, days: int):
    return (
        Match.objects.filter(
            status=Match.Status.SCHEDULED,
            date__gte=today,
            date__lte=today + timedelta(days=days),
            home__isnull=False,
            away__isnull=False,
        )
        .filter(Q(prematch__isnull=True) | Q(prematch__done__lt=PreMatch.Step.SQUADS))
        .select_related("home__coach", "away__coach")
        .order_by("date", "pk")
    )


def postmatch_due(today: date, days: int):
    """The unfinished sequences of every team whose match was confirmed at least `days` days ago."""
    return (
        PostMatch.objects.filter(
            match__status=Match.Status.CONFIRMED,
            done__lt=PostMatch.Step.TEAM_RATING,
            match__confirmed_at__date__lte=today - timedelta(days=days),
        )
        .select_related("match__home", "match__away", "team__coach")
        .order_by("match__confirmed_at", "pk")
    )


def send_reminders(*, today: date, prematch_days: int | None = None, postmatch_days: int | None = None) -> Reminded:
    """Notify what is due; returns how many reminders were made (none twice). The days are the board's
    (LeagueSettings) unless given."""
    chosen = LeagueSettings.current()
    prematch_days = chosen.prematch_days if prematch_days is None else prematch_days
    postmatch_days = chosen.postmatch_days if postmatch_days is None else postmatch_days
    lists: dict[int, set[str]] = {}

    def waits_for(user, key: str) -> bool:
        """Only what is on the coach's list: a notice for anything else would be done before it is read."""
        if user.pk not in lists:
            lists[user.pk] = {t.key for t in waiting.coach_actions(user, today=today)}
        return key in lists[user.pk]

    prematch = postmatch = board = 0
    with transaction.atomic():  # notification rows only: no league write, no new league version
        for match in prematch_due(today, prematch_days):
            for team in (match.home, match.away):
                key = action_key("prematch", match, team)
                if waits_for(team.coach, key):
                    prematch += len(
                        notify(
                            [team.coach],
                            Notification.Kind.PREMATCH_REMINDER,
                            match=match,
                            url=reverse("match_prematch", args=[match.pk]),
                            params=words(match),
                            reminded_for=match.date,
                            action=key,
                        )
                    )
        for row in postmatch_due(today, postmatch_days):
            keys = [action_key(kind, row.match, row.team) for kind in ("postmatch", "levelup")]
            key = next((k for k in keys if waits_for(row.team.coach, k)), None)
            if key is not None:
                postmatch += len(
                    notify(
                        [row.team.coach],
                        Notification.Kind.POSTMATCH_REMINDER,
                        match=row.match,
                        url=reverse("match_postmatch", args=[row.match_id, row.team_id]),
                        params=words(row.match, team=row.team.name),
                        reminded_for=timezone.localdate(row.match.confirmed_at),
                        action=key,
                    )
                )
        members = list(holders(BOARD))
        for todo in waiting.board_actions(today=today):
            if todo.kind != "reopened":
                continue
            board += len(
                notify(
                    members,
                    Notification.Kind.REOPENED_OVERDUE,
                    match=todo.match,
                    url=todo.url,
                    params=words(todo.match, name=todo.who),
                    reminded_for=timezone.localdate(todo.match.reopened_at) if todo.match.reopened_at else today,
                    action=todo.key,
                )
            )
    return Reminded(prematch, postmatch, board)
