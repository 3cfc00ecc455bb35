"""The reminders (issue 27), made by `manage.py send_reminders` once a day (cron, or the production
recipe's scheduler): a dated match NOTICE_PREMATCH_DAYS days ahead (or nearer) whose pre-match is not
begun reminds both coaches; a post-match sequence still unfinished NOTICE_POSTMATCH_DAYS days after its
match was confirmed reminds its team's coach. Each once per match and coach: the notification's unique
constraint makes a second run (or two at once) insert nothing. A missed day is caught up the next, as
the windows are "by then", not "on that day"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from league.models import Notification
from league.notices.services import notify
from matches.models import Match, PostMatch, PreMatch
from matches.notices import words


@dataclass(frozen=True)
class Reminded:
    prematch: int
    postmatch: int


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
    """The same unfinished sequences as `matches.postmatch.unfinished_postmatches`, of every team, whose
    match was confirmed at least `days` days ago."""
    return (
        PostMatch.objects.filter(
            match__status=Match.Status.CONFIRMED,
            done__lt=PostMatch.Step.TEAM_RATING,
            match__confirmed_at__date__lte=today - timedelta(days=days),
        )
        .select_related("match__home", "match__away", "team__coach")
        .order_by("match__confirmed_at", "pk")
    )


def send_reminders(*, today: date, prematch_days: int, postmatch_days: int) -> Reminded:
    """Notify what is due; returns how many reminders were made (none twice)."""
    prematch = postmatch = 0
    with transaction.atomic():  # notification rows only: no league write, no new league version
        for match in prematch_due(today, prematch_days):
            made = notify(
                [match.home.coach, match.away.coach],
                Notification.Kind.PREMATCH_REMINDER,
                match=match,
                url=reverse("match_prematch", args=[match.pk]),
                params=words(match),
                reminded_for=match.date,
            )
            prematch += len(made)
        for row in postmatch_due(today, postmatch_days):
            made = notify(
                [row.team.coach],
                Notification.Kind.POSTMATCH_REMINDER,
                match=row.match,
                url=reverse("match_postmatch", args=[row.match_id, row.team_id]),
                params=words(row.match, team=row.team.name),
                reminded_for=timezone.localdate(row.match.confirmed_at),
            )
            postmatch += len(made)
    return Reminded(prematch, postmatch)
