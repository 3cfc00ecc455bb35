"""A coach's post-match step racing the board's void or reopen on PostgreSQL (20 races in `make test`,
100 in `make test-long`), no server error. The league version was once raised inside the writing
transaction, just before COMMIT, after the deferred foreign-key checks had locked rows: two such
transactions deadlocked in 7 races of 8. It is now raised after the commit (league.lib.writes) and
takes no lock inside a write.

Each race is a forfeit (R35), whose forfeiter's purchases step leaves the forfeit voidable (R42) and
whose awarded team's winnings do not: the three requests go at once, and whichever comes first wins."""

import pytest
from django.test import Client
from django.urls import reverse

from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match
from matches.results import record_forfeit
from tests.concurrency import require_postgres, run_together
from tests.sizes import size

pytestmark = pytest.mark.django_db(transaction=True)
RACES = size("STEP_RACES", 20, 100)  # tests/sizes.py: a sample in `make test`, 100 in `make test-long`


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_races_of_a_coachs_step_against_the_boards_void_or_reopen(season_with, board_member):
    require_postgres()
    season, _teams = season_with(2, 0)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    home, away = (e.team for e in division.entries.select_related("team__coach").order_by("team__name"))
    forfeiter, awarded, board = _client(home.coach), _client(away.coach), _client(board_member)
    outcomes = []
    for race in range(RACES):
        match = Match.objects.create(season=season, division=division, round=100 + race, home=home, away=away)
        record_forfeit(match, home, by=board_member)
        action = "match_void" if race % 2 == 0 else "match_reopen"
        results = run_together(
            [
                lambda m=match: forfeiter.post(reverse("match_postmatch_step", args=[m.pk, home.pk, "purchases"])),
                lambda m=match: awarded.post(
                    reverse("match_postmatch_step", args=[m.pk, away.pk, "winnings"]), {"roll": "3"}
                ),
                lambda m=match, a=action: board.post(reverse(a, args=[m.pk])),
            ]
        )
        errors = [r for r in results if isinstance(r, Exception) or r.status_code >= 500]
        assert not errors, f"race {race}: {errors}"
        outcomes.append(Match.objects.get(pk=match.pk).status)
    # both ways happened: some voids came first, some steps did (the void then refused: winnings paid)
    assert Match.Status.VOID in outcomes and Match.Status.CONFIRMED in outcomes
