"""Public pages from a cache that writes invalidate (issues 16, 25): the league version rises after
every league write commits, a confirmed result shows at once, conditional GET answers 304,
and no visitor is served a page made for someone else."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils.http import http_date

from league.lib.pagecache import CSRF_MARK, league_version
from league.lib.writes import league_writes
from league.models import LeagueVersion
from matches.models import Match
from teams.models import Team
from tests.league_writes import ROOT, Guard, is_league_write
from tests.results import record_result

# Committed writes, as in production (the version rises on commit); the checks of the guard's pattern
# need no database, and a flushed one costs about half a second a test.
committed = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache(request):
    if request.node.get_closest_marker("django_db"):
        request.getfixturevalue("transactional_db")
        cache.clear()


def without_token(response) -> str:
    """The page without its CSRF token, which is masked anew for every response."""
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode()).group(1)
    return response.content.decode().replace(token, "")


def number() -> int:
    return LeagueVersion.objects.get(pk=1).number


@committed
def test_a_committed_league_write_raises_the_version_once_a_rolled_back_one_not_at_all(make_teams):
    make_teams(1)  # creates the row if the database was flushed
    before = number()
    with league_writes():
        Team.objects.update(fan_factor=3)
        with league_writes():  # a service calling another: one new version
            Team.objects.update(fan_factor=4)
        assert league_version() is None  # this connection's own writes: no cached page for it
        assert number() == before  # nothing is locked or raised inside the writing transaction
    assert number() == before + 1
    with pytest.raises(RuntimeError), league_writes():
        Team.objects.update(fan_factor=5)
        raise RuntimeError
    assert number() == before + 1


@committed
@pytest.mark.unguarded
def test_the_guard_fails_app_code_that_writes_league_rows_outside_league_writes(make_teams):
    make_teams(1)
    guard = Guard()
    app_code = compile("Team.objects.update(fan_factor=2)", str(ROOT / "teams" / "services.py"), "exec")
    with connection.execute_wrapper(guard):
        Team.objects.update(fan_factor=1)  # a test's own data: no app frame
        with league_writes():
            exec(app_code, {"Team": Team})
        assert guard.unversioned == []
        exec(app_code, {"Team": Team})
    assert len(guard.unversioned) == 1 and guard.unversioned[0].startswith("teams/services.py:1")


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ('UPDATE "teams_team" SET "fan_factor" = 3', True),
        ('INSERT INTO "matches_playermatch" ("match_id") VALUES (1)', True),
        ('DELETE FROM "league_tiebreakgame" WHERE id = 1', True),
        ('UPDATE "league_leagueversion" SET number = 2', False),
        ('UPDATE "django_session" SET "expire_date" = now()', False),
        ('SELECT * FROM "teams_team"', False),
    ],
)
def test_which_statements_the_guard_counts_as_league_writes(sql, expected):
    assert is_league_write(sql) is expected


@committed
def test_a_confirmed_result_is_on_the_cached_standings_at_once(season_with, board_member):
    season, _teams = season_with(2, 0)
    from league.seasons.services import fixtures as services

    services.generate_fixtures(season.divisions.get(level=1))
    anonymous = Client()
    url = f"{reverse('standings')}?season={season.pk}"
    first = anonymous.get(url)
    assert first.status_code == 200 and "X-Page-Cache" not in first
    second = anonymous.get(url)
    assert second["X-Page-Cache"] == "hit" and without_token(second) == without_token(first)
    match = Match.objects.filter(season=season).order_by("round", "pk").first()
    record_result(match, home_score=2, away_score=0, by=board_member)
    after = anonymous.get(url)
    assert "X-Page-Cache" not in after  # a new version: rendered afresh
    winner = next(line for line in after.context["board"].tables[0].lines if line.team == match.home_id)
    assert (winner.won, winner.points) == (1, 3)  # R31: a win is 3 points


@committed
def test_conditional_get_answers_304_until_the_league_changes(season_with, board_member):
    _season, teams = season_with(2, 0)
    client = Client()
    url = reverse("leaders")
    response = client.get(url)
    etag, modified = response["ETag"], response["Last-Modified"]
    # the version's own time, read in UTC on SQLite as on PostgreSQL (not shifted by the server's zone)
    assert modified == http_date(LeagueVersion.objects.get(pk=1).changed_at.timestamp())
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    # Last-Modified is whole seconds: two writes in one second look alike, so the ETag decides
    assert client.get(url, headers={"if-modified-since": modified}).status_code == 200
    from teams.services import buy_apothecary

    buy_apothecary(teams[0], by=teams[0].coach)
    again = client.get(url, headers={"if-none-match": etag})
    assert again.status_code == 200 and again["ETag"] != etag


@committed
def test_no_one_is_served_a_page_made_for_someone_else(season_with, make_user):
    _season, teams = season_with(2, 0)
    url = reverse("team", args=[teams[0].pk])
    anonymous = Client()
    anonymous.get(url)
    cached = anonymous.get(url)
    assert cached["X-Page-Cache"] == "hit"
    html = cached.content.decode()
    assert CSRF_MARK not in html and 'name="csrfmiddlewaretoken" value="' in html  # this visitor's token
    coach = teams[0].coach
    member = Client()
    member.force_login(coach)
    page = member.get(url)
    assert "X-Page-Cache" not in page
    assert f"Log out ({coach.username})" in page.content.decode() or coach.username in page.content.decode()
    assert coach.username not in Client().get(url).content.decode().split("<main", 1)[0]
    # a logged-in user's page is his own: no ETag another's copy could match, nor an anonymous one
    assert "ETag" not in page
    other = Client()
    other.force_login(make_user("someone"))
    assert other.get(url, headers={"if-none-match": cached["ETag"]}).status_code == 200


@committed
def test_the_cached_page_token_passes_the_csrf_check(season_with):
    _season, _teams = season_with(2, 0)
    visitor = Client(enforce_csrf_checks=True)
    visitor.get("/")
    page = visitor.get("/")
    assert page["X-Page-Cache"] == "hit"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    response = visitor.post(reverse("set_language"), {"language": "en", "csrfmiddlewaretoken": token, "next": "/"})
    assert response.status_code == 302


def test_anonymous_user_is_not_authenticated():
    assert not AnonymousUser().is_authenticated and connection.vendor in ("postgresql", "sqlite")


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
