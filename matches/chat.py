"""A match's result in the league's chat: the line a confirmed result (or a walkover) posts, and the short
line a void posts where its result had gone. Called by the services that confirm or void, in their
transaction (league.notices.webhooks.announce posts after the commit)."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from league.models import WebhookDelivery
from league.notices.webhooks import Event, Kind, announce
from matches.models import Match


def _where(match: Match) -> str:
    """ "1. divisjon, runde 3", or the cup's name and its round."""
    part = match.division.name if match.division_id else (match.cup.name if match.cup_id else match.season.name)
    return f"{part}, {match.round_name}"


def result_line(match: Match) -> str:
    """ "Dødsmarsjen 2 – 1 Gro's Gutter (1. divisjon, runde 3)", in the league's language."""
    with translation.override(settings.LANGUAGE_CODE):
        score = f"{match.home} {match.home_score} – {match.away_score} {match.away}"
        if match.forfeited_by_id:
            score += " " + _("(W.O.: %(team)s did not play)") % {"team": match.forfeited_by}
        elif match.tiebreak_winner_id:
            score += " " + _("(%(team)s won the tiebreak)") % {"team": match.tiebreak_winner}
        return f"{score} ({_where(match)})"


def _key(match: Match) -> str:
    # The score in the key: a result the board corrects after a reopening is a new event, posted once;
    # the same result confirmed again is the same event and posts nothing.
    return f"result:{match.pk}:{match.home_score}-{match.away_score}" + (":wo" if match.forfeited_by_id else "")


def announce_result(match: Match) -> None:
    """A confirmed result (never before: both coaches, or the board, confirmed it)."""
    if match.status != Match.Status.CONFIRMED:
        return
    data = {
        "match": match.pk,
        "home": str(match.home),
        "away": str(match.away),
        "home_score": match.home_score,
        "away_score": match.away_score,
        "walkover": bool(match.forfeited_by_id),
        "division": match.division.name if match.division_id else None,
        "cup": match.cup.name if match.cup_id else None,
        "round": match.round,
    }
    url = settings.SITE_URL + match.get_absolute_url()
    announce(Event(Kind.RESULT, _key(match), result_line(match), url=url, data=data))


def announce_void(match: Match) -> None:
    """A voided match whose result the chat had: a short line so the room knows it no longer counts. A void
    of a match the chat never heard of says nothing (a fixture struck off is no news)."""
    posted = Q(
        deliveries__key__startswith=f"result:{match.pk}:",
        deliveries__state__in=[WebhookDelivery.State.SENT, WebhookDelivery.State.PENDING],
    )
    with translation.override(settings.LANGUAGE_CODE):
        line = _("Voided: %(match)s (%(where)s) no longer counts.") % {"match": match, "where": _where(match)}
    url = settings.SITE_URL + match.get_absolute_url()
    announce(Event(Kind.VOID, f"void:{match.pk}", line, url=url, data={"match": match.pk}), only_to=posted)
