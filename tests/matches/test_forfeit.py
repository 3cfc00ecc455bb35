"""R35 forfeits (Oberwald FAQ 3.7): the forfeiting team gets no winnings, MVP or SPP and loses 2 FF;
the opponent is awarded the win 2-0 and rolls its winnings as a winner; the standings count it."""

import pytest
from django.urls import reverse

from league import services as league_services
from league.selectors import division_lines
from matches import postmatch as post
from matches import prematch as pm
from matches.models import Match, PostMatch
from matches.report import ReportError, reopen_report, void_match
from matches.results import MatchError, record_forfeit
from teams.models import Team, TreasuryEntry
from teams.services import correct_team, treasury

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture_pair(season_with, board_member):
    """Team A (home) and Team B: 11 Linemen each (TR 55); Team A has fan factor 3."""
    season, teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    league_services.generate_fixtures(division)
    correct_team(teams[0], reason="FF for the test", by=board_member, changes={"fan_factor": 3})
    match = Match.objects.filter(division=division).order_by("round", "pk").first()
    assert (match.home.name, match.away.name) == ("Team A", "Team B")
    return match


def test_a_forfeit_pays_and_counts_as_r35_says(fixture_pair, board_member):
    match = fixture_pair
    home, away = match.home, match.away
    record_forfeit(match, home, by=board_member)
    match.refresh_from_db()
    assert (match.status, match.home_score, match.away_score, match.winner_id) == ("confirmed", 0, 2, away.pk)
    assert Team.objects.get(pk=home.pk).fan_factor == 1  # 3 - 2 (R35)
    # the forfeiting team: no post-match sequence, so no winnings, MVP or SPP
    assert list(PostMatch.objects.filter(match=match).values_list("team_id", flat=True)) == [away.pk]
    with pytest.raises(post.PostMatchError, match="R35"):
        post.winnings(match, home, roll=[6], by=home.coach)
    # the winner rolls as a winner: D6 4 + 1 winner + Kampbonus row 0-20,000 (no gate), column ≤99 (TR 55) +1
    before = treasury(away)
    pm_away = post.winnings(match, away, roll=[4], by=away.coach)
    assert pm_away.winnings == 60_000 and treasury(away) == before + 60_000  # (4 + 1 + 1) × 10,000 (R20)
    assert not TreasuryEntry.objects.filter(team=home, kind=TreasuryEntry.Kind.WINNINGS).exists()
    post.injuries(match, away, by=away.coach)
    post.stadium(match, away, by=away.coach)
    assert post.mvp(match, away, by=away.coach).mvp_id is None  # nobody played
    # the table: Team B won 2-0 (3 points, R31), Team A lost
    lines = {x.team: x for x in division_lines(match.division)}
    assert (lines[away.pk].won, lines[away.pk].points, lines[away.pk].touchdowns_for) == (1, 3, 2)
    assert (lines[home.pk].lost, lines[home.pk].points) == (1, 0)


def test_the_winner_at_home_gets_no_home_bonus_for_a_match_not_played(fixture_pair, board_member):
    match = fixture_pair
    record_forfeit(match, match.away, by=board_member)
    match.refresh_from_db()
    assert (match.home_score, match.away_score) == (2, 0)
    assert Team.objects.get(pk=match.away_id).fan_factor == 0  # FF never below 0
    # D6 4 + 1 winner + table +1; no home +1: nobody came (R35, R20)
    assert post.winnings(match, match.home, roll=[4], by=None).winnings == 60_000


def test_the_forfeiter_plays_on_the_winner_walks_its_post_match_first(fixture_pair, board_member):
    match = fixture_pair
    record_forfeit(match, match.home, by=board_member)
    following = Match.objects.filter(division=match.division, status="scheduled").first()
    loser, winner = match.home, match.away
    pm.pick_squad(following, loser, [p.pk for p in loser.players.all()], by=None)
    with pytest.raises(pm.PreMatchError, match="post-match sequence"):
        pm.pick_squad(following, winner, [p.pk for p in winner.players.all()], by=None)


def test_a_forfeit_is_recorded_once_and_voided_gives_the_fan_factor_back(fixture_pair, board_member):
    match = fixture_pair
    record_forfeit(match, match.home, by=board_member)
    with pytest.raises(MatchError, match="already has a result"):
        record_forfeit(match, match.away, by=board_member)
    with pytest.raises(ReportError, match="void it"):
        reopen_report(match, by=board_member)
    void_match(match, by=board_member)
    assert Team.objects.get(pk=match.home_id).fan_factor == 3
    assert not PostMatch.objects.filter(match=match).exists()
    assert all(x.played == 0 for x in division_lines(match.division))


@pytest.mark.parametrize("who", ["anonymous", "home_coach", "other_coach", "board"])
def test_the_forfeit_post_permission_matrix(client, fixture_pair, board_member, other_coach, who):
    match = fixture_pair
    user = {"anonymous": None, "home_coach": match.home.coach, "other_coach": other_coach, "board": board_member}
    if user[who]:
        client.force_login(user[who])
    response = client.post(reverse("match_forfeit", args=[match.pk]), {"team": match.home_id})
    match.refresh_from_db()
    if who == "board":
        assert response.status_code == 302 and match.forfeited_by_id == match.home_id
    else:
        assert response.status_code in (302, 403) and match.status == Match.Status.SCHEDULED
        if who != "anonymous":
            assert response.status_code == 403


def test_a_bad_forfeit_post_changes_nothing(client, fixture_pair, board_member, make_teams):
    match = fixture_pair
    stranger = make_teams(1, prefix="X")[0]
    client.force_login(board_member)
    response = client.post(reverse("match_forfeit", args=[match.pk]), {"team": stranger.pk}, follow=True)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
