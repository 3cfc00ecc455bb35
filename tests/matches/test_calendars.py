"""Calendar feeds (issue 27), parsed with icalendar: a team's, the league's and a coach's private one;
stable UIDs across a date change, times in Europe/Oslo, and the private secret renewed."""

import datetime
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import CalendarFeed
from matches import calendars, scheduling
from matches.models import Match
from tests import factories

pytestmark = pytest.mark.django_db

OSLO = ZoneInfo("Europe/Oslo")


def day(days: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=days)


def at(days: int, hour: int = 19, minute: int = 0) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day(days), datetime.time(hour, minute)))


def events(response) -> dict[str, icalendar.Event]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(
        b"".join(response.streaming_content) if response.streaming else response.content
    )
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


class Setup:
    @classmethod
    def setUpTestData(cls):
        cls.match = factories.league_match()
        cls.board = factories.user("styret", board=True, coach=False)

    def agree(self, when):
        proposal = scheduling.propose_dates(self.match, starts=[when], by=self.match.home.coach)[0]
        return scheduling.accept_date(proposal, by=self.match.away.coach)


class TestTeamAndLeagueFeeds(Setup):
    def test_only_dated_matches_are_events_in_oslo_time(self, client):
        url = reverse("team_calendar", args=[self.match.home_id])
        assert events(client.get(url)) == {}  # nothing dated yet
        self.agree(at(3, 19, 30))
        found = events(client.get(url))
        uid = f"match-{self.match.pk}@torshov-league"
        assert list(found) == [uid]
        event = found[uid]
        start = event.decoded("DTSTART")
        assert start.tzinfo is not None and start.tzinfo.key == "Europe/Oslo"
        assert (start.date(), start.hour, start.minute) == (day(3), 19, 30)
        assert event["DTSTART"].params["TZID"] == "Europe/Oslo"
        assert str(event["SUMMARY"]) == f"{self.match.home.name} – {self.match.away.name}"
        assert str(event["URL"]).endswith(reverse("match", args=[self.match.pk]))

    def test_a_changed_date_updates_the_same_event(self, client):
        url = reverse("team_calendar", args=[self.match.away_id])
        self.agree(at(3))
        first = events(client.get(url))[f"match-{self.match.pk}@torshov-league"]
        self.agree(at(5, 20))  # moved, agreed again
        second = events(client.get(url))[f"match-{self.match.pk}@torshov-league"]
        assert second.decoded("DTSTART") == at(5, 20)
        assert int(second["SEQUENCE"]) > int(first["SEQUENCE"])
        assert second.decoded("LAST-MODIFIED") >= first.decoded("LAST-MODIFIED")
        assert second.decoded("DTSTAMP") == second.decoded("LAST-MODIFIED")

    def test_a_result_updates_the_same_event_too(self, client):
        """The summary names the score once the match is played: a calendar that keeps an event by its
        SEQUENCE must see a new one to show it."""
        url = reverse("team_calendar", args=[self.match.home_id])
        self.agree(at(3))
        first = events(client.get(url))[f"match-{self.match.pk}@torshov-league"]
        self.match.refresh_from_db()
        self.match.status, self.match.home_score, self.match.away_score = Match.Status.CONFIRMED, 2, 1
        self.match.save()  # as the confirmation writes it, with its history row
        second = events(client.get(url))[f"match-{self.match.pk}@torshov-league"]
        assert str(second["SUMMARY"]) == f"{self.match.home.name} 2–1 {self.match.away.name}"
        assert int(second["SEQUENCE"]) == int(first["SEQUENCE"]) + 1

    def test_a_date_without_a_time_is_a_day(self, client):
        scheduling.board_schedule(self.match, date=day(4), time=None, by=self.board)
        event = events(client.get(reverse("league_calendar")))[f"match-{self.match.pk}@torshov-league"]
        assert event.decoded("DTSTART") == day(4) and event.decoded("DTEND") == day(5)

    def test_the_league_feed_holds_every_dated_fixture(self, client):
        Match.objects.filter(season=self.match.season).update(date=day(10))
        found = events(client.get(reverse("league_calendar")))
        assert len(found) == Match.objects.filter(season=self.match.season).exclude(status="bye").count()

    def test_the_pages_link_to_the_feeds(self, client):
        html = client.get(reverse("team", args=[self.match.home_id])).content.decode()
        assert reverse("team_calendar", args=[self.match.home_id]) in html
        self.agree(at(3, 18))
        html = client.get(reverse("match", args=[self.match.pk])).content.decode()
        assert "https://calendar.google.com/calendar/render?action=TEMPLATE" in html and "ctz=Europe%2FOslo" in html


class TestPrivateFeed(Setup):
    def test_the_coachs_feed_holds_his_matches_and_the_deadlines(self, client):
        coach = self.match.home.coach
        self.agree(at(3))
        deadline = scheduling.set_round_deadline(
            self.match.season, competition="league", round=1, deadline=day(7), by=self.board
        )
        path = calendars.private_path(coach)
        found = events(client.get(path))  # no log-in: the secret is the key
        assert f"match-{self.match.pk}@torshov-league" in found
        event = found[f"deadline-{deadline.pk}@torshov-league"]
        assert event.decoded("DTSTART") == day(7) and "1" in str(event["SUMMARY"])
        # another coach's feed has neither
        other = factories.user("annen_trener")
        assert events(client.get(calendars.private_path(other))) == {}

    def test_a_forged_or_renewed_secret_is_not_found(self, client):
        coach = self.match.home.coach
        old = calendars.private_path(coach)
        assert client.get(reverse("coach_calendar", args=[f"{coach.pk}-" + "0" * 32])).status_code == 404
        client.force_login(coach)
        response = client.post(reverse("calendar_renew"))
        assert response.status_code == 302 and response.url == reverse("calendar_page")
        new = calendars.private_path(coach)
        assert new != old
        client.logout()
        assert client.get(old).status_code == 404 and client.get(new).status_code == 200

    @pytest.mark.parametrize("who", ["anonymous", "other_coach", "coach", "board"])
    def test_renewing_is_each_ones_own(self, client, who):
        coach = self.match.home.coach
        before = calendars.private_path(coach)
        user = {"anonymous": None, "other_coach": factories.user("annen"), "coach": coach, "board": self.board}[who]
        if user is not None:
            client.force_login(user)
        response = client.post(reverse("calendar_renew"))
        after = calendars.private_path(coach)
        if who == "coach":
            assert response.status_code == 302 and after != before and CalendarFeed.objects.filter(user=coach).exists()
        else:  # anonymous: to the log-in; anyone else renews only his own
            assert response.status_code == 302 and after == before
            if who == "anonymous":
                assert reverse("login") in response.url

    def test_the_calendar_page_shows_the_address(self, client):
        coach = self.match.home.coach
        assert client.get(reverse("calendar_page")).status_code == 302  # log in first
        client.force_login(coach)
        html = client.get(reverse("calendar_page")).content.decode()
        assert calendars.private_path(coach) in html and "webcal://" in html
        assert reverse("calendar_page") in client.get(reverse("coach_home")).content.decode()
