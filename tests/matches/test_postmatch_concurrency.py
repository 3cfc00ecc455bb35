"""Two tabs submitting the same post-match step at once pay and roll once (PostgreSQL)."""

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import DiceRoll, PostMatch
from teams.ledger import treasury
from tests.concurrency import require_postgres, run_together
from tests.matches.test_postmatch import played  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_tabs_submit_the_winnings_at_once(played):  # noqa: F811
    require_postgres()
    match, home, *_ = played
    before = treasury(home)
    clients = []
    for _ in range(3):
        c = Client()
        c.force_login(home.coach)
        clients.append(c)
    step = reverse("match_postmatch_step", args=[match.pk, home.pk, "winnings"])
    results = run_together([lambda c=c: c.post(step, {"roll": "", "kiosk": ""}) for c in clients])
    assert not [r for r in results if isinstance(r, Exception)]
    postmatch = PostMatch.objects.get(match=match, team=home)
    assert postmatch.done == 1
    assert treasury(home) == before + postmatch.winnings + postmatch.kiosk
    assert DiceRoll.objects.filter(match=match, purpose=f"winnings:{home.pk}").count() == 1
