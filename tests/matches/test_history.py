"""Every change to a history-tracked row leaves a history record; the player's and the match's pages
show them (issue 11)."""

import pytest
from django.urls import reverse

from matches.models import PlayerMatch
from matches.postmatch.injury_step import injuries
from matches.postmatch.mvp import mvp
from matches.postmatch.steps import stadium, winnings
from teams.models import Player, Team
from tests.matches.test_postmatch import played  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def test_the_report_the_deaths_and_the_mvp_are_in_the_history(client, played):  # noqa: F811
    match, home, away, h, a = played
    # confirmation: two touchdowns (R28) on his record and in his history
    scorer = Player.objects.get(pk=h[0].pk)
    assert scorer.history.first().touchdowns == scorer.touchdowns == 2
    page = client.get(reverse("player", args=[scorer.pk]))
    assert page.context["history"][0]["touchdowns"] == 2
    assert page.context["history"][0]["spp"] == 14 + 2 * 3  # 14 completions, 2 TD (R28)
    winnings(match, home, roll=[4], kiosk=[3], by=home.coach)
    winnings(match, away, roll=[2], by=away.coach)
    injuries(match, home, by=home.coach)
    injuries(match, away, by=away.coach)  # no Bandage Crew attempt: #2 stays dead (R25)
    assert Player.objects.get(pk=a[1].pk).history.first().status == Player.Status.DEAD
    for team in (home, away):
        stadium(match, team, by=team.coach)
    mvp(match, home, roll=[2], by=home.coach)  # #2, who earned SPP with a casualty (R27)
    assert Player.objects.get(pk=h[1].pk).history.first().mvps == 1
    assert Team.objects.get(pk=home.pk).history.first().mvps_received == 1
    line = PlayerMatch.objects.get(match=match, player=h[1])
    assert line.history.first().mvps == 1
    page = client.get(reverse("match", args=[match.pk]))
    mvp_row = page.context["report_history"][0]
    assert (mvp_row.player_id, mvp_row.mvps, mvp_row.spp) == (h[1].pk, 1, 2 + 5)  # casualty 2 + MVP 5 (R28)
    assert "The players in the report" in page.content.decode()
    dead_rows = [r for r in page.context["report_history"] if r.injury == "dead"]
    assert [r.player_id for r in dead_rows] == [a[1].pk]
