"""One decision read by the page and held by the views: at each point of the pre-match sequence and for
each person, every step the pre-match page offers (matches.selectors.prematch_turn) is accepted when posted,
and every step it does not offer is refused, the sequence left as it was."""

import pytest
from django.db import transaction
from django.urls import reverse

from matches.models import DiceRoll, PreMatch, SquadEntry
from matches.prematch.opening import pick_squad
from teams.models import Player
from tests import factories
from tests.matches.test_prematch import advance_to
from tests.matches.test_report import ROLES, user_for

pytestmark = pytest.mark.django_db
S = PreMatch.Step


def _home_picked(match):
    pick_squad(match, match.home, [p.pk for p in match.home.players.all()], by=None)


def _niggling(match):  # a home player's niggling injury waits for its check (R36); the away team has none
    Player.objects.filter(pk=match.home.players.order_by("number").first().pk).update(niggling=1)
    advance_to(match, S.NIGGLING)


STATES = {
    "begun": lambda match: None,
    "home squad picked": _home_picked,
    "squads": lambda match: advance_to(match, S.WEATHER),
    "weather": lambda match: advance_to(match, S.TICKETS),
    "tickets": lambda match: advance_to(match, S.GATE),
    "niggling": _niggling,
    "niggling checked": lambda match: advance_to(match, S.HANDICAP),
    "walked": factories.ready_match,
}


def _steps(match):
    """Each step's POST (its address and what its form sends) and whether a turn offers it."""
    steps = {}
    for n, team in enumerate((match.home, match.away)):
        players = [p.pk for p in team.players.all()]
        steps[f"squad {team}"] = ("squad", {"team": team.pk, "players": players}, lambda t, n=n: t.sides[n].may_squad)
        steps[f"niggling {team}"] = ("niggling", {"team": team.pk}, lambda t, n=n: t.sides[n].may_niggling)
    for name, step, data in (
        ("weather", S.WEATHER, {}),
        ("tickets", S.TICKETS, {"ticket": "ordinary"}),
        ("gate", S.GATE, {}),
        ("handicap", S.HANDICAP, {}),
    ):
        steps[name] = (name, data, lambda t, step=step: t.may_step and t.step == step)
    return steps


def _sequence(match):
    return (
        list(PreMatch.objects.filter(match=match).values()),
        list(SquadEntry.objects.filter(match=match).values_list("pk", "status")),
        DiceRoll.objects.filter(match=match).count(),
    )


QUICK = ("begun", "niggling")


# a few points in the quick run, each point in the long one
@pytest.mark.parametrize("state", [s if s in QUICK else pytest.param(s, marks=pytest.mark.long) for s in STATES])
def test_what_the_prematch_page_offers_is_what_its_steps_accept(client, other_coach, board_member, state):
    match = factories.league_match()
    STATES[state](match)
    problems = []
    for role in ROLES:
        user = user_for(role, match, other_coach, board_member)
        client.logout()
        if user:
            client.force_login(user)
        page = client.get(reverse("match_prematch", args=[match.pk]))
        turn = page.context["turn"] if page.status_code == 200 else None  # no page: nothing offered
        for name, (step, data, offers) in _steps(match).items():
            offered = turn is not None and offers(turn)
            before = _sequence(match)
            with transaction.atomic():
                client.post(reverse("match_prematch_step", args=[match.pk, step]), data)
                accepted = _sequence(match) != before
                transaction.set_rollback(True)
            if accepted != offered:
                problems.append(f"{role} {name}: {'offered' if offered else 'not offered'}, accepted {accepted}")
    assert not problems, "\n".join(problems)
