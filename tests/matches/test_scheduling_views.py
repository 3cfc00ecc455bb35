"""The pages of a fixture's date (issue 27): who may propose, accept, date a fixture or set a deadline (a
matrix: anonymous, another coach, the team's coach, the board), the htmx box and its plain-POST fallback,
the board's page of rounds, and the Norwegian the refusals speak."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import RoundDeadline
from matches import scheduling
from matches.models import DateProposal, Match
from tests import factories
from tests.results import record_result

pytestmark = pytest.mark.django_db

WHO = ["anonymous", "other_coach", "home_coach", "away_coach", "board"]


def day(days: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=days)


def at(days: int, hour: int = 19) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day(days), datetime.time(hour)))


class Setup:
    @classmethod
    def setUpTestData(cls):
        cls.match = factories.league_match()
        cls.board = factories.user("styret", board=True, coach=False)
        cls.other = factories.user("annen_trener")

    def login(self, client, who):
        user = {
            "anonymous": None,
            "other_coach": self.other,
            "home_coach": self.match.home.coach,
            "away_coach": self.match.away.coach,
            "board": self.board,
        }[who]
        if user is not None:
            client.force_login(user)
        return user

    def state(self):
        m = Match.objects.get(pk=self.match.pk)
        proposals = list(DateProposal.objects.filter(match=m).values_list("pk", "status").order_by("pk"))
        return (m.date, m.start_time, proposals, list(RoundDeadline.objects.values_list("round", "deadline")))


class TestPermissions(Setup):
    @pytest.mark.parametrize("who", WHO)
    def test_propose(self, client, who):
        self.login(client, who)
        before = self.state()
        response = client.post(
            reverse("match_propose", args=[self.match.pk]), {"date_1": day(3).isoformat(), "time_1": "19:00"}
        )
        if who in ("home_coach", "away_coach"):
            assert response.status_code == 302
            assert DateProposal.objects.filter(match=self.match, status="open").count() == 1
        else:
            assert response.status_code == 403 and self.state() == before

    @pytest.mark.parametrize("who", WHO)
    def test_accept(self, client, who):
        made = scheduling.propose_dates(self.match, starts=[at(3)], by=self.match.home.coach)
        self.login(client, who)
        before = self.state()
        response = client.post(reverse("match_accept", args=[self.match.pk]), {"proposal": made[0].pk})
        if who == "away_coach":
            assert response.status_code == 302 and Match.objects.get(pk=self.match.pk).date == day(3)
        elif who == "home_coach":  # his own proposal: refused on the page, nothing changed
            assert response.status_code == 422 and self.state() == before
            assert "You proposed this date" in response.content.decode()
        else:
            assert response.status_code == 403 and self.state() == before

    @pytest.mark.parametrize("who", WHO)
    def test_board_date(self, client, who):
        self.login(client, who)
        before = self.state()
        response = client.post(
            reverse("match_board_date", args=[self.match.pk]), {"date": day(6).isoformat(), "time": "18:00"}
        )
        if who == "board":
            assert response.status_code == 302
            assert Match.objects.get(pk=self.match.pk).starts_at == at(6, 18)
        else:
            assert response.status_code == 403 and self.state() == before

    @pytest.mark.parametrize("who", WHO)
    def test_deadline_and_the_boards_page(self, client, who):
        self.login(client, who)
        before = self.state()
        url = reverse("season_deadline", args=[self.match.season_id])
        response = client.post(url, {"competition": "league", "round": 1, "deadline": day(9).isoformat()})
        page = client.get(reverse("season_schedule", args=[self.match.season_id]))
        if who == "board":
            assert response.status_code == 302 and RoundDeadline.objects.get().deadline == day(9)
            assert page.status_code == 200
        else:
            assert response.status_code == 403 and self.state() == before
            assert page.status_code == 403


class TestPages(Setup):
    def test_the_match_page_shows_the_box_to_the_coaches_and_the_board_only(self, client):
        scheduling.propose_dates(self.match, starts=[at(3)], by=self.match.home.coach)
        url = reverse("match", args=[self.match.pk])
        assert 'id="schedule-' not in client.get(url).content.decode()
        client.force_login(self.other)
        assert 'id="schedule-' not in client.get(url).content.decode()
        client.force_login(self.match.away.coach)
        html = client.get(url).content.decode()
        assert 'id="schedule-' in html and reverse("match_accept", args=[self.match.pk]) in html
        client.force_login(self.match.home.coach)
        html = client.get(url).content.decode()
        assert "waiting for the other coach" in html and reverse("match_accept", args=[self.match.pk]) not in html
        client.force_login(self.board)
        html = client.get(url).content.decode()
        assert "Open proposals" in html and reverse("match_board_date", args=[self.match.pk]) in html

    def test_the_form_says_in_norwegian_how_often_the_other_coach_is_mailed(self, client):
        client.cookies["django_language"] = "nb"
        client.force_login(self.match.home.coach)
        html = client.get(reverse("match", args=[self.match.pk])).content.decode()
        assert "Den andre treneren får høyst én e-post i timen om datoene for denne kampen" in html

    def test_htmx_swaps_the_box_and_a_plain_post_redirects_back(self, client):
        client.force_login(self.match.home.coach)
        url = reverse("match_propose", args=[self.match.pk])
        data = {"date_1": day(3).isoformat(), "time_1": "19:00", "date_2": day(4).isoformat(), "time_2": "20:15"}
        response = client.post(url, data, headers={"HX-Request": "true"})
        html = response.content.decode()
        assert response.status_code == 200 and html.lstrip().startswith("<section") and "2 dates proposed" in html
        response = client.post(url, {**data, "back": "my"})
        assert response.status_code == 302 and response.url == reverse("coach_home")
        # the other coach accepts through htmx: the box says the date
        client.force_login(self.match.away.coach)
        proposal = DateProposal.objects.get(match=self.match, status="open", starts_at=at(4, 20).replace(minute=15))
        response = client.post(
            reverse("match_accept", args=[self.match.pk]), {"proposal": proposal.pk}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 200 and "The date is agreed" in response.content.decode()
        # sent again (a double click): already done, the same date
        response = client.post(reverse("match_accept", args=[self.match.pk]), {"proposal": proposal.pk})
        assert response.status_code == 302
        assert Match.objects.get(pk=self.match.pk).starts_at == proposal.starts_at

    def test_an_invalid_proposal_comes_back_with_its_errors(self, client):
        client.force_login(self.match.home.coach)
        url = reverse("match_propose", args=[self.match.pk])
        response = client.post(url, {"date_1": day(3).isoformat()}, headers={"HX-Request": "true"})
        assert response.status_code == 422 and "Give the time of the match as well." in response.content.decode()
        response = client.post(url, {})
        assert response.status_code == 422 and "Propose at least one date and time." in response.content.decode()
        assert not DateProposal.objects.exists()

    def test_refusals_speak_norwegian(self, client):
        client.cookies["django_language"] = "nb"
        client.force_login(self.match.home.coach)
        yesterday = (timezone.localdate() - datetime.timedelta(days=1)).isoformat()
        response = client.post(
            reverse("match_propose", args=[self.match.pk]),
            {"date_1": yesterday, "time_1": "19:00"},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 422
        assert "er passert: velg en dato og et klokkeslett som kommer." in response.content.decode()
        assert not DateProposal.objects.exists()

    def test_mitt_lag_shows_the_next_matchs_proposals(self, client):
        scheduling.propose_dates(self.match, starts=[at(3)], by=self.match.home.coach)
        client.force_login(self.match.away.coach)
        html = client.get(reverse("coach_home")).content.decode()
        assert reverse("match_accept", args=[self.match.pk]) in html and 'name="back" value="my"' in html

    def test_the_agreed_date_shows_on_the_pages(self, client):
        scheduling.accept_date(
            scheduling.propose_dates(self.match, starts=[at(3, 18)], by=self.match.home.coach)[0],
            by=self.match.away.coach,
        )
        for url in (
            reverse("match", args=[self.match.pk]),
            reverse("team", args=[self.match.home_id]),
            reverse("matches") + f"?season={self.match.season_id}",
        ):
            assert "18:00" in client.get(url).content.decode(), url

    def test_a_played_round_is_offered_no_deadline(self, client):
        """A round whose fixtures are all played needs no deadline: the page says so (and the one it had)
        instead of a form; a round still to play keeps its form."""
        season = self.match.season
        round_one = Match.objects.filter(season=season, division__isnull=False, round=1)
        RoundDeadline.objects.create(season=season, competition="league", round=1, deadline=day(-2))
        for match in round_one:
            record_result(match, home_score=1, away_score=0, by=self.board)
        client.force_login(self.board)
        client.cookies["django_language"] = "nb"
        html = client.get(reverse("season_schedule", args=[season.pk])).content.decode()
        played, *later = html.split('class="card round-schedule"')[1:]
        assert "Alle kampene i runden er spilt: den trenger ingen frist. Fristen var" in played
        assert "deadline-form" not in played
        assert later and all("deadline-form" in r and "ingen frist" not in r for r in later)

    def test_the_boards_page_lists_and_dates_fixtures(self, client):
        client.force_login(self.board)
        url = reverse("season_schedule", args=[self.match.season_id])
        html = client.get(url).content.decode()
        assert "without a date" in html and reverse("match_board_date", args=[self.match.pk]) in html
        response = client.post(
            reverse("match_board_date", args=[self.match.pk]),
            {"date": day(5).isoformat(), "time": "", "back": "schedule"},
        )
        assert response.status_code == 302 and response.url == url
        assert Match.objects.get(pk=self.match.pk).date == day(5)
        # a deadline in the past is refused on the page, nothing saved
        past = (timezone.localdate() - datetime.timedelta(days=1)).isoformat()
        response = client.post(
            reverse("season_deadline", args=[self.match.season_id]),
            {"competition": "league", "round": 1, "deadline": past},
        )
        assert response.status_code == 422 and "in the past" in response.content.decode()
        assert not RoundDeadline.objects.exists()
