"""A sequence's row is made by its first step's POST, not by a GET (issue 24): two first steps at the same
moment still make one row and both count (PostgreSQL)."""

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import PostMatch, PreMatch, SquadEntry
from tests.concurrency import require_postgres, run_together
from tests.matches.test_postmatch import played  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_both_coaches_pick_their_squads_at_once_on_a_prematch_not_begun(league_match):
    require_postgres()
    match = league_match
    assert not PreMatch.objects.filter(match=match).exists()
    url = reverse("match_prematch_step", args=[match.pk, "squad"])
    posts = [
        (_logged_in(team.coach), {"team": team.pk, "players": [p.pk for p in team.players.all()]})
        for team in (match.home, match.away)
    ]
    results = run_together([lambda c=c, data=data: c.post(url, data) for c, data in posts])
    assert [getattr(r, "status_code", r) for r in results] == [302, 302]
    assert PreMatch.objects.get(match=match).done == PreMatch.Step.SQUADS
    assert SquadEntry.objects.filter(match=match, team=match.home).exists()
    assert SquadEntry.objects.filter(match=match, team=match.away).exists()


def test_two_tabs_begin_a_postmatch_without_its_row_at_once(played):  # noqa: F811
    require_postgres()
    match, home, *_ = played
    PostMatch.objects.filter(match=match, team=home).delete()  # not begun, as a league before issue 24 has it
    step = reverse("match_postmatch_step", args=[match.pk, home.pk, "winnings"])
    tabs = [_logged_in(home.coach) for _ in range(2)]
    results = run_together([lambda c=c: c.post(step, {"roll": "", "kiosk": ""}) for c in tabs])
    assert not [r for r in results if isinstance(r, Exception)]
    assert PostMatch.objects.get(match=match, team=home).done == PostMatch.Step.WINNINGS
