"""One decision read by the page and held by the views: for each state of a match and each person, every
action the match page offers (matches.match_page.match_actions) is accepted when posted, and every action it
does not offer is refused, the match left as it was."""

import pytest
from django.db import transaction
from django.urls import reverse

from league.accounts import is_board
from matches import results
from matches.match_page import match_actions
from matches.models import Match
from matches.postmatch.steps import winnings
from matches.report.confirmation import confirm_report, dispute_report, reopen_report, void_match
from matches.report.filing import file_report
from tests import factories
from tests.matches.test_report import ROLES, a_report, form_data, user_for

pytestmark = pytest.mark.django_db


def _walked(match, board):
    factories.ready_match(match)


def _reported(match, board):
    _walked(match, board)
    file_report(match, a_report(match), by=match.home.coach)


def _confirmed(match, board):
    _reported(match, board)
    confirm_report(match, by=match.away.coach)


STATES = {
    "scheduled": lambda match, board: None,
    "walked": _walked,
    "reported": _reported,
    "disputed": lambda match, board: (
        _reported(match, board),
        dispute_report(match, by=match.away.coach, comment="2-2"),
    ),
    "confirmed": _confirmed,
    "post-match begun": lambda match, board: (
        _confirmed(match, board),
        winnings(match, match.home, roll=None, by=None),
    ),
    "reopened": lambda match, board: (_confirmed(match, board), reopen_report(match, by=board)),
    "void": lambda match, board: (_walked(match, board), void_match(match, by=board)),
    "walkover": lambda match, board: results.record_forfeit(match, match.home, by=board),
}


# Accepted by the services, offered by no page: each a question for the board's rulings, not a button
# to add. The list is exact, so a cell that changes either way is seen.
OFFERED_BY_NO_PAGE = {
    ("reported", "away_coach", "report"),  # file_report takes a report filed again from either coach
    ("disputed", "away_coach", "report"),
    ("reported", "board", "dispute"),  # dispute_report lets the board through as it does for confirming
    ("reopened", "board", "confirm"),  # confirm_report lets the board confirm a reopened report as filed
}


def _posts(match):
    """Each action's POST: its view and what its form sends."""
    return {
        "report": ("match_report", form_data(match)),
        "confirm": ("match_confirm", {}),
        "dispute": ("match_dispute", {"comment": "Feil"}),
        "reopen": ("match_reopen", {}),
        "void": ("match_void", {}),
        "replay": ("match_replay", {}),
        "forfeit": ("match_forfeit", {"team": match.home_id}),
        "move": ("match_move", {"round": match.round + 1, "date": ""}),
    }


def _state(match):
    return Match.history.filter(id=match.pk).count(), Match.objects.count()


QUICK = ("reported", "confirmed")


# a few points in the quick run, each point in the long one
@pytest.mark.parametrize("state", [s if s in QUICK else pytest.param(s, marks=pytest.mark.long) for s in STATES])
def test_what_the_match_page_offers_is_what_its_views_accept(client, other_coach, board_member, state):
    match = factories.league_match()
    STATES[state](match, board_member)
    problems = set()
    for role in ROLES:
        user = user_for(role, match, other_coach, board_member)
        client.logout()
        if user:
            client.force_login(user)
        match = Match.objects.select_related("home", "away", "prematch").get(pk=match.pk)
        offered = match_actions(user, match, board=user is not None and is_board(user))
        for action, (view, data) in _posts(match).items():
            before = _state(match)
            with transaction.atomic():
                client.post(reverse(view, args=[match.pk]), data)
                accepted = _state(match) != before
                transaction.set_rollback(True)
            if accepted != bool(getattr(offered, action)):
                problems.add((state, role, action))
        for team in (match.home, match.away):
            shown = client.get(reverse("match_postmatch", args=[match.pk, team.pk])).status_code == 200
            if shown != (team in offered.postmatch):
                problems.add((state, role, f"post-match of {team}"))
    assert problems == {p for p in OFFERED_BY_NO_PAGE if p[0] == state}
