"""Norwegian everywhere (issue 12): every page a visitor, a coach and the board reach, rendered in
Norwegian, shows none of the English strings and raw keys the issue found."""

import html as htmllib
import re
from collections import deque

import pytest

from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import start_season
from matches.models import Match
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import roll_handicap
from matches.report.confirmation import confirm_report
from matches.report.filing import ReportInput, file_report
from tests import factories
from tests.sizes import size

pytestmark = pytest.mark.django_db

LINK = re.compile(r'href="(/[^"#]*)"')
# What the issue saw in the Norwegian interface: English words, rule keys, Python values and lists.
KNOWN = [
    "niggling injuries",
    "ordinary",
    "expensive",
    "season-pris",
    "completion",
    "heal_dead",
    "revive_dead",
    "tr_divisor",
    "Season entrys",
    "Please correct the error",
    "Raser og stallar",
    "Etter kampens",
]
WORDS = re.compile(r"\b(True|False|None)\b|\[\d+, \d+")  # Python's booleans, None and lists
# Pages a crawl reads at most: the first ones of each kind in `make test`, every one in `make test-long`
# (tests/sizes.py). Each page is a request of a fraction of a second, and the board reaches hundreds.
CRAWL_PAGES = size("CRAWL_PAGES", 40, 1000)


def visible_text(html: str) -> str:
    # scripts and styles are not shown; <code> and <textarea> hold data formats and JSON on purpose
    html = re.sub(r"<(script|style|code|textarea)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", html))


def walk_prematch(match):
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=None, away_dice=None, by=None)
    roll_handicap(match, by=None)


def build_league():
    """A running season with matches in several states: scheduled, pre-match walked, reported, confirmed."""
    season, teams = factories.season_with(4, 3)
    for division in season.divisions.all():
        generate_fixtures(division)
    start_season(season)
    first = list(Match.objects.filter(division__level=1, round=1).order_by("pk"))
    confirmed, walked = first[0], first[1]
    walk_prematch(confirmed)
    file_report(confirmed, ReportInput(home_score=2, away_score=1), by=confirmed.home.coach)
    confirm_report(confirmed, by=confirmed.away.coach)
    walk_prematch(walked)
    second = Match.objects.filter(division__level=2, round=1, home__isnull=False, away__isnull=False).first()
    walk_prematch(second)
    file_report(second, ReportInput(home_score=0, away_score=0), by=second.home.coach)  # waiting to be confirmed
    return season, teams, confirmed


def english_on(client, start, limit, skip=("/static/", "/accounts/logout/", "/i18n/", "/admin/logout/")):
    """Every page reachable from start (breadth first) and what it shows of the known list."""
    seen, queue, found, pages = {start}, deque([start]), {}, 0
    limit = min(limit, CRAWL_PAGES)
    while queue and pages < limit:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        pages += 1
        html = response.content.decode()
        text = visible_text(html)
        hits = [s for s in KNOWN if s in text] + [m.group(0) for m in WORDS.finditer(text)]
        if hits:
            found[url] = sorted(set(hits))
        for link in LINK.findall(html):
            link = link.replace("&amp;", "&")
            if link in seen or link.startswith(skip) or ("/admin/" in link and ("?" in link or "/history/" in link)):
                continue
            seen.add(link)
            queue.append(link)
    return pages, found


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "nb"
    return client


SNAKE_CASE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")  # an internal name: head_to_head_points, tiebreak_game


class TestALeagueInEveryState:
    """The league built once for the class's tests (tests/conftest.py, set_up_test_data): each test reads it
    in a savepoint of its own."""

    @classmethod
    def setUpTestData(cls):
        cls.built = build_league()

    @pytest.fixture
    def league(self):
        return self.built

    def test_a_visitor_sees_no_english_or_raw_keys(self, client, league):
        pages, found = english_on(client, "/", limit=150)
        assert pages > 20
        assert found == {}

    def test_the_coaches_see_no_english_or_raw_keys(self, client, league):
        _, _, confirmed = league
        found = {}
        for coach in (confirmed.home.coach, confirmed.away.coach):
            client.force_login(coach)
            pages, on_pages = english_on(client, "/my/", limit=150)
            assert pages > 20
            found.update(on_pages)
        assert found == {}

    def test_the_board_sees_no_english_or_raw_keys(self, client, league, board_member):
        client.force_login(board_member)
        pages, found = english_on(client, "/", limit=250)
        assert pages > 30
        admin_pages, in_admin = english_on(client, "/admin/", limit=60)
        assert admin_pages > 10
        assert {**found, **in_admin} == {}

    def test_dates_are_written_the_norwegian_way(self, client, league):
        """ "24. nov." in Norwegian (Django's own nb format would say "24. november"), "24. Nov" in English."""
        import datetime

        _, teams, _ = league
        coming = (
            Match.objects.filter(status=Match.Status.SCHEDULED, home=teams[0]).first()
            or Match.objects.filter(status=Match.Status.SCHEDULED, away=teams[0]).first()
        )
        Match.objects.filter(pk=coming.pk).update(date=datetime.date(2026, 11, 24))
        assert "24. nov." in visible_text(client.get(f"/teams/{teams[0].pk}/").content.decode())
        client.cookies["django_language"] = "en"
        assert "24. Nov" in visible_text(client.get(f"/teams/{teams[0].pk}/").content.decode())

    def test_amounts_in_messages_are_written_as_in_the_tables(self, client, league):
        """A refusal's amounts as the tables write them: 250 000 with a no-break space, not 250,000."""
        from league.lib.once import new_token

        _, teams, _ = league
        team = teams[0]  # 350 000 in the treasury after its players
        client.force_login(team.coach)
        for facility in ("tv_station", "vip_lounge"):  # 250 000 + 150 000: the second does not fit
            url = f"/teams/{team.pk}/buy/facility-{facility}/"
            response = client.post(url, {"token": new_token(), "confirmed": "1"}, follow=True)
        text = visible_text(response.content.decode())
        assert "150\u00a0000" in text and "150,000" not in text

    def test_the_rules_page_says_its_settings_in_norwegian_words_and_numbers(self, client, league):
        """Amounts as the book writes them (60 000, no "gp"), the tie-breakers in words, a unit's singular
        for one (1 re-roll, 1 spiller), no English "casualties"."""
        text = visible_text(client.get("/rules/").content.decode())
        settings = text.split("Innstillinger")[-1]
        assert "60\u00a0000, 40\u00a0000, 20\u00a0000" in settings  # the 1st division's prizes (R32)
        assert "1\u00a0000\u00a0000" in settings  # the starting treasury (R5)
        assert " gp" not in text and "60,000" not in text and "40000" not in text
        assert SNAKE_CASE.findall(text) == []
        assert "poeng i innbyrdes kamper, touchdown-differanse, scorede touchdowns, tiebreak-kamp" in settings
        assert "0–20\u00a0000" in text  # the winnings table's first row
        assert re.search(r"\b1 re-roll\b ", settings) and not re.search(r"\b1 re-rolls", settings)
        assert re.search(r"\b1 spiller\b ", settings) and not re.search(r"\b1 spillere", settings)
        assert "8 re-rolls" in settings and "16 spillere" in settings
        assert "casualties" not in text

    def test_the_team_management_page_writes_amounts_the_norwegian_way(self, client, league):
        _, teams, _ = league
        team = teams[0]
        client.force_login(team.coach)
        text = visible_text(client.get(f"/teams/{team.pk}/manage/").content.decode())
        assert "Kasse: 450\u00a0000" in text and "150\u00a0000" in text  # the treasury, the VIP lounge's price
        assert "450,000" not in text and " gp" not in text and "casualties" not in text
        ledger = visible_text(client.get(f"/teams/{team.pk}/ledger/").content.decode())
        assert "450\u00a0000" in ledger and "450,000" not in ledger

    def test_the_admin_index_names_the_apps_in_norwegian(self, client, league, board_member):
        client.force_login(board_member)
        text = visible_text(client.get("/admin/").content.decode())
        assert "Kamper" in text and "Innloggingsforsøk" in text and "Mislykkede innlogginger" in text
        for english in ("Matches", "Teams", "Axes", "Access attempts", "Access failures", "Model name"):
            assert english not in text


def test_the_ledger_names_each_line_once():
    """ "Kampbonus: home – away", not "Kampbonus: home – away (Kampbonus)"; a purchase says it is one."""
    from django.utils import translation

    from teams.models import TreasuryEntry

    with translation.override("nb"):
        winnings = TreasuryEntry(kind=TreasuryEntry.Kind.WINNINGS, description="Kampbonus: Ila – Kampen")
        purchase = TreasuryEntry(kind=TreasuryEntry.Kind.PURCHASE, description="Fan factor 4")
        assert (winnings.kind_note, purchase.kind_note) == ("", "Kjøp")
