"""R23 (sharpened): the Inspiration MVP's development roll is made at once, before the match; the
pre-match is not finished, nor the report fileable, until the player is chosen and his roll resolved;
the post-match does not roll it again."""

import pytest
from django.urls import reverse

from matches.models import DevelopmentRoll, PreMatch
from matches.postmatch.development import development_rolls, pending_development
from matches.prematch.chef import choose_inspired_development, inspire, inspired_rolls
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import roll_handicap
from matches.report.confirmation import confirm_report
from matches.report.filing import ReportError, ReportInput, file_report
from teams.models import Player, PlayerSkill
from teams.services import buy_reroll
from tests import factories

pytestmark = pytest.mark.django_db


def inspired():
    """A league match (factories.league_match) walked to its handicap: home TR 70 (11 Linemen 55 +
    apothecary 5 + 2 re-rolls 10), away TR 55: a difference of 15 gives the away team one roll on
    handicap table 2 (R22); D66 15 is Inspiration. The match and the away team's #1, with 1 SPP."""
    match = factories.league_match()
    for _ in range(2):
        buy_reroll(match.home, by=match.home.coach)
    match.home.refresh_from_db()
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=None, away_dice=None, by=None)
    prematch = roll_handicap(match, entered=[15], by=None)
    assert (prematch.home_rating, prematch.away_rating, prematch.handicap_team_id) == (70, 55, match.away_id)
    star = match.away.players.order_by("number").first()
    Player.objects.filter(pk=star.pk).update(completions=1)  # 1 SPP: the MVP's 5 take him to 6 (R4)
    return match, star


def done(match) -> int:
    return PreMatch.objects.get(match=match).done


class TestInspired:
    """The match inspired() walks, built once for the class (tests/conftest.py, set_up_test_data)."""

    @classmethod
    def setUpTestData(cls):
        cls.inspired = inspired()

    def test_the_level_up_is_rolled_and_chosen_before_the_match_and_counts_in_it(self):
        match, star = self.inspired
        assert done(match) == PreMatch.Step.HANDICAP  # the inspired player is not chosen yet
        with pytest.raises(ReportError, match="pre-match sequence first"):
            file_report(match, ReportInput(home_score=0, away_score=0), by=match.home.coach)
        inspire(match, match.away, star.pk, entered={f"development:{star.pk}:1": [3, 4]}, by=match.away.coach)
        star.refresh_from_db()
        assert (star.mvps, star.spp) == (1, 6)
        (roll,) = inspired_rolls(match, match.away)
        assert (roll.result, roll.before_match, roll.dice.values) == ("skill", True, [3, 4])  # 2D6 7: a skill (R29)
        assert done(match) == PreMatch.Step.HANDICAP  # his roll waits for the coach's choice
        with pytest.raises(ReportError, match="pre-match sequence first"):
            file_report(match, ReportInput(home_score=0, away_score=0), by=match.home.coach)
        choose_inspired_development(match, match.away, choices={roll.pk: "Block"}, by=match.away.coach)
        assert PlayerSkill.objects.filter(player=star, skill__name="Block").exists()  # he has it in this match
        assert done(match) == PreMatch.Step.MASTER_CHEF
        file_report(match, ReportInput(home_score=0, away_score=0), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        # the post-match development step does not roll it again
        assert pending_development(match, match.away) == []
        assert development_rolls(match, match.away) == []
        assert DevelopmentRoll.objects.filter(player=star).count() == 1

    def test_a_player_who_does_not_level_up_finishes_the_pre_match_at_once(self):
        match, _star = self.inspired
        plain = match.away.players.order_by("number")[1]  # 0 SPP + 5: below 6, no roll
        inspire(match, match.away, plain.pk, by=match.away.coach)
        assert inspired_rolls(match, match.away) == []
        assert done(match) == PreMatch.Step.MASTER_CHEF

    def test_a_later_level_up_in_the_match_is_the_players_second_roll(self):
        """1 SPP + the MVP's 5 = 6 before the match (roll 1), then 4 touchdowns: 6 + 12 = 18, past 16 (roll 2)."""
        match, star = self.inspired
        inspire(match, match.away, star.pk, entered={f"development:{star.pk}:1": [1, 2]}, by=match.away.coach)
        (roll,) = inspired_rolls(match, match.away)
        choose_inspired_development(match, match.away, choices={roll.pk: "Block"}, by=match.away.coach)
        from matches.report.filing import LineInput

        file_report(
            match,
            ReportInput(home_score=0, away_score=4, lines=[LineInput(star.pk, touchdowns=4)]),
            by=match.home.coach,
        )
        confirm_report(match, by=match.away.coach)
        assert [(p.pk, i) for p, i in pending_development(match, match.away)] == [(star.pk, 2)]

    @pytest.mark.parametrize("who", ["anonymous", "home_coach", "away_coach", "board"])
    def test_the_inspired_development_choice_permission_matrix(self, client, board_member, who):
        match, star = self.inspired
        inspire(match, match.away, star.pk, entered={f"development:{star.pk}:1": [3, 4]}, by=match.away.coach)
        (roll,) = inspired_rolls(match, match.away)
        user = {
            "anonymous": None,
            "home_coach": match.home.coach,
            "away_coach": match.away.coach,
            "board": board_member,
        }
        if user[who]:
            client.force_login(user[who])
        url = reverse("match_prematch_step", args=[match.pk, "inspired-development"])
        response = client.post(url, {"team": match.away_id, f"choice_{roll.pk}": "Block"})
        chosen = PlayerSkill.objects.filter(player=star, skill__name="Block").exists()
        if who in ("away_coach", "board"):
            assert response.status_code == 302 and chosen
        else:
            assert response.status_code in (302, 403) and not chosen
            if who == "home_coach":
                assert response.status_code == 403
