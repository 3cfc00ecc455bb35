"""The pre-match sequence, step by step, with entered dice and the tables' results (issue 6)."""

import pytest
from django.urls import reverse

from matches.models import DiceRoll, HandicapDraw, PreMatch, SquadEntry
from matches.prematch.base import PreMatchError
from matches.prematch.chef import buy_chef_dice, inspire
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import check_niggling, roll_handicap
from teams.ledger import treasury
from teams.models import Player, Team
from tests import factories
from tests.matches.test_report import user_for

pytestmark = pytest.mark.django_db


def squads(match, home=11, away=11):
    pick_squad(match, match.home, [p.pk for p in match.home.players.order_by("number")[:home]], by=match.home.coach)
    pick_squad(match, match.away, [p.pk for p in match.away.players.order_by("number")[:away]], by=match.away.coach)


def set_ff(team, ff):
    Team.objects.filter(pk=team.pk).update(fan_factor=ff)
    team.refresh_from_db()


def test_duplicates_are_rolled_again(season_with):
    from league.seasons.services.fixtures import generate_fixtures

    season, _ = season_with(2, 2)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    match = division.matches.first()
    squads(match, home=11, away=4)  # 350,000 less: 35 lower → 2 rolls
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=[], away_dice=[], by=None)
    prematch = roll_handicap(match, entered=[11, 12, 44], by=None)  # 11 and 12 are the same result
    assert prematch.handicap_rolls == 2
    assert list(HandicapDraw.objects.filter(match=match).values_list("key", flat=True)) == [
        "extra_training",
        "i_didnt_do_it",
    ]
    assert DiceRoll.objects.filter(match=match, step="handicap").count() == 3


def test_master_chef_dice_are_paid_once(season_with, make_user):
    from league.seasons.services.fixtures import generate_fixtures
    from league.seasons.services.setup import set_division_teams
    from teams.models import Position, Race
    from teams.services import create_team

    season, teams = season_with(2, 2)
    halfling = Race.objects.get(name="Halfling")
    chefs = create_team(
        coach=make_user("chef"),
        name="Kampen Cooks",
        race=halfling,
        hires={Position.objects.get(race=halfling, name="Linehobbit").pk: 11},
    )
    division = season.divisions.get(level=1)
    set_division_teams(division, [teams[0], chefs])
    generate_fixtures(division)
    match = (
        division.matches.get(home=chefs) if division.matches.filter(home=chefs).exists() else division.matches.first()
    )
    squads(match)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=[], away_dice=[], by=None)
    roll_handicap(match, by=None)
    for draw in HandicapDraw.objects.filter(match=match, key="inspiration"):  # R23: chosen before it is done
        inspire(match, draw.team, match.squad.filter(team=draw.team).last().player_id, by=None)
    before = treasury(chefs)
    prematch = buy_chef_dice(match, chefs, count=2, by=chefs.coach)
    assert treasury(chefs) == before - 40_000 and prematch.done == PreMatch.Step.MASTER_CHEF
    with pytest.raises(PreMatchError):
        buy_chef_dice(match, chefs, count=2, by=chefs.coach)
    assert treasury(chefs) == before - 40_000


# --- views ---------------------------------------------------------------------------------------------


def advance_to(match, step):
    """Run the sequence up to (not including) a step, as the coaches would."""
    if step > PreMatch.Step.SQUADS:
        squads(match)
    if step > PreMatch.Step.WEATHER:
        roll_weather(match, entered=[3, 4], by=None)
    if step > PreMatch.Step.TICKETS:
        set_tickets(match, ticket="ordinary", neutral=False, by=None)
    if step > PreMatch.Step.GATE:
        roll_gate(match, home_dice=[], away_dice=[], by=None)


STEP_WRITES = [
    # (step url, the step it needs, data, who may: "both" coaches, or "home" only)
    ("weather", PreMatch.Step.WEATHER, {"weather": "3 4"}, "both"),
    ("tickets", PreMatch.Step.TICKETS, {"ticket": "cheap"}, "home"),
    ("gate", PreMatch.Step.GATE, {}, "both"),
    ("handicap", PreMatch.Step.HANDICAP, {}, "both"),
]


class TestALeagueMatch:
    """factories.league_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.league_match = factories.league_match()

    def test_a_whole_sequence_with_entered_dice(self):
        match = self.league_match
        set_ff(match.home, 8)
        set_ff(match.away, 6)
        squads(match)
        prematch = roll_weather(match, entered=[3, 4], by=match.home.coach)
        assert prematch.weather == "nice" and "Fint vær" in prematch.explanations["weather"][0]
        set_tickets(match, ticket="ordinary", neutral=False, by=match.home.coach)
        # EXAMPLES.md: home 8 D6 +1 each = 36,000; away 6 D6 -1 each = 13,000; FFM +5 (R12, R13, R15)
        prematch = roll_gate(
            match, home_dice=[3, 5, 1, 6, 2, 4, 6, 1], away_dice=[2, 2, 3, 1, 6, 5], by=match.home.coach
        )
        assert (prematch.home_gate, prematch.away_gate, prematch.fan_factor_modifier) == (36_000, 13_000, 5)
        assert prematch.vandalism_target is None  # 49,000 in 60,000 seats
        assert "Fan Factor-modifier: row 40, column 15: +5" in prematch.explanations["ffm"]
        assert prematch.done == PreMatch.Step.NIGGLING  # nobody in either squad has a niggling injury
        prematch = roll_handicap(match, by=match.home.coach)
        # home 11 × 50,000 + FF 8 × 10,000 + apothecary 50,000 = 680,000 → 68; away 550,000 + 60,000 → 61;
        # difference 7: column ≤149, row 0-10 → no rolls (R1, R22)
        assert (prematch.home_rating, prematch.away_rating, prematch.handicap_rolls) == (68, 61, 0)
        assert prematch.done == PreMatch.Step.MASTER_CHEF  # no Master Chef in this match
        assert DiceRoll.objects.filter(match=match, entered=True).count() == 3

    def test_the_squad_is_at_most_16_available_players_r3(self):
        from teams.services import hire_player
        from tests.factories import position

        match = self.league_match
        # 400,000 left: a Lineman, three Catchers and two Throwers (50,000 + 210,000 + 140,000)
        for name, count in (("Lineman", 1), ("Catcher", 3), ("Thrower", 2)):
            for _ in range(count):
                hire_player(match.home, position("Human", name), name="", number=None, by=match.home.coach)
        ids = [p.pk for p in match.home.players.all()]
        assert len(ids) == 17
        with pytest.raises(PreMatchError, match="At most 16"):
            pick_squad(match, match.home, ids, by=match.home.coach)
        injured = match.home.players.first()
        Player.objects.filter(pk=injured.pk).update(miss_matches=1)
        with pytest.raises(PreMatchError, match="misses this match"):
            pick_squad(match, match.home, ids[:12], by=match.home.coach)
        assert not SquadEntry.objects.exists()

    def test_steps_run_in_order_and_once(self):
        match = self.league_match
        with pytest.raises(PreMatchError, match="Finish the steps"):
            roll_weather(match, entered=[1, 1], by=None)
        squads(match)
        roll_weather(match, entered=[1, 1], by=None)
        with pytest.raises(PreMatchError, match="already done"):
            roll_weather(match, entered=[6, 6], by=None)
        assert DiceRoll.objects.get(match=match, purpose="weather").values == [1, 1]

    def test_vandalism_when_the_gates_exceed_capacity_r18(self):
        match = self.league_match
        set_ff(match.home, 12)
        set_ff(match.away, 10)
        squads(match)
        roll_weather(match, entered=[3, 4], by=None)
        set_tickets(match, ticket="cheap", neutral=False, by=None)
        # cheap: home +2 per die, away 0: 12 × (5 + 2) = 84,000; 10 × 5 = 50,000 → 134,000 in 60,000 seats
        prematch = roll_gate(match, home_dice=[5] * 12, away_dice=[5] * 10, by=None)
        assert (prematch.home_gate, prematch.away_gate) == (84_000, 50_000)
        assert prematch.vandalism_target == 7 and prematch.vandalised  # 74,000 over: automatic
        assert prematch.seats_lost == 37_000

    def test_a_vandalism_roll_against_the_target_r18(self):
        match = self.league_match
        set_ff(match.home, 9)
        set_ff(match.away, 9)
        squads(match)
        roll_weather(match, entered=[3, 4], by=None)
        set_tickets(match, ticket="ordinary", neutral=False, by=None)
        # home 9 × (6 + 1) = 63,000; away 9 × (5 - 1) = 36,000 → 99,000: 39,000 over → 4+ (R18)
        prematch = roll_gate(match, home_dice=[6] * 9, away_dice=[5] * 9, vandalism_die=[3], by=None)
        assert prematch.vandalism_target == 4 and prematch.vandalised and prematch.seats_lost == 19_500

    def test_niggling_checks_and_the_apothecary_r36(self):
        match = self.league_match
        a, b = match.home.players.order_by("number")[:2]
        Player.objects.filter(pk__in=[a.pk, b.pk]).update(niggling=1)
        squads(match)
        roll_weather(match, entered=[3, 4], by=None)
        set_tickets(match, ticket="ordinary", neutral=False, by=None)
        prematch = roll_gate(match, home_dice=[], away_dice=[], by=None)
        assert prematch.done == PreMatch.Step.FAN_FACTOR_MODIFIER  # the home team has checks to make
        prematch = check_niggling(match, match.home, apothecary_for=[a.pk], entered={b.pk: [1]}, by=None)
        assert SquadEntry.objects.get(player=b).status == "missed_niggling"
        assert SquadEntry.objects.get(player=a).status == "playing"
        assert prematch.home_niggling_ap == 1 and prematch.home_niggling_checked  # the step's state, in fields
        assert prematch.done == PreMatch.Step.NIGGLING

    def test_handicap_for_the_lower_team_with_a_duplicate_rerolled_r22_r23(self):
        match = self.league_match
        squads(match, home=11, away=7)  # the away squad is worth 200,000 less: TR 20 lower
        roll_weather(match, entered=[3, 4], by=None)
        set_tickets(match, ticket="ordinary", neutral=False, by=None)
        roll_gate(match, home_dice=[], away_dice=[], by=None)
        # home: 11 × 50,000 + 50,000 apothecary = 600,000 → 60; away: 7 × 50,000 = 350,000 → 35; difference 25
        # → column ≤149, row 11-25: 1 roll (R22)
        prematch = roll_handicap(match, entered=[15], by=None)
        assert (prematch.home_rating, prematch.away_rating, prematch.handicap_rolls) == (60, 35, 1)
        draw = HandicapDraw.objects.get(match=match)
        assert (draw.team_id, draw.key) == (match.away_id, "inspiration")

    def test_steps_through_htmx_and_plain_forms(self, client):
        match = self.league_match
        client.force_login(match.home.coach)
        url = reverse("match_prematch_step", args=[match.pk, "squad"])
        ids = [p.pk for p in match.home.players.all()]
        response = client.post(url, {"team": match.home_id, "players": ids}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and "<html" not in response.content.decode()
        client.force_login(match.away.coach)
        client.post(url, {"team": match.away_id, "players": [p.pk for p in match.away.players.all()]})
        response = client.post(reverse("match_prematch_step", args=[match.pk, "weather"]), {"weather": "7 1"})
        # issue 10: a plain post is answered with the same page, the message beside the field, the dice kept
        assert response.status_code == 422
        page = response.content.decode()
        assert "A D6 shows 1–6, not 7" in page and 'value="7 1"' in page
        assert not DiceRoll.objects.filter(match=match, purpose="weather").exists()
        client.post(reverse("match_prematch_step", args=[match.pk, "weather"]), {"weather": "6 6"})
        assert DiceRoll.objects.get(match=match, purpose="weather").values == [6, 6]
        # the away coach may not set the home team's ticket price
        assert (
            client.post(reverse("match_prematch_step", args=[match.pk, "tickets"]), {"ticket": "cheap"}).status_code
            == 403
        )
        assert client.get(reverse("referee_sheet", args=[match.pk])).status_code == 200

    @pytest.mark.parametrize("role", ["anonymous", "other_coach", "home_coach", "away_coach", "board"])
    def test_permission_matrix_squads(self, client, other_coach, board_member, role):
        match = self.league_match
        user = user_for(role, match, other_coach, board_member)
        if user:
            client.force_login(user)
        response = client.post(
            reverse("match_prematch_step", args=[match.pk, "squad"]),
            {"team": match.home_id, "players": [p.pk for p in match.home.players.all()]},
        )
        picked = SquadEntry.objects.filter(match=match).exists()
        assert picked == (role in {"home_coach", "board"})
        assert response.status_code == (302 if role in {"home_coach", "board"} else 403)

    @pytest.mark.parametrize(("step", "needs", "data", "who"), STEP_WRITES)
    @pytest.mark.parametrize("role", ["anonymous", "other_coach", "home_coach", "away_coach", "board"])
    def test_permission_matrix_steps(self, client, other_coach, board_member, role, step, needs, data, who):
        from matches.models import PreMatch

        match = self.league_match
        advance_to(match, needs)
        before = PreMatch.objects.get(match=match).done
        user = user_for(role, match, other_coach, board_member)
        if user:
            client.force_login(user)
        response = client.post(reverse("match_prematch_step", args=[match.pk, step]), data)
        allowed = role in {"home_coach", "board"} or (role == "away_coach" and who == "both")
        after = PreMatch.objects.get(match=match).done
        assert (after > before) == allowed
        assert response.status_code == (302 if allowed else 403)

    def test_inspiration_gives_an_extra_mvp_that_does_not_count_r23(self):
        from matches.postmatch.development import pending_development
        from matches.postmatch.injury_step import injuries
        from matches.postmatch.mvp import mvp
        from matches.postmatch.steps import stadium, winnings
        from matches.report.confirmation import confirm_report
        from matches.report.filing import LineInput, ReportInput, file_report

        match = self.league_match
        squads(match, home=11, away=7)
        roll_weather(match, entered=[3, 4], by=None)
        set_tickets(match, ticket="ordinary", neutral=False, by=None)
        roll_gate(match, home_dice=[], away_dice=[], by=None)
        roll_handicap(match, entered=[15], by=None)  # the lower (away) team draws Inspiration
        inspired = match.away.players.order_by("number").first()
        with pytest.raises(PreMatchError, match="did not draw"):
            inspire(match, match.home, match.home.players.first().pk, by=None)
        inspire(match, match.away, inspired.pk, by=match.away.coach)
        assert Player.objects.get(pk=inspired.pk).mvps == 1  # given before the match: 5 SPP
        scorer = match.away.players.order_by("number")[1]
        file_report(
            match,
            ReportInput(home_score=0, away_score=1, lines=[LineInput(scorer.pk, touchdowns=1)]),
            by=match.home.coach,
        )
        confirm_report(match, by=match.away.coach)
        winnings(match, match.away, roll=[3], by=None)
        injuries(match, match.away, by=None)
        stadium(match, match.away, by=None)
        # the random MVP goes to the other player who earned SPP, never the inspired one
        postmatch = mvp(match, match.away, roll=[1], by=None)
        assert postmatch.mvp_id == scorer.pk
        team = Team.objects.get(pk=match.away_id)
        assert team.mvps_received == 1  # Inspiration does not count towards the five (R27)
        # the inspired player's 5 SPP cross 6? No: 5. The scorer's 3 + 5 = 8 crosses 6: one roll
        assert [(p.pk, i) for p, i in pending_development(match, match.away)] == [(scorer.pk, 1)]
