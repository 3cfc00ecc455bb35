"""The coach's own page (issue 12): his teams, his next match, and a to-do per thing waiting for him."""

import datetime
from datetime import date, timedelta

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from league.models import Season
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from matches import scheduling
from matches.models import DevelopmentRoll, DiceRoll, HandicapDraw, Match, PreMatch
from matches.playthrough import walk_postmatch
from matches.postmatch.steps import complete, fan_factor, purchases_done, winnings
from matches.prematch.base import PreMatchError
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import roll_handicap
from matches.report.confirmation import confirm_report
from matches.report.filing import ReportError, ReportInput, file_report
from matches.results import record_forfeit
from matches.selectors import coach_todos, scheduled_for
from teams.models import Player, Team
from tests import factories
from tests.conftest import PASSWORD, has_amount

pytestmark = pytest.mark.django_db


def todos_of(user, *, today=None):
    teams = list(Team.objects.filter(coach=user).select_related("race"))
    scheduled = list(scheduled_for([t.pk for t in teams]))
    return coach_todos(user, teams, scheduled, today=today or timezone.localdate())


def kinds(user, **kw):
    return [t.kind for t in todos_of(user, **kw)]


def test_the_board_without_a_team_lands_on_its_desk(client, board_member):
    client.force_login(board_member)
    response = client.get(reverse("coach_home"))
    assert response.status_code == 302 and response.url == reverse("board_desk")


def test_a_new_coach_without_a_team_is_asked_to_found_one(client, make_user):
    """Issue 37: log-in and /my/ sent a new coach to the front page, and nothing told him to found a team."""
    coach = make_user("ny_trener")
    client.force_login(coach)
    response = client.get(reverse("coach_home"))
    assert response.status_code == 200
    assert [t.kind for t in response.context["todos"]] == ["found_team"]
    assert f'href="{reverse("team_create")}"' in response.content.decode()


def test_anonymous_is_sent_to_log_in(client):
    response = client.get(reverse("coach_home"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def walk(match):
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=None, away_dice=None, by=None)
    roll_handicap(match, by=None)


def test_the_match_list_filters_by_team_and_division(client, season_with):
    season, teams = season_with(2, 2)
    for division in season.divisions.all():
        generate_fixtures(division)
    first, second = season.divisions.order_by("level")
    url = reverse("matches")
    by_team = client.get(url, {"season": season.pk, "team": teams[0].pk}).context["board"].rounds
    shown = [m for ms in by_team.values() for m in ms]
    assert shown and all(teams[0].pk in (m["home_id"], m["away_id"]) for m in shown)
    by_division = client.get(url, {"season": season.pk, "division": second.pk}).context["board"].rounds
    assert {m["division_id"] for ms in by_division.values() for m in ms} == {second.pk}
    everything = client.get(url, {"season": season.pk, "team": "x"}).context["board"].rounds
    assert {m["division_id"] for ms in everything.values() for m in ms} == {first.pk, second.pk}


@pytest.fixture
def cup_match(season_with, board_member):
    season, teams = season_with(2, 2)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board_member)
    return cup.matches.get(round=1, cup_slot=0)


@pytest.mark.parametrize("who, allowed", [("anonymous", False), ("other", False), ("own", False), ("board", True)])
def test_only_the_board_dates_a_cup_match(client, cup_match, board_member, make_user, who, allowed):
    users = {"other": make_user("someone"), "own": cup_match.home.coach, "board": board_member}
    if who in users:
        client.force_login(users[who])
    day = timezone.localdate() + timedelta(days=7)
    response = client.post(reverse("match_move", args=[cup_match.pk]), {"round": 5, "date": day.isoformat()})
    cup_match.refresh_from_db()
    assert cup_match.round == 1  # the round is the bracket's (R34), never moved
    assert (cup_match.date == day) is allowed
    assert response.status_code == (302 if allowed else 403)
    if allowed:
        assert day.strftime("%-d. %b") in client.get(reverse("cup", args=[cup_match.season_id])).content.decode()


# --- the league's order: the last match's post-match before the next match's pre-match (issue 24) -----


def next_fixture(match):
    return (
        Match.objects.filter(division=match.division, status=Match.Status.SCHEDULED)
        .exclude(pk=match.pk)
        .order_by("round", "pk")
        .first()
    )


def take(todo):
    """Do what a pre-match squads to-do offers: the page must accept it."""
    pick_squad(todo.match, todo.team, [p.pk for p in todo.team.players.all()], by=todo.team.coach)


def test_a_post_match_left_in_an_ended_season_comes_before_the_next_pre_match(league_match, ready_match):
    """pick_squad refuses while any post-match is unfinished, whichever season it is in: the to-dos offer
    that post-match, not the pre-match it would refuse."""
    match = ready_match
    file_report(match, ReportInput(home_score=1, away_score=0), by=match.home.coach)
    confirm_report(match, by=match.away.coach)
    ended = Season.objects.create(name="Season 0", ruleset=match.season.ruleset, status=Season.Status.FINISHED)
    following = next_fixture(match)
    Match.objects.filter(pk=match.pk).update(season=ended)
    with pytest.raises(PreMatchError, match="post-match sequence"):
        pick_squad(following, match.home, [p.pk for p in match.home.players.all()], by=None)
    [todo] = todos_of(match.home.coach)
    assert todo.kind == "postmatch" and todo.url == reverse("match_postmatch", args=[match.pk, match.home_id])
    walk_postmatch(match)
    [todo] = todos_of(match.home.coach)
    assert todo.kind == "prematch" and todo.match == following
    take(todo)


class TestALeagueMatch:
    """factories.league_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.league_match = factories.league_match()

    def test_a_coach_lands_on_his_own_page_after_logging_in(self, client):
        coach = self.league_match.home.coach
        response = client.post(reverse("login"), {"username": coach.username, "password": PASSWORD}, follow=True)
        assert response.redirect_chain[-1][0] == reverse("coach_home")
        html = response.content.decode()
        assert self.league_match.home.name in html and self.league_match.away.name in html
        assert "Home against" in html  # the first fixture of the generated round is his home match

    def test_the_nav_links_my_team_for_a_logged_in_coach(self, client, board_member):
        assert "My team" not in client.get(reverse("standings")).content.decode()
        client.force_login(self.league_match.home.coach)
        assert reverse("coach_home") in client.get(reverse("standings")).content.decode()
        client.force_login(board_member)
        assert 'class="nav-mine"' not in client.get(reverse("standings")).content.decode()

    def test_the_page_shows_tr_treasury_next_match_and_injuries(self, client):
        match = self.league_match
        home = match.home
        hurt = home.players.order_by("number").first()
        Player.objects.filter(pk=hurt.pk).update(niggling=1, miss_matches=1)
        client.force_login(home.coach)
        html = client.get(reverse("coach_home")).content.decode()
        # TR = value / 10,000 + SPP (R1). Home: the injured player misses the match, so 10 Linemen at 50,000
        # count (R3) + an apothecary 50,000 = 55; away: 11 Linemen = 55.
        assert "TR 55 against 55" in html
        # treasury: 1,000,000 to start - 11 × 50,000 - the apothecary's 50,000 = 400,000
        assert has_amount(html, 400000)
        assert f"#{hurt.number} {hurt.name}" in html and "1 NI" in html and "misses 1 match" in html
        assert match.division.name in html and "Home against" in html

    @pytest.mark.parametrize("kind", ["prematch", "report", "confirm", "postmatch"])
    def test_the_page_stays_within_its_query_budget(self, client, django_assert_max_num_queries, kind):
        match = self.league_match
        if kind != "prematch":
            walk(match)
        if kind in ("confirm", "postmatch"):
            file_report(match, ReportInput(home_score=1, away_score=0), by=match.away.coach)
        if kind == "postmatch":
            confirm_report(match, by=match.home.coach)
        client.force_login(match.home.coach)
        client.get(reverse("coach_home"))  # warm the session and the parsed ruleset
        # his team's and the opponent's sheets at six reads each whatever their sizes, the to-dos, the news
        with django_assert_max_num_queries(32):
            response = client.get(reverse("coach_home"))
        assert [t.kind for t in response.context["todos"]][:1] == [kind]

    def test_each_coach_picks_his_own_squad_r3(self):
        match = self.league_match
        home, away = match.home.coach, match.away.coach
        assert kinds(home) == ["prematch"] and kinds(away) == ["prematch"]
        assert "Squads" in todos_of(home)[0].label
        pick_squad(match, match.home, [p.pk for p in match.home.players.all()], by=home)
        assert kinds(home) == []  # waiting for the other coach's squad
        assert kinds(away) == ["prematch"]

    def test_the_ticket_price_waits_for_the_home_coach_only(self):
        match = self.league_match
        for team in (match.home, match.away):
            pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
        assert "Weather" in todos_of(match.away.coach)[0].label  # either coach rolls the weather
        roll_weather(match, entered=[3, 4], by=None)
        assert kinds(match.away.coach) == []
        todo = todos_of(match.home.coach)[0]
        assert "Ticket price" in todo.label and todo.url == reverse("match_prematch", args=[match.pk])

    def test_a_walked_pre_match_leaves_the_report_to_file(self):
        walk(self.league_match)
        for coach in (self.league_match.home.coach, self.league_match.away.coach):
            [todo] = todos_of(coach)
            assert todo.kind == "report" and todo.url == reverse("match_report", args=[self.league_match.pk])

    def test_the_report_waits_for_the_pre_match_even_on_the_match_day(self):
        """A report needs the finished pre-match (RULINGS, answers to the first turn): the squads and the gate
        are what the post-match works from. On the match day with no pre-match walked, the coach is sent to
        the pre-match (dice from the table can be typed in), never to a report form that refuses it."""
        match = self.league_match
        Match.objects.filter(pk=match.pk).update(date=date(2026, 11, 20))
        for today in (date(2026, 11, 19), date(2026, 11, 20), date(2026, 11, 27)):
            assert kinds(match.home.coach, today=today) == ["prematch"]
        with pytest.raises(ReportError, match="pre-match"):
            file_report(match, ReportInput(home_score=1, away_score=0), by=match.home.coach)
        walk(match)
        assert kinds(match.home.coach, today=date(2026, 11, 20)) == ["report"]

    def test_the_other_coach_confirms_and_then_both_walk_the_post_match(self):
        match = self.league_match
        walk(match)
        file_report(match, ReportInput(home_score=1, away_score=0), by=match.home.coach)
        assert "confirm" not in kinds(match.home.coach)  # he filed it: the other coach confirms
        [todo] = [t for t in todos_of(match.away.coach) if t.kind == "confirm"]
        assert todo.url == match.get_absolute_url() and "1–0" in todo.label
        confirm_report(match, by=match.away.coach)
        for team in (match.home, match.away):
            # the next match's squad waits until this post-match is done (pick_squad refuses before)
            [todo] = todos_of(team.coach)
            assert todo.kind == "postmatch" and todo.url == reverse("match_postmatch", args=[match.pk, team.pk])

    def test_a_development_roll_to_choose_replaces_the_post_match_to_do_r29(self):
        match = self.league_match
        walk(match)
        file_report(match, ReportInput(home_score=1, away_score=0), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        player = match.home.players.order_by("number").first()
        dice = DiceRoll.objects.create(
            match=match, step="development", purpose="development:x:1", sides=6, values=[2, 3]
        )
        DevelopmentRoll.objects.create(match=match, player=player, index=1, dice=dice, result="normal")
        assert kinds(match.home.coach) == ["levelup"]
        assert kinds(match.away.coach) == ["postmatch"]
        Player.objects.filter(pk=player.pk).update(mutation_choice_pending=True)  # R10: Tzeentch 12
        assert kinds(match.home.coach) == ["levelup", "levelup"]

    def test_the_team_page_lists_the_coming_matches(self, client):
        html = client.get(reverse("team", args=[self.league_match.home_id])).content.decode()
        assert "Coming matches" in html and reverse("match", args=[self.league_match.pk]) in html

    def test_a_forfeit_sends_both_coaches_to_what_applies_then_to_their_next_match_r35_r42(self, board_member):
        match = self.league_match
        loser, winner = match.home, match.away
        record_forfeit(match, loser, by=board_member)
        for team in (loser, winner):
            [todo] = todos_of(team.coach)  # the next pre-match waits: pick_squad would refuse it
            assert todo.kind == "postmatch" and todo.url == reverse("match_postmatch", args=[match.pk, team.pk])
        purchases_done(match, loser, by=loser.coach)  # R42: purchases and the new TR are what apply
        complete(match, loser, by=loser.coach)
        [todo] = todos_of(loser.coach)
        assert todo.kind == "prematch" and todo.match == next_fixture(match) and "Squads" in todo.label
        take(todo)
        winnings(match, winner, roll=[4], by=winner.coach)
        assert kinds(winner.coach) == ["postmatch"]
        fan_factor(match, winner, roll=[3], by=winner.coach)
        purchases_done(match, winner, by=winner.coach)
        complete(match, winner, by=winner.coach)
        [todo] = todos_of(winner.coach)
        assert todo.kind == "prematch"
        take(todo)

    def test_an_inspiration_is_chosen_in_the_pre_match_not_the_post_match_r23(self):
        """An Inspiration MVP's player and his development roll are chosen before the match (R23): the to-do
        is the pre-match's, never a level-up on a post-match page that is not open yet."""
        match = self.league_match
        walk(match)
        home = match.home
        player = home.players.order_by("number").first()
        dice = DiceRoll.objects.create(match=match, step="handicap", purpose="handicap:x", sides=6, values=[6, 5])
        draw = HandicapDraw.objects.create(
            match=match, team=home, index=1, key="inspiration", name="Inspiration", dice=dice
        )
        PreMatch.objects.filter(match=match).update(done=PreMatch.Step.HANDICAP)
        assert kinds(match.away.coach) == []  # waiting for the home coach
        [todo] = todos_of(home.coach)
        assert todo.kind == "prematch" and todo.url == reverse("match_prematch", args=[match.pk])
        HandicapDraw.objects.filter(pk=draw.pk).update(player=player)
        roll = DiceRoll.objects.create(
            match=match, step="development", purpose="development:y:1", sides=6, values=[2, 3]
        )
        DevelopmentRoll.objects.create(
            match=match, player=player, index=1, dice=roll, result="normal", before_match=True
        )
        [todo] = todos_of(home.coach)
        assert todo.kind == "prematch" and todo.url == reverse("match_prematch", args=[match.pk])


@pytest.mark.django_db
def test_an_undated_cup_tie_is_among_the_coming_matches_and_beside_the_next_one(client, board_member):
    """Issue 26: a dated league season sorts before an undated cup match; the team page still lists the
    cup tie and Mitt lag shows it beside the next league match."""
    season, teams = factories.season_with(8, 0)
    generate_fixtures(season.divisions.get(level=1))  # 14 rounds: more than the page lists
    league = Match.objects.filter(season=season, division__isnull=False)
    for match in league:
        league.filter(pk=match.pk).update(date=date(2027, 1, 1) + timedelta(days=7 * match.round))
    cup = draw_cup(
        season, teams=teams[:2], name="Torshov-cupen", prize=0, order=[t.pk for t in teams[:2]], by=board_member
    )
    tie = Match.objects.get(cup=cup)
    assert tie.date is None and tie.status == Match.Status.SCHEDULED
    team = tie.home
    html = client.get(reverse("team", args=[team.pk])).content.decode()
    coming = html.split('id="fixtures-title"')[1].split("</section>")[0]
    assert reverse("match", args=[tie.pk]) in coming and "Torshov-cupen" in coming
    assert coming.count('class="match-line"') == 6 + 1  # FIXTURES_SHOWN league matches and the cup tie
    client.force_login(team.coach)
    mine = client.get(reverse("coach_home")).content.decode()
    first = league.filter(Q(home=team) | Q(away=team)).order_by("date").first()
    assert reverse("match", args=[first.pk]) in mine  # the next match is still the dated league match
    assert reverse("match", args=[tie.pk]) in mine and "Torshov-cupen" in mine


def test_dates_the_other_coach_proposed_wait_on_mitt_lag_until_answered(client, league_match):
    """Issue 27: a proposal is a to-do for the coach who must answer it, not for the one who made it."""
    home, away = league_match.home.coach, league_match.away.coach
    soon = timezone.make_aware(
        datetime.datetime.combine(timezone.localdate() + datetime.timedelta(days=4), datetime.time(19))
    )
    [proposal] = scheduling.propose_dates(league_match, starts=[soon], by=home)
    [todo] = [t for t in todos_of(away) if t.kind == "date"]
    assert todo.match == league_match and todo.url.endswith(f"#schedule-{league_match.pk}")
    assert "date" not in kinds(home)
    client.cookies["django_language"] = "nb"
    client.force_login(away)
    assert "den andre treneren foreslår datoer" in client.get(reverse("coach_home")).content.decode()
    scheduling.accept_date(proposal, by=away)
    assert "date" not in kinds(away)


def test_a_proposal_that_can_no_longer_be_accepted_is_no_to_do(league_match, board_member):
    """The league year's machine found it: dates proposed before the weather was rolled stayed a to-do that
    only led to "the pre-match has begun". Likewise a date past a deadline set since."""
    home, away = league_match.home.coach, league_match.away.coach
    day = timezone.localdate() + datetime.timedelta(days=9)
    scheduling.propose_dates(
        league_match, starts=[timezone.make_aware(datetime.datetime.combine(day, datetime.time(19)))], by=home
    )
    assert "date" in kinds(away)
    scheduling.set_round_deadline(
        league_match.season,
        competition="league",
        round=league_match.round,
        deadline=day - datetime.timedelta(days=2),
        by=board_member,
    )
    assert "date" not in kinds(away)  # past the round's deadline: the board's word stands
    scheduling.set_round_deadline(
        league_match.season, competition="league", round=league_match.round, deadline=None, by=board_member
    )
    assert "date" in kinds(away)
    for team in (league_match.home, league_match.away):
        pick_squad(league_match, team, [p.pk for p in team.players.all()], by=None)
    roll_weather(league_match, entered=[3, 4], by=None)
    assert "date" not in kinds(away)  # the pre-match has begun: the date stands
