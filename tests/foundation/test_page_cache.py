"""A visitor's page kept whole per league version (league.lib.pagecache), and the fragments of every page
kept by what they show: the version rises after every league write commits, a confirmed result shows at
once, a kept page reads nothing but the version, and no one is served what was made for someone else."""

import re
import uuid

import pytest
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from league.lib.pagecache import league_version, visitor_key
from league.lib.writes import league_writes
from league.models import LeagueVersion
from matches.models import LiveEvent, Match
from teams.models import Team
from tests.league_writes import versioned
from tests.results import record_result

# Committed writes, as in production (the version rises on commit).
committed = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache(request):
    if request.node.get_closest_marker("django_db"):
        request.getfixturevalue("transactional_db")
        cache.clear()


def main(html: str) -> str:
    return html.split("<main", 1)[1].split("</main>", 1)[0]


def number() -> int:
    return LeagueVersion.objects.get(pk=1).number


def kept_page(path: str, language: str = "nb") -> str | None:
    """What the cache keeps of a visitor's page, as league.lib.pagecache keys it."""
    request = RequestFactory().get(path)
    request.user = AnonymousUser()
    with translation.override(language):
        kept = cache.get(visitor_key(request))
    return kept and kept[0].decode()


@committed
def test_a_committed_league_write_raises_the_version_once_a_rolled_back_one_not_at_all(make_teams, rf):
    make_teams(1)  # creates the row if the database was flushed
    before = number()
    request = rf.get("/")
    request.user = AnonymousUser()
    with league_writes():
        Team.objects.update(fan_factor=3)
        with league_writes():  # a service calling another: one new version
            Team.objects.update(fan_factor=4)
        assert visitor_key(request) is None  # this connection's own writes: nothing kept for it
        assert number() == before  # nothing is locked or raised inside the writing transaction
    assert number() == before + 1
    assert league_version().endswith(f"-{before + 1}")
    with pytest.raises(RuntimeError), league_writes():
        Team.objects.update(fan_factor=5)
        raise RuntimeError
    assert number() == before + 1


@pytest.mark.django_db
def test_a_write_that_forgets_the_version_fails_the_check(make_teams):
    (team,) = make_teams(1)
    with versioned():
        team.refresh_from_db()  # a read is no write
    team.fan_factor = 7
    with pytest.raises(pytest.fail.Exception, match=r"teams\.team"), versioned():
        team.save()
    with versioned(), league_writes():
        team.save()


@committed
def test_a_confirmed_result_is_on_the_kept_standings_at_once(season_with, board_member):
    season, _teams = season_with(2, 0)
    from league.seasons.services import fixtures as services

    services.generate_fixtures(season.divisions.get(level=1))
    anonymous = Client()
    url = f"{reverse('standings')}?season={season.pk}"
    first = anonymous.get(url).content.decode()
    with CaptureQueriesContext(connection) as kept:
        second = anonymous.get(url).content.decode()
    assert second == first  # the whole page, as it was rendered
    assert len(kept) == 1, [q["sql"] for q in kept]  # the version: nothing of the page is read
    match = Match.objects.filter(season=season).order_by("round", "pk").first()
    record_result(match, home_score=2, away_score=0, by=board_member)
    after = anonymous.get(url)
    winner = next(line for line in after.context["board"].tables[0].lines if line.team == match.home_id)
    assert (winner.won, winner.points) == (1, 3)  # R31: a win is 3 points


@committed
def test_no_one_is_served_a_page_made_for_someone_else(season_with, make_user):
    _season, teams = season_with(2, 0)
    url = reverse("team", args=[teams[0].pk])
    anonymous = Client()
    anonymous.get(url)
    kept = kept_page(url)
    assert kept is not None and teams[0].name in kept
    assert "csrfmiddlewaretoken" not in kept and "X-CSRFToken" not in kept  # nothing of one visitor's own
    coach = teams[0].coach
    member = Client()
    member.force_login(coach)
    with CaptureQueriesContext(connection) as read:
        page = member.get(url).content.decode()
    assert "Manage team" in page or "Administrer laget" in page  # his own links, rendered for him
    assert any("teams_player" in q["sql"] for q in read)  # a member's page is rendered each time
    assert kept_page(url) == kept  # and never kept for visitors
    assert "Administrer laget" not in Client().get(url).content.decode()


@committed
def test_a_visitors_message_is_shown_to_him_and_never_kept(season_with, rf):
    """A page with a message for its reader is rendered for him and kept for no one."""
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.backends.db import SessionStore

    from league.views.pages import home

    season_with(2, 0)
    Client().get("/")  # the front page kept
    request = rf.get("/")
    request.user, request.session = AnonymousUser(), SessionStore()
    request._messages = FallbackStorage(request)  # as MessageMiddleware sets it
    messages.info(request, "Velkommen tilbake")
    assert "Velkommen tilbake" in home(request).content.decode()
    assert "Velkommen tilbake" not in kept_page("/")
    assert "Velkommen tilbake" not in Client().get("/").content.decode()


@committed
def test_a_kept_page_needs_no_token_to_switch_language(season_with):
    _season, _teams = season_with(2, 0)
    visitor = Client(enforce_csrf_checks=True)
    visitor.get("/")
    page = visitor.get("/").content.decode()
    assert kept_page("/") == page
    assert "csrfmiddlewaretoken" not in page
    response = visitor.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "<h2>Latest results</h2>" in visitor.get("/").content.decode()  # its own page, kept in English


@committed
def test_a_match_being_played_shows_on_the_kept_front_page_at_once(client):
    """A live log's entries are no league writes, but its start and end raise the version: the front page's
    "being played now" has the match at once, and drops it once it ends."""
    from matches.live.entries import record
    from matches.live.state import EventInput
    from tests import factories

    match = factories.ready_match()
    visitor = Client()
    assert "playing-now" not in visitor.get("/").content.decode()
    coach = match.home.coach
    started = record(match.pk, EventInput(kind=LiveEvent.Kind.START, client_id=uuid.uuid4()), by=coach)
    live = reverse("match_live", args=[match.pk])
    assert live in visitor.get("/").content.decode()
    record(match.pk, EventInput(kind=LiveEvent.Kind.UNDO, client_id=uuid.uuid4(), undoes_id=started.pk), by=coach)
    assert live not in visitor.get("/").content.decode()


@committed
def test_a_division_table_is_kept_rendered_by_what_it_shows(season_with, board_member):
    """The standings' tables are kept rendered ({% cache %}) under the text of what they show
    (DivisionTable.shown): a result or a new name is on the page at once, a table nothing changed in
    is not rendered again, and each language keeps its own (issue 25)."""
    from league.seasons.services import fixtures as services

    season, teams = season_with(2, 2)
    services.generate_fixtures(season.divisions.get(level=1))
    url = f"{reverse('standings')}?season={season.pk}"
    anonymous = Client()
    anonymous.get(url)
    kept = set(cache._cache)  # locmem: the page and its two tables
    match = Match.objects.filter(season=season).order_by("round", "pk").first()
    record_result(match, home_score=2, away_score=0, by=board_member)
    with league_writes():
        Team.objects.filter(pk=teams[3].pk).update(name="Grønnland Giants")
    html = anonymous.get(url).content.decode()
    winner = re.search(rf'<a href="/teams/{match.home_id}/">.*?</tr>', html, re.S).group(0)
    assert re.findall(r"<td class=\"num\">(\d+)</td>", winner) == ["1", "1", "0", "0"]  # P W D L, R31
    assert "<strong>3</strong>" in winner  # R31: a win is 3 points
    assert "Grønnland Giants" in html
    assert len(set(cache._cache) - kept) == 3  # the new page, both tables rendered anew (both changed)
    kept = set(cache._cache)
    with league_writes():
        Team.objects.filter(pk=teams[3].pk).update(name="Grønnland Gnomes")  # the 2nd division only
    assert "Grønnland Gnomes" in anonymous.get(url).content.decode()
    assert len(set(cache._cache) - kept) == 2  # the new page and the 2nd division's table
    anonymous.post(reverse("set_language"), {"language": "en"})
    assert "<th>Team</th>" in anonymous.get(url).content.decode()


@committed
def test_the_front_pages_lists_are_kept_rendered_by_what_they_show(season_with, board_member):
    """The front page's lists, cup and leaders are kept rendered ({% cache %}) under what they show, as the
    tables are (issue 25): a write that changes nothing on them renders only the page again; a result is
    on it at once, in the latest results and in its division's table."""
    from league.seasons.services import fixtures as services

    season, teams = season_with(2, 2)
    services.generate_fixtures(season.divisions.get(level=1))
    anonymous = Client()
    anonymous.get("/")
    kept = set(cache._cache)  # locmem: the page, its two tables, its lists and its leaders
    with league_writes():
        Team.objects.filter(pk=teams[0].pk).update(name=teams[0].name)  # a write that changes nothing shown
    anonymous.get("/")
    assert len(set(cache._cache) - kept) == 1  # the new version's page only
    match = Match.objects.filter(season=season).order_by("round", "pk").first()
    record_result(match, home_score=2, away_score=0, by=board_member)
    html = anonymous.get("/").content.decode()
    assert re.search(rf'<a href="/matches/{match.pk}/">[^<]*<strong>2–0</strong>', html)  # the latest results
    winner = re.search(rf'<a href="/teams/{match.home_id}/">.*?</tr>', html, re.S).group(0)
    assert "<strong>3</strong>" in winner  # R31: a win is 3 points, in the 1st division's table
