"""What the post-match page tells a coach (issue 26): the healer's price on the injury step, each player's
SPP from the match and his total on the SPP step, and what was bought with the treasury after."""

import pytest
from django.urls import reverse
from django.utils import translation

from league.lib.numbers import money
from matches.postmatch.development import develop, development_rolls
from matches.postmatch.injury_step import injuries
from matches.postmatch.mvp import mvp
from matches.postmatch.steps import complete, fan_factor, purchases_done, stadium, winnings
from teams.ledger import treasury
from teams.services import buy_apothecary, buy_assistant_coach
from tests.matches.test_postmatch import build_played

pytestmark = pytest.mark.django_db


def section(html: str, step_id: str) -> str:
    start = html.index(f'id="{step_id}"')
    return html[start : html.index("</section>", start)]


class TestTheTrollsAfterTheirWin:
    """build_played(): Torshov Trolls beat Sagene Saints 2-1; the home coach walks his sequence (built once)."""

    @classmethod
    def setUpTestData(cls):
        cls.played = build_played()

    def page(self, client) -> str:
        match, home, *_ = self.played
        client.force_login(home.coach)
        return client.get(reverse("match_postmatch", args=[match.pk, home.pk])).content.decode()

    def test_the_injury_step_says_the_bandage_crews_price(self, client):
        match, home, *_ = self.played
        winnings(match, home, roll=[4], kiosk=[3], by=None)
        # R25: the Bandage Crew, 10,000 per attempt, on up to 3 dead players (the default ruleset's settings)
        shown = section(self.page(client), "step-injuries")
        assert "Bandage Crew: 10,000 per attempt, at most 3 dead players, the attempts need 1+, 2+, 3+ (R25)." in shown
        client.cookies["django_language"] = "nb"
        shown = section(self.page(client), "step-injuries")
        assert "Bandage Crew: 10\xa0000 per forsøk, høyst 3 døde spillere, forsøkene trenger 1+, 2+, 3+ (R25)." in shown

    def test_the_bandage_crews_form_says_what_an_empty_field_means_and_what_the_team_has(self, client):
        match, _home, away, *_ = self.played
        winnings(match, away, roll=[2], by=None)  # the Saints' dead Lineman waits for the Bandage Crew
        client.force_login(away.coach)
        client.cookies["django_language"] = "nb"
        html = client.get(reverse("match_postmatch", args=[match.pk, away.pk])).content.decode()
        shown = section(html, "step-injuries")
        assert "Bandage Crew: forsøk nr." in shown  # the field of each dead player
        with translation.override("nb"):
            gold = money(treasury(away))
        assert f"et tomt felt er ikke noe forsøk. Forsøkene betales fra kassen: {gold}." in shown

    def test_a_human_coach_is_told_of_his_bandage_crew_only_r9(self, client):
        match, _home, away, *_ = self.played
        winnings(match, away, roll=[2], by=None)
        client.force_login(away.coach)
        client.cookies["django_language"] = "nb"
        shown = section(
            client.get(reverse("match_postmatch", args=[match.pk, away.pk])).content.decode(), "step-injuries"
        )
        assert "Bandage Crew" in shown
        assert "læregutt" not in shown.lower() and "Familiar" not in shown and "Necromancer" not in shown

    def test_the_spp_step_lists_each_players_spp_and_total_then_keeps_them(self, client):
        match, home, _away, h, _a = self.played
        winnings(match, home, roll=[4], kiosk=[3], by=None)
        injuries(match, home, by=None)
        stadium(match, home, by=None)
        mvp(match, home, roll=[2], by=None)  # #2, the second who earned SPP (R27)
        # R28: #1 two touchdowns, 2 × 3 = 6, on top of his 14 (completions): 20; #2 a casualty 2 + the MVP 5 = 7
        expected = [
            f"#1 {h[0].name}: 6 SPP this match, 20 SPP in all",
            f"#2 {h[1].name}: 7 SPP this match, 7 SPP in all",
        ]
        assert all(line in section(self.page(client), "step-development") for line in expected)
        rolls = development_rolls(
            match, home, entered={f"development:{h[0].pk}:1": [3, 3], f"development:{h[1].pk}:1": [2, 5]}
        )
        develop(match, home, choices={rolls[0].pk: "Frenzy", rolls[1].pk: "Block"}, by=None)
        kept = section(self.page(client), "step-development")
        assert all(line in kept for line in expected)  # as after this match, whatever the next one adds

    def test_the_purchase_step_says_what_was_bought_and_the_treasury_after(self, client):
        match, home, *_ = self.played
        winnings(match, home, roll=[4], kiosk=[3], by=None)  # 70,000 and the kiosk's 10,000
        injuries(match, home, by=None)
        stadium(match, home, by=None)
        mvp(match, home, roll=[1], by=None)
        develop(match, home, choices={r.pk: "Block" for r in development_rolls(match, home)}, by=None)
        fan_factor(match, home, roll=[4], by=None)
        buy_apothecary(home, by=home.coach)  # 50,000 (R5)
        buy_assistant_coach(home, by=home.coach)  # 10,000 (R6)
        purchases_done(match, home, by=home.coach)
        shown = section(self.page(client), "step-purchases")
        # 370,000 before the match (tests/matches/test_postmatch.py), + 70,000 + 10,000 - 50,000 - 10,000
        assert "Bought: Apothecary, 50,000" in shown
        assert "Bought: Assistant coach, 10,000" in shown
        assert "Treasury after the purchases: 390,000" in shown
        assert "Kiosk" not in shown  # bought before the match: not this step's

    def test_nothing_bought_is_said_too(self, client):
        match, home, *_ = self.played
        winnings(match, home, roll=[4], kiosk=[3], by=None)
        injuries(match, home, by=None)
        stadium(match, home, by=None)
        mvp(match, home, roll=[1], by=None)
        develop(match, home, choices={r.pk: "Block" for r in development_rolls(match, home)}, by=None)
        fan_factor(match, home, roll=[4], by=None)
        purchases_done(match, home, by=home.coach)
        shown = section(self.page(client), "step-purchases")
        assert "Nothing bought." in shown and "Treasury after the purchases: 450,000" in shown


def test_a_purchase_between_purchases_done_and_the_new_tr_is_in_the_record(client, league_match, board_member):
    """The record of the purchases says what the sequence bought and the treasury as the new TR found it: a
    cheerleader bought after "Ferdig med kjøp" used to leave "Ingenting kjøpt" and the treasury before it."""
    from matches.results import record_forfeit
    from teams.services import buy_cheerleader

    match, loser = league_match, league_match.home
    record_forfeit(match, loser, by=board_member)  # R42: its sequence is the purchases and the new TR
    purchases_done(match, loser, by=loser.coach)  # nothing bought yet
    buy_cheerleader(loser, by=loser.coach)  # on the team page, before the new TR
    client.force_login(loser.coach)
    client.cookies["django_language"] = "nb"
    url = reverse("match_postmatch", args=[match.pk, loser.pk])
    with translation.override("nb"):
        after = f"Kassen etter kjøpene: {money(treasury(loser))}"
    for when in ("before the new TR", "after it"):
        shown = section(client.get(url).content.decode(), "step-purchases")
        assert "Kjøpt: Duskedame nr. 1, 10\xa0000" in shown, when
        assert after in shown and "Ingenting kjøpt" not in shown, when
        if when == "before the new TR":
            complete(match, loser, by=loser.coach)
