"""R35 forfeits (Oberwald FAQ 3.7): the forfeiting team gets no winnings, MVP or SPP and loses 2 FF;
the opponent is awarded the win 2-0 and rolls its winnings as a winner; the standings count it."""

import pytest
from django.urls import reverse

from league.seasons.selectors import division_lines
from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match, PostMatch, PreMatch
from matches.playthrough import walk_postmatch
from matches.postmatch.base import PostMatchError
from matches.postmatch.development import develop
from matches.postmatch.injury_step import injuries
from matches.postmatch.mvp import mvp
from matches.postmatch.steps import complete, fan_factor, purchases_done, stadium, winnings
from matches.prematch.base import PreMatchError, get_prematch
from matches.prematch.opening import pick_squad
from matches.report.confirmation import reopen_report, void_match
from matches.report.filing import ReportError
from matches.results import MatchError, record_forfeit
from teams.corrections import correct_team
from teams.ledger import treasury
from teams.models import Player, Team, TreasuryEntry
from teams.services import buy_facility

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture_pair(season_with, board_member):
    """Team A (home) and Team B: 11 Linemen each (TR 55); Team A has fan factor 3."""
    season, teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
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
    # the forfeiting team: a post-match sequence of the steps that apply, with no winnings (R35, R42)
    assert set(PostMatch.objects.filter(match=match).values_list("team_id", flat=True)) == {home.pk, away.pk}
    with pytest.raises(PostMatchError, match="R35"):
        winnings(match, home, roll=[6], by=home.coach)
    # the winner rolls as a winner: D6 4 + 1 winner + Kampbonus row 0-20,000 (no gate), column ≤99 (TR 55) +1
    before = treasury(away)
    pm_away = winnings(match, away, roll=[4], by=away.coach)
    assert pm_away.winnings == 60_000 and treasury(away) == before + 60_000  # (4 + 1 + 1) × 10,000 (R20)
    assert not TreasuryEntry.objects.filter(team=home, kind=TreasuryEntry.Kind.WINNINGS).exists()
    # nobody played: no injuries, no stadium damage, no MVP among those who played (R27, R42)
    for step in (injuries, stadium, mvp):
        with pytest.raises(PostMatchError, match="R42"):
            step(match, away, by=away.coach)
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
    assert winnings(match, match.home, roll=[4], by=None).winnings == 60_000


def test_both_teams_walk_what_applies_of_their_post_match_first(fixture_pair, board_member):
    """R42: both teams' post-match sequences have only the steps that apply, then both go on."""
    match = fixture_pair
    record_forfeit(match, match.home, by=board_member)
    following = Match.objects.filter(division=match.division, status="scheduled").first()
    loser, winner = match.home, match.away
    for team in (loser, winner):
        with pytest.raises(PreMatchError, match="post-match sequence"):
            pick_squad(following, team, [p.pk for p in team.players.all()], by=None)
    walk_postmatch(match)
    for team in (loser, winner):
        pick_squad(following, team, [p.pk for p in team.players.all()], by=None)
    assert get_prematch(following).done == PreMatch.Step.SQUADS


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
    response = client.post(reverse("match_forfeit", args=[match.pk]), {"team": stranger.pk})
    assert response.status_code == 422  # the match page again, the error beside the field
    assert "Select a valid choice" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_a_refused_forfeit_is_said_on_the_match_page(client, fixture_pair, board_member):
    match = fixture_pair
    client.force_login(board_member)
    client.post(reverse("match_forfeit", args=[match.pk]), {"team": match.home_id})
    response = client.post(reverse("match_forfeit", args=[match.pk]), {"team": match.away_id})  # a stale page
    assert response.status_code == 422
    html = response.content.decode()
    assert '<ul class="errorlist errors" role="alert">' in html  # above the actions: the form is gone
    match.refresh_from_db()
    assert match.forfeited_by_id == match.home_id


# --- R42: both teams' post-match sequences have only the steps that apply (issue 24) -------------------


def test_the_forfeiters_post_match_is_its_purchases_and_new_rating_r35_r42(fixture_pair, board_member):
    match = fixture_pair
    loser = match.home
    hurt = loser.players.order_by("number").first()
    Player.objects.filter(pk=hurt.pk).update(miss_matches=1)
    record_forfeit(match, loser, by=board_member)  # FF 3 - 2 = 1 (R35)
    match.refresh_from_db()
    before = treasury(loser)
    # no winnings, injuries or stadium of a match not played, no MVP, no SPP, no fan factor roll (R35, R42)
    skipped = [
        (winnings, {"roll": [6]}),
        (injuries, {}),
        (stadium, {}),
        (mvp, {}),
        (develop, {"choices": {}}),
        (fan_factor, {"roll": [6]}),
    ]
    for step, kwargs in skipped:
        with pytest.raises(PostMatchError, match=r"R3[57]|R42"):
            step(match, loser, by=loser.coach, **kwargs)
    purchases_done(match, loser, by=loser.coach)
    done = complete(match, loser, by=loser.coach)
    assert done.done == PostMatch.Step.TEAM_RATING and done.completed_at is not None
    # R1, R3: 10 available Linemen at 50,000 and FF 1 (the hurt one still misses a match: he played none, R37)
    assert done.team_rating == 51
    assert Player.objects.get(pk=hurt.pk).miss_matches == 1
    team = Team.objects.get(pk=loser.pk)
    assert (team.fan_factor, treasury(team), team.mvps_received) == (1, before, 0)  # the 2 FF taken once
    assert not match.dice.filter(team=loser).exists()


def test_the_awarded_team_rolls_fan_factor_for_a_win_and_two_touchdowns_only_r42(fixture_pair, board_member):
    match = fixture_pair
    winner = match.home  # FF 3, at home
    buy_facility(winner, "tv_station", by=winner.coach)
    hurt = winner.players.order_by("number").first()
    Player.objects.filter(pk=hurt.pk).update(miss_matches=1)
    record_forfeit(match, match.away, by=board_member)
    match.refresh_from_db()
    # D6 4 + 1 winner + 1 (column ≤99) at the lowest attendance row, no home bonus: 60,000 (R20, R42)
    assert winnings(match, winner, roll=[4], by=winner.coach).winnings == 60_000
    # D6 3 + win 1 + 2 touchdowns 1 = 5: 2–5 is no change (R30). No casualties, no crowd, and no TV
    # station: no match was broadcast (R42), which would have made it 6 and +1.
    after = fan_factor(match, winner, roll=[3], by=winner.coach)
    assert after.fan_factor_change == 0 and Team.objects.get(pk=winner.pk).fan_factor == 3
    assert "TV" not in " ".join(after.explanations["fan_factor"])
    purchases_done(match, winner, by=winner.coach)
    assert complete(match, winner, by=winner.coach).done == PostMatch.Step.TEAM_RATING
    assert Player.objects.get(pk=hurt.pk).miss_matches == 1  # R37: no match played
    assert Team.objects.get(pk=winner.pk).mvps_received == 0  # nobody played: no MVP (R27)


def test_the_fan_factor_roll_of_a_forfeit_win_can_raise_it_r30_r42(fixture_pair, board_member):
    match = fixture_pair
    record_forfeit(match, match.home, by=board_member)
    match.refresh_from_db()
    winnings(match, match.away, roll=[1], by=None)
    # FF 0 (it starts at 0): D6 4 + win 1 + 2 touchdowns 1 = 6, over 5: +1 (R30)
    assert fan_factor(match, match.away, roll=[4], by=None).fan_factor_change == 1
    assert Team.objects.get(pk=match.away_id).fan_factor == 1


def postmatch_url(match, team, step=None):
    if step:
        return reverse("match_postmatch_step", args=[match.pk, team.pk, step])
    return reverse("match_postmatch", args=[match.pk, team.pk])


def test_both_post_match_pages_walk_to_the_end_r42(client, fixture_pair, board_member):
    match = fixture_pair
    loser, winner = match.home, match.away
    record_forfeit(match, loser, by=board_member)
    client.force_login(loser.coach)
    html = client.get(postmatch_url(match, loser)).content.decode()
    # each step that does not apply says so, with its ruling
    assert html.count("Not applicable") == 6 and "R35" in html and "R42" in html
    assert "Purchases done" in html
    for step in ("purchases", "complete"):
        response = client.post(postmatch_url(match, loser, step), HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content.decode()[:500]
    assert "The post-match sequence is complete." in response.content.decode()
    client.force_login(winner.coach)
    html = client.get(postmatch_url(match, winner)).content.decode()
    assert html.count("Not applicable") == 0  # its winnings come first; the rest is not shown yet
    for step, data in (("winnings", {"roll": "4"}), ("fan-factor", {"roll": "3"}), ("purchases", {}), ("complete", {})):
        response = client.post(postmatch_url(match, winner, step), data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content.decode()[:500]
        assert "errorlist" not in response.content.decode()
    html = response.content.decode()
    assert html.count("Not applicable") == 4  # injuries, stadium, MVP, development (R42)
    assert {p.done for p in PostMatch.objects.filter(match=match)} == {PostMatch.Step.TEAM_RATING}


def test_the_forfeiters_winnings_are_refused_with_the_ruling_on_the_page(client, fixture_pair, board_member):
    match = fixture_pair
    record_forfeit(match, match.home, by=board_member)
    client.force_login(match.home.coach)
    response = client.post(postmatch_url(match, match.home, "winnings"), {"roll": "6"}, follow=True)
    assert "R35" in response.content.decode()
    assert not TreasuryEntry.objects.filter(team=match.home, kind=TreasuryEntry.Kind.WINNINGS).exists()


@pytest.mark.parametrize("who", ["anonymous", "other_coach", "own_coach", "board"])
def test_the_forfeiters_purchases_step_permission_matrix(client, fixture_pair, board_member, other_coach, who):
    match = fixture_pair
    record_forfeit(match, match.home, by=board_member)
    user = {"anonymous": None, "other_coach": other_coach, "own_coach": match.home.coach, "board": board_member}[who]
    if user:
        client.force_login(user)
    response = client.post(postmatch_url(match, match.home, "purchases"))
    done = PostMatch.objects.get(match=match, team=match.home).done
    allowed = who in ("own_coach", "board")
    assert done == (PostMatch.Step.PURCHASES if allowed else 0)
    assert response.status_code == (302 if allowed else 403)
