"""The season end sent by two boards at the same moment pays each prize once (issue 10, R32).

commit_season_end locks the season row before it checks for a SeasonEnd (one per season in the
database), and every prize line carries an idempotency key: the second commit changes nothing."""

import threading
import time

import pytest
from django.urls import reverse

from league.models import Season, SeasonEnd, SeasonEntry, TiebreakGame
from league.seasons.services import fixtures, season_end
from league.seasons.services.fixtures import record_tiebreak
from teams.models import TreasuryEntry
from tests.concurrency import require_postgres, run_together
from tests.seasons.test_board_concurrency import boards
from tests.seasons.test_season_services import run_season

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_season_end_commits_at_once_pay_the_prizes_once_r32(season_with, board_member, make_user):
    require_postgres()
    season, teams = season_with(4, 3)
    rank = {t.pk: i for i, t in enumerate(teams)}
    run_season(season, board_member, lambda m: (2, 0) if rank[m.home_id] < rank[m.away_id] else (0, 1))
    clients = boards(make_user)
    url = reverse("season_end", args=[season.pk])
    responses = run_together([lambda c=c: c.post(url, {"next_name": "Season 2"}) for c in clients])
    assert all(not isinstance(r, Exception) and r.status_code == 302 for r in responses), responses
    assert SeasonEnd.objects.count() == 1 and Season.objects.filter(name="Season 2").count() == 1
    # 1st division 60,000 / 40,000 / 20,000, 2nd division 30,000 / 10,000: five prize lines, once each.
    prizes = TreasuryEntry.objects.filter(kind=TreasuryEntry.Kind.PRIZE)
    assert sorted(prizes.values_list("amount", flat=True)) == [10_000, 20_000, 30_000, 40_000, 60_000]


@pytest.mark.parametrize("first", ["end", "take-back"])
def test_a_tiebreak_game_taken_back_as_the_season_ends_is_one_or_the_other_r31(
    season_with, board_member, make_user, monkeypatch, first
):
    """Both lock the season first. The season end that has read its tables (with the game) holds the lock
    until it commits: the take-back waits and is refused. A take-back that holds it first commits: the
    season end waits, finds the top tied again and is refused. Never a season ended on a table whose
    tiebreak game is gone. `first` holds the lock half a second after its read, the other sent meanwhile."""
    require_postgres()
    season, _teams = season_with(2, 2)
    # every match 1-1: both divisions tied at the top; the 2nd division's tie is split here for good
    run_season(season, board_member, lambda m: (1, 1))
    d1, d2 = season.divisions.order_by("level")
    pairs = {d.pk: [e.team for e in SeasonEntry.objects.filter(division=d).order_by("team_id")] for d in (d1, d2)}
    record_tiebreak(d2, winner=pairs[d2.pk][0], loser=pairs[d2.pk][1], by=board_member)
    game = record_tiebreak(d1, winner=pairs[d1.pk][0], loser=pairs[d1.pk][1], by=board_member)
    held = threading.Event()

    def holding(read):
        def hold(*args, **kwargs):
            result = read(*args, **kwargs)  # under the season's lock
            held.set()
            time.sleep(0.5)
            return result

        return hold

    if first == "end":  # the season end's plan, read from the tables with the game
        monkeypatch.setattr(season_end, "season_end_preview", holding(season_end.season_end_preview))
    else:  # the take-back's check, its lock taken
        monkeypatch.setattr(fixtures, "_refuse_if_season_ended", holding(fixtures._refuse_if_season_ended))
    clients = boards(make_user)
    end_url = reverse("season_end", args=[season.pk])
    withdraw_url = reverse("season_tiebreak_withdraw", args=[season.pk, game.pk])

    def end():
        if first != "end":
            assert held.wait(10)
        return clients[0].post(end_url, {"next_name": "Season 2"})

    def withdraw():
        if first == "end":
            assert held.wait(10)
        return clients[1].post(withdraw_url)

    responses = run_together([end, withdraw])
    assert all(not isinstance(r, Exception) and r.status_code in (302, 422) for r in responses), responses
    ended = SeasonEnd.objects.filter(season=season).exists()
    assert ended == (first == "end")
    assert TiebreakGame.objects.filter(pk=game.pk).exists() == ended
    assert Season.objects.filter(name="Season 2").exists() == ended
