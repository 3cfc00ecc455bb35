"""Filing, confirming and disputing the match report; impossible reports refused (issue 6, R26, R28, R34)."""

import pytest
from django.urls import reverse

from matches.models import Match, PlayerMatch
from matches.report.confirmation import confirm_report, reopen_report, void_match
from matches.report.filing import ApothecaryInput, LineInput, ReportError, ReportInput, file_report
from teams.models import Player
from tests import factories

pytestmark = pytest.mark.django_db


def players(match):
    home = list(match.home.players.order_by("number"))
    away = list(match.away.players.order_by("number"))
    return home, away


def a_report(match, **extra):
    home, away = players(match)
    lines = [
        LineInput(home[0].pk, touchdowns=2, completions=1),
        LineInput(home[1].pk, casualties=1, crowd_casualties=1),
        LineInput(away[0].pk, touchdowns=1, foul_casualties=1),
        LineInput(away[1].pk, injury="serious_injury", injured_by_id=home[1].pk),
        LineInput(away[2].pk, interceptions=1),
    ]
    return ReportInput(home_score=2, away_score=1, lines=lines, comment="A good game.", **extra)


def refused(match, report, by=None):
    before = (Match.objects.get(pk=match.pk).status, PlayerMatch.objects.count())
    with pytest.raises(ReportError) as err:
        file_report(match, report, by=by or match.home.coach)
    assert (Match.objects.get(pk=match.pk).status, PlayerMatch.objects.count()) == before
    return " ".join(err.value.messages)


def test_a_drawn_cup_match_without_a_tiebreak_winner_is_refused_r34(season_with, board_member):
    from league.seasons.services.cup import draw_cup

    season, teams = season_with(2, 2)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board_member)
    match = cup.matches.get(round=1, cup_slot=0)
    walk_prematch(match)
    assert "cannot end drawn" in refused(match, ReportInput(home_score=1, away_score=1))
    file_report(match, ReportInput(home_score=1, away_score=1, tiebreak_winner_id=match.away_id), by=board_member)
    confirm_report(match, by=board_member)
    assert cup.matches.get(round=2).home_id == match.away_id


# --- the views and who may do what -------------------------------------------------------------------


def form_data(match, **extra):
    home, away = players(match)
    data = {
        "home_score": "2",
        "away_score": "1",
        f"p{home[0].pk}_touchdowns": "2",
        f"p{away[0].pk}_touchdowns": "1",
        f"p{away[1].pk}_injury": "badly_hurt",
        f"p{away[1].pk}_injured_by": str(home[1].pk),
        f"p{home[1].pk}_casualties": "1",
        "comment": "ok",
    }
    data.update(extra)
    return data


ROLES = ["anonymous", "other_coach", "home_coach", "away_coach", "board"]


def user_for(role, match, other_coach, board_member):
    return {
        "anonymous": None,
        "other_coach": other_coach,
        "home_coach": match.home.coach,
        "away_coach": match.away.coach,
        "board": board_member,
    }[role]


def walk_prematch(match):
    from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
    from matches.prematch.ratings import roll_handicap

    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.all()], by=None)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=None, away_dice=None, by=None)
    roll_handicap(match, by=None)


def test_no_report_before_the_pre_match_sequence(league_match):
    assert "Walk the pre-match sequence first" in refused(league_match, ReportInput(home_score=1, away_score=0))


class TestAReadyMatch:
    """factories.ready_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.ready_match = factories.ready_match()

    def test_a_report_is_filed_and_counts_once_confirmed(self):
        match = self.ready_match
        home, away = players(match)
        file_report(match, a_report(match), by=match.home.coach)
        match.refresh_from_db()
        assert match.status == Match.Status.REPORTED and (match.home_score, match.away_score) == (2, 1)
        assert (match.home_casualties, match.away_casualties) == (2, 1)  # block + crowd; foul (R38)
        assert Player.objects.get(pk=home[0].pk).touchdowns == 0  # not counted before confirmation
        confirm_report(match, by=match.away.coach)
        confirm_report(match, by=match.away.coach)  # a second confirmation does nothing
        h0, h1, a0 = (Player.objects.get(pk=p.pk) for p in (home[0], home[1], away[0]))
        assert (h0.touchdowns, h0.completions, h0.spp) == (2, 1, 7)  # 2 × 3 + 1 (R28)
        assert (h1.casualties, h1.spp) == (2, 4)  # a crowd casualty from a push counts as a block casualty (R28)
        assert (a0.touchdowns, a0.foul_casualties, a0.spp) == (1, 1, 4)

    def test_reopen_and_void_take_back_exactly_what_counted(self, board_member):
        match = self.ready_match
        home, _away = players(match)
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        reopen_report(match, by=board_member)
        assert Player.objects.get(pk=home[0].pk).touchdowns == 0
        match.refresh_from_db()
        assert match.status == Match.Status.REOPENED  # R47: back with the coach who filed it
        with pytest.raises(ReportError, match="files it again first"):
            confirm_report(match, by=match.away.coach)  # the opponent's confirmation waits
        with pytest.raises(ReportError, match="reopened this report"):
            file_report(match, a_report(match), by=match.away.coach)  # not his to file
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        assert Player.objects.get(pk=home[0].pk).touchdowns == 2
        void_match(match, by=board_member)
        assert Player.objects.get(pk=home[0].pk).touchdowns == 0
        assert Match.objects.get(pk=match.pk).status == Match.Status.VOID

    def test_more_touchdowns_credited_than_scored_is_refused(self):
        report = a_report(self.ready_match)
        report.home_score = 1
        assert "2 touchdowns are credited to Team A players, but the team scored 1" in refused(self.ready_match, report)

    def test_a_player_in_two_places_is_refused(self):
        report = a_report(self.ready_match)
        report.lines.append(LineInput(report.lines[0].player_id, completions=1))
        assert "is in the report twice" in refused(self.ready_match, report)

    def test_a_player_of_another_team_is_refused(self, season_with):
        from teams.models import Team

        outsider = (
            Team.objects.exclude(pk__in=[self.ready_match.home_id, self.ready_match.away_id]).first().players.first()
        )
        report = a_report(self.ready_match)
        report.lines.append(LineInput(outsider.pk, completions=1))
        assert "A player of another team is in the report" in refused(self.ready_match, report)

    def test_a_player_not_in_the_squad_is_refused(self):
        from matches.models import SquadEntry

        home, _away = players(self.ready_match)
        benched = home[0]
        SquadEntry.objects.filter(player=benched).delete()
        assert f"{benched} was not in the match squad" in refused(self.ready_match, a_report(self.ready_match))

    def test_the_apothecary_of_a_team_without_one_is_refused(self):
        _home, away = players(self.ready_match)
        report = a_report(self.ready_match, apothecary=[ApothecaryInput(away[1].pk, "heal_serious_injury", 2, roll=4)])
        assert "Team B has no apothecary" in refused(self.ready_match, report)

    def test_ap_over_three_is_refused_r26(self):
        home, _away = players(self.ready_match)
        report = a_report(
            self.ready_match,
            apothecary=[
                ApothecaryInput(home[3].pk, "heal_dead", 3, roll=5),
                ApothecaryInput(home[4].pk, "heal_badly_hurt", 1, roll=3),
            ],
        )
        assert "spends 4 AP of 3" in refused(self.ready_match, report)

    def test_the_apothecary_used_twice_on_the_same_is_refused(self):
        home, _away = players(self.ready_match)
        report = a_report(
            self.ready_match,
            apothecary=[
                ApothecaryInput(home[3].pk, "heal_badly_hurt", 1, roll=1),
                ApothecaryInput(home[3].pk, "heal_badly_hurt", 1, roll=5),
            ],
        )
        assert "used twice" in refused(self.ready_match, report)

    def test_the_wrong_ap_for_an_action_is_refused(self):
        home, _away = players(self.ready_match)
        report = a_report(self.ready_match, apothecary=[ApothecaryInput(home[3].pk, "heal_dead", 1, roll=5)])
        assert "costs 3 AP, not 1" in refused(self.ready_match, report)

    def test_every_change_is_kept_in_the_history(self, board_member):
        match = self.ready_match
        file_report(match, a_report(match), by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        reopen_report(match, by=board_member)
        statuses = list(match.history.order_by("history_date").values_list("status", flat=True))
        assert statuses[-3:] == ["reported", "confirmed", "reopened"]
        assert PlayerMatch.history.filter(match_id=match.pk).count() >= 5

    def test_filing_through_the_form_and_a_refusal_with_its_message(self, client):
        client.force_login(self.ready_match.home.coach)
        home, _away = players(self.ready_match)
        response = client.post(
            reverse("match_report", args=[self.ready_match.pk]),
            form_data(self.ready_match, **{f"p{home[0].pk}_touchdowns": "3"}),
        )
        assert response.status_code == 422  # issue 10: the same page again, what was typed kept
        assert "3 touchdowns are credited to Team A players, but the team scored 2" in response.content.decode()
        response = client.post(
            reverse("match_report", args=[self.ready_match.pk]),
            form_data(self.ready_match, **{f"p{home[0].pk}_touchdowns": "x"}),
        )
        assert "&#x27;x&#x27; is not a whole number" in response.content.decode()
        assert (
            client.post(reverse("match_report", args=[self.ready_match.pk]), form_data(self.ready_match)).status_code
            == 302
        )
        assert Match.objects.get(pk=self.ready_match.pk).status == "reported"

    def test_the_filer_cannot_confirm_his_own_report(self, client):
        client.force_login(self.ready_match.home.coach)
        client.post(reverse("match_report", args=[self.ready_match.pk]), form_data(self.ready_match))
        client.post(reverse("match_confirm", args=[self.ready_match.pk]))
        assert Match.objects.get(pk=self.ready_match.pk).status == "reported"

    def test_dispute_then_refile_then_confirm(self, client):
        home_coach, away_coach = self.ready_match.home.coach, self.ready_match.away.coach
        client.force_login(home_coach)
        client.post(reverse("match_report", args=[self.ready_match.pk]), form_data(self.ready_match))
        client.force_login(away_coach)
        client.post(reverse("match_dispute", args=[self.ready_match.pk]), {"comment": "It was 2-2."})
        match = Match.objects.get(pk=self.ready_match.pk)
        assert match.status == "disputed" and match.dispute_comment == "It was 2-2."
        client.post(reverse("match_report", args=[self.ready_match.pk]), form_data(self.ready_match, away_score="2"))
        client.force_login(home_coach)
        client.post(reverse("match_confirm", args=[self.ready_match.pk]))
        match.refresh_from_db()
        assert (match.status, match.away_score) == ("confirmed", 2)

    @pytest.mark.parametrize("role", ROLES)
    def test_permission_matrix_file(self, client, other_coach, board_member, role):
        user = user_for(role, self.ready_match, other_coach, board_member)
        if user:
            client.force_login(user)
        response = client.post(reverse("match_report", args=[self.ready_match.pk]), form_data(self.ready_match))
        allowed = role in {"home_coach", "away_coach", "board"}
        assert response.status_code == (302 if allowed or role == "anonymous" else 403)
        assert (Match.objects.get(pk=self.ready_match.pk).status == "reported") == allowed

    @pytest.mark.parametrize("role", ROLES)
    def test_permission_matrix_confirm(self, client, other_coach, board_member, role):
        file_report(self.ready_match, a_report(self.ready_match), by=self.ready_match.home.coach)
        user = user_for(role, self.ready_match, other_coach, board_member)
        if user:
            client.force_login(user)
        response = client.post(reverse("match_confirm", args=[self.ready_match.pk]))
        confirmed = Match.objects.get(pk=self.ready_match.pk).status == "confirmed"
        assert confirmed == (role in {"away_coach", "board"})  # the filer (home coach) cannot
        assert response.status_code == (403 if role in {"anonymous", "other_coach"} else 302)

    @pytest.mark.parametrize("role", ROLES)
    def test_permission_matrix_dispute(self, client, other_coach, board_member, role):
        file_report(self.ready_match, a_report(self.ready_match), by=self.ready_match.home.coach)
        user = user_for(role, self.ready_match, other_coach, board_member)
        if user:
            client.force_login(user)
        response = client.post(reverse("match_dispute", args=[self.ready_match.pk]), {"comment": "wrong"})
        disputed = Match.objects.get(pk=self.ready_match.pk).status == "disputed"
        assert disputed == (role in {"away_coach", "board"})
        # the filer may post, and is refused by the rule (the other coach disputes): the match page again, 422
        assert response.status_code == {"anonymous": 403, "other_coach": 403, "home_coach": 422}.get(role, 302)
        if role == "home_coach":
            assert "errorlist errors" in response.content.decode()

    @pytest.mark.parametrize("action", ["match_reopen", "match_void"])
    @pytest.mark.parametrize("role", ROLES)
    def test_permission_matrix_board_only(self, client, other_coach, board_member, role, action):
        file_report(self.ready_match, a_report(self.ready_match), by=self.ready_match.home.coach)
        confirm_report(self.ready_match, by=self.ready_match.away.coach)
        user = user_for(role, self.ready_match, other_coach, board_member)
        if user:
            client.force_login(user)
        response = client.post(reverse(action, args=[self.ready_match.pk]))
        changed = Match.objects.get(pk=self.ready_match.pk).status != "confirmed"
        assert changed == (role == "board")
        assert response.status_code == (302 if role == "board" else 403)

    def test_anyone_may_read_a_confirmed_report(self, client):
        file_report(self.ready_match, a_report(self.ready_match), by=self.ready_match.home.coach)
        confirm_report(self.ready_match, by=self.ready_match.away.coach)
        html = client.get(reverse("match", args=[self.ready_match.pk])).content.decode()
        assert "A good game." in html and "2 – 1" in html

    def test_the_player_page_shows_spp_per_match(self, client):
        file_report(self.ready_match, a_report(self.ready_match), by=self.ready_match.home.coach)
        confirm_report(self.ready_match, by=self.ready_match.away.coach)
        scorer = self.ready_match.home.players.order_by("number").first()
        html = client.get(reverse("player", args=[scorer.pk])).content.decode()
        assert "Team A 2–1 Team B" in html and '<td class="num">7</td>' in html  # 2 TD + 1 COMP = 7 SPP

    def test_no_reopen_or_void_once_the_post_match_sequence_has_begun(self, board_member):
        from matches.postmatch.steps import winnings

        file_report(self.ready_match, a_report(self.ready_match), by=self.ready_match.home.coach)
        confirm_report(self.ready_match, by=self.ready_match.away.coach)
        winnings(self.ready_match, self.ready_match.home, roll=[3], by=None)
        with pytest.raises(ReportError, match="post-match sequence has begun"):
            reopen_report(self.ready_match, by=board_member)
        with pytest.raises(ReportError, match="post-match sequence has begun"):
            void_match(self.ready_match, by=board_member)

    def test_the_apothecary_treats_what_was_reported_r26(self):
        home, _away = players(self.ready_match)
        unhurt = home[2]  # the home team has an apothecary; #3 was not hurt
        report = a_report(self.ready_match, apothecary=[ApothecaryInput(unhurt.pk, "heal_dead", 3, roll=4)])
        assert "is not reported dead" in refused(self.ready_match, report)
        report = a_report(self.ready_match, apothecary=[ApothecaryInput(home[5].pk, "niggling_check", 1)])
        assert "made before the match" in refused(self.ready_match, report)


def test_the_bracket_marks_who_won_a_drawn_cup_match_r34(season_with, board_member, client):
    """Issue 26: a 1–1 in the bracket says who went on."""
    from django.urls import reverse

    from league.seasons.services.cup import draw_cup

    season, teams = season_with(2, 2)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board_member)
    match = cup.matches.get(round=1, cup_slot=0)
    walk_prematch(match)
    file_report(match, ReportInput(home_score=1, away_score=1, tiebreak_winner_id=match.away_id), by=board_member)
    confirm_report(match, by=board_member)
    client.cookies["django_language"] = "nb"
    html = client.get(reverse("cup", args=[season.pk])).content.decode()
    line = html[html.index(reverse("match", args=[match.pk])) :].split("</li>")[0]
    assert f'tie__team--winner"><span class="tie__name">{match.away.name}</span>' in line
    assert f'tie__team--winner"><span class="tie__name">{match.home.name}</span>' not in line
    assert f"1–1, {match.away.name} videre etter tiebreak" in line
