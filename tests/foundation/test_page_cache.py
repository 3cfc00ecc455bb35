"""Public pages' fragments kept per league version (league.lib.pagecache): the version rises after every
league write commits, a confirmed result shows at once, a kept page reads nothing but the version, and no
visitor is served what was made for someone else."""

import re

import pytest
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.lib.pagecache import NOT_KEPT, page_cache
from league.lib.writes import league_writes
from league.models import LeagueVersion
from matches.models import Match
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


def kept_fragment(name: str, path: str, language: str = "nb") -> str | None:
    """What the cache keeps of a page's fragment, as its template keys it."""
    row = LeagueVersion.objects.values_list("token", "number").get(pk=1)
    return cache.get(make_template_fragment_key(name, ["{}-{}".format(*row), language, path]))


@committed
def test_a_committed_league_write_raises_the_version_once_a_rolled_back_one_not_at_all(make_teams, rf):
    make_teams(1)  # creates the row if the database was flushed
    before = number()
    request = rf.get("/")
    request.user = type("Visitor", (), {"is_authenticated": False})()
    with league_writes():
        Team.objects.update(fan_factor=3)
        with league_writes():  # a service calling another: one new version
            Team.objects.update(fan_factor=4)
        assert page_cache(request) is NOT_KEPT  # this connection's own writes: nothing kept for it
        assert number() == before  # nothing is locked or raised inside the writing transaction
    assert number() == before + 1
    assert page_cache(request).version.endswith(f"-{before + 1}")
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
    assert main(second) == main(first)  # the page around it carries the visitor's own CSRF token
    # the season asked for and the version: the tables, the seasons' picker and the lines are not read
    assert len(kept) == 2, [q["sql"] for q in kept]
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
    fragment = kept_fragment("team_page", url)
    assert fragment is not None and teams[0].name in fragment
    assert "csrfmiddlewaretoken" not in fragment  # the forms and the nav are outside what is kept
    coach = teams[0].coach
    member = Client()
    member.force_login(coach)
    with CaptureQueriesContext(connection) as read:
        page = member.get(url).content.decode()
    assert "Manage team" in page or "Administrer laget" in page  # his own links, rendered for him
    assert any("teams_player" in q["sql"] for q in read)  # a member's page is rendered each time
    assert "Administrer laget" not in Client().get(url).content.decode()


@committed
def test_a_kept_pages_token_passes_the_csrf_check(season_with):
    _season, _teams = season_with(2, 0)
    visitor = Client(enforce_csrf_checks=True)
    visitor.get("/")
    page = visitor.get("/")
    assert kept_fragment("home_page", "/") is not None
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    response = visitor.post(reverse("set_language"), {"language": "en", "csrfmiddlewaretoken": token, "next": "/"})
    assert response.status_code == 302


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
