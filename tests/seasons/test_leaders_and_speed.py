"""The leaders page, the player's career and the pages that read kept rows (issue 16): right
numbers, paged, and the same few queries with a small and a larger league behind them."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league import rules
from league.models import Ruleset, Season, SeasonEnd
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season
from matches import stats
from matches.models import Match, PlayerMatch, SquadEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(make_teams, board_member):
    """Four Human teams; `play(seasons)` plays that many double round robins (12 matches each),
    every player in the squad and the first two of each team with a line, then rebuilds the rows."""
    teams = make_teams(4)

    def play(seasons: int):
        previous = None
        for n in range(seasons):
            if previous is not None:  # R43: a team plays in one running season at a time
                Season.objects.filter(pk=previous.pk).update(status=Season.Status.FINISHED)
            season = create_season(
                name=f"Season {n + 1}",
                ruleset=Ruleset.default(),
                divisions=[DivisionPlan(1, "1st division", 6, teams)],
                previous=previous,
            )
            matches = generate_fixtures(season.divisions.get())
            Match.objects.filter(season=season).update(
                status="confirmed", home_score=2, away_score=1, confirmed_at=timezone.now()
            )
            lines, squads = [], []
            for m in matches:
                for team_id in (m.home_id, m.away_id):
                    roster = [p for t in teams if t.pk == team_id for p in t.players.order_by("number")]
                    squads += [SquadEntry(match=m, team_id=team_id, player=p) for p in roster]
                    lines.append(PlayerMatch(match=m, team_id=team_id, player=roster[0], touchdowns=2))
                    lines.append(PlayerMatch(match=m, team_id=team_id, player=roster[1], casualties=1, mvps=1))
            SquadEntry.objects.bulk_create(squads)
            PlayerMatch.objects.bulk_create(lines)
            previous = season
        SeasonEnd.objects.create(season=previous, summary={"trophies": [[teams[0].pk, "1st division"]]})
        stats.rebuild()
        return previous, teams

    return play


@pytest.mark.parametrize("seasons", [1, 4])
def test_pages_use_at_most_eight_queries_whatever_the_league_size(client, league, seasons):
    season, teams = league(seasons)
    player = teams[0].players.order_by("number").first()
    urls = [
        reverse("leaders"),
        f"{reverse('leaders')}?season={season.pk}&race=human&stat=touchdowns",
        f"{reverse('leaders')}?kind=teams",
        f"{reverse('leaders')}?kind=teams&stat=titles&season={season.pk}",
        f"{reverse('standings')}?season={season.pk}",
        reverse("player", args=[player.pk]),
        reverse("team", args=[teams[0].pk]),
        reverse("team_history", args=[teams[0].pk]),  # each season's place: one read for all of them
    ]
    for url in urls:
        client.get(url)  # warm: the parsed ruleset, the session
        cache.clear()  # counted uncached: the page cache would answer in one query
        with CaptureQueriesContext(connection) as read:
            assert client.get(url).status_code == 200, url
        # the team page: the team, its facilities, players, gained skills, injuries, starting skills, coming
        # matches and its matches for the charts; the player page: the player, his skills, changes, starting
        # skills, his lines and their count, and his matches for the SPP chart (issue 40)
        assert len(read) <= 8, (url, [q["sql"][:90] for q in read])


def test_player_leaders_count_every_season_and_the_career(client, league):
    season, teams = league(2)
    # each team plays 6 matches a season; its first player scores 2 TDs in each (R28: 3 SPP per TD)
    response = client.get(f"{reverse('leaders')}?stat=touchdowns")
    rows = list(response.context["page"])
    assert {r.player.team_id for r in rows[:4]} == {t.pk for t in teams}
    assert (rows[0].matches, rows[0].touchdowns, rows[0].spp) == (12, 24, 72)
    one = next(iter(client.get(f"{reverse('leaders')}?stat=touchdowns&season={season.pk}").context["page"]))
    assert (one.matches, one.touchdowns, one.spp) == (6, 12, 36)
    # the second player: a casualty (2 SPP) and an MVP (5 SPP) each match
    mvps = next(iter(client.get(f"{reverse('leaders')}?stat=mvps").context["page"]))
    assert (mvps.mvps, mvps.casualties, mvps.spp) == (12, 12, 12 * 7)


def test_team_leaders_win_percent_differences_and_titles(client, league):
    _season, teams = league(1)
    page = client.get(f"{reverse('leaders')}?kind=teams").context["page"]
    lines = {line.team_id: line for line in page}
    # every match ended 2–1 to the home team: each team won its 3 home matches of 6 (R31)
    assert all(x.played == 6 and x.won == 3 and x.win_percent == 50 for x in lines.values())
    assert all(x.touchdown_difference == 0 for x in lines.values())
    titles = list(client.get(f"{reverse('leaders')}?kind=teams&stat=titles").context["page"])
    assert titles[0].team_id == teams[0].pk and titles[0].titles == 1


def test_the_player_page_pages_his_matches(client, league):
    _season, teams = league(4)  # 24 matches, 20 a page
    player = teams[0].players.order_by("number").first()
    first = client.get(reverse("player", args=[player.pk]))
    assert len(first.context["matches"]) == 20 and first.context["matches"].has_next()
    second = client.get(reverse("player", args=[player.pk]) + "?page=2")
    assert len(second.context["matches"]) == 4
    career = first.context["career"]
    assert (career["matches"], career["touchdowns"], career["spp"]) == (24, 48, 144)  # 3 SPP a TD (R28)


def test_the_player_page_lists_his_matches_newest_confirmed_first(client, league):
    """His career is read along his lines' index, in the order the reports were confirmed, which need
    not be the fixtures' order; each line with the SPP it earned (R28: a touchdown is 3)."""
    season, teams = league(1)
    player = teams[0].players.order_by("number").first()
    played = list(Match.objects.filter(season=season, lines__player=player).order_by("pk"))
    start = timezone.now()
    for n, match in enumerate(reversed(played)):  # the last fixture was confirmed first
        Match.objects.filter(pk=match.pk).update(confirmed_at=start + timedelta(minutes=n))
    stats.rebuild()  # the lines keep their match's confirmation time
    rows = client.get(reverse("player", args=[player.pk])).context["matches"]
    assert [row["match_id"] for row in rows] == [m.pk for m in played]
    assert {(row["touchdowns"], row["spp"]) for row in rows} == {(2, 6)}


def test_the_public_pages_read_a_rulesets_tables_once_per_process(client, league):
    """The standings, team and player pages read their season's or team's ruleset without its 19 KB of
    tables and settings: a published version's are read and parsed once in a process (Ruleset.rules)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league import models

    season, teams = league(1)
    player = teams[0].players.order_by("number").first()
    for url in (
        f"{reverse('standings')}?season={season.pk}",
        reverse("team", args=[teams[0].pk]),
        player.get_absolute_url(),
    ):
        models._PARSED.clear()  # a new process
        with CaptureQueriesContext(connection) as first:
            assert client.get(url).status_code == 200
        cache.clear()
        with CaptureQueriesContext(connection) as again:
            assert client.get(url).status_code == 200
        reads_the_tables = [q for q in first.captured_queries if '"league_ruleset"."data"' in q["sql"]]
        assert len(reads_the_tables) == 1 and len(again) == len(first) - 1, url
        assert not any('"league_ruleset"."data"' in q["sql"] for q in again.captured_queries), url


@pytest.mark.parametrize("query", ["kind=nothing", "stat=goals", "season=abc", "season=99999", "race=no-such-race"])
def test_leaders_with_nonsense_in_the_query_is_404(client, query):
    assert client.get(f"{reverse('leaders')}?{query}").status_code == 404


def test_the_standings_read_the_kept_rows_as_rules_would_count_them(client, league):
    season, teams = league(1)
    table = client.get(f"{reverse('standings')}?season={season.pk}").context["board"].tables[0]
    r = season.ruleset.rules
    results = [
        rules.Result(*row)
        for row in Match.objects.filter(season=season).values_list(
            "home_id", "away_id", "home_score", "away_score", "home_casualties", "away_casualties"
        )
    ]
    expected = r.standings([t.pk for t in teams], results)
    assert [(x.team, x.points, x.position, x.tied) for x in table.lines] == [
        (x.team, x.points, x.position, x.tied) for x in expected
    ]
    assert all(x.points == 9 for x in table.lines)  # three home wins each, 3 points a win (R31)


def test_the_ledger_and_the_team_matches_are_paged(client, league, board_member, django_assert_max_num_queries):
    from teams.models import TreasuryEntry

    _season, teams = league(1)
    team = teams[0]
    last = team.ledger.order_by("-seq").first()
    TreasuryEntry.objects.bulk_create(
        TreasuryEntry(team=team, seq=last.seq + i, amount=10, balance=last.balance + 10 * i, kind="correction")
        for i in range(1, 61)
    )
    client.force_login(board_member)
    url = reverse("team_ledger", args=[team.pk])
    first = client.get(url)
    assert len(first.context["entries"]) == 50 and first.context["entries"].has_next()
    assert first.context["entries"][0].seq == last.seq + 60  # newest first
    assert len(client.get(url + "?page=2").context["entries"]) == last.seq + 60 - 50
    history = client.get(reverse("team_history", args=[team.pk]))
    assert len(history.context["matches"]) == 6 and not history.context["matches"].has_next()


def test_each_counter_the_leaders_rank_by_has_its_indexes():
    """The leaders pages order PlayerStats by these counters, a season's rows and the careers apart;
    a counter without an index would sort every row of a large league."""
    from league.models import LEADER_COUNTERS, PlayerStats
    from league.seasons.leaders import PLAYER_STATS

    assert set(PLAYER_STATS) == set(LEADER_COUNTERS)
    names = {index.name for index in PlayerStats._meta.indexes}
    for counter in LEADER_COUNTERS:
        assert {f"player_stats_{counter[:8]}", f"player_career_{counter[:8]}"} <= names


@pytest.mark.parametrize("seasons", [1, 4])
def test_the_front_page_reads_the_same_few_queries_whatever_the_league_size(
    client, league, seasons, django_assert_max_num_queries
):
    """Tables (the divisions, their entries and tiebreak games), the latest results and the next fixtures (a
    read each), leaders (five categories and their names in one read), memorial of this league (no cup) and
    the form guide (the shown teams' last five at home and away, two reads, issue 40): at most 12 reads,
    with one season behind it or four."""
    league(seasons)
    client.get(reverse("home"))
    cache.clear()
    with django_assert_max_num_queries(12):
        assert client.get(reverse("home")).status_code == 200


def test_the_player_pages_long_tables_are_kept_rendered_by_the_rows_they_show(client, league):
    """His match-by-match table and his history are kept rendered ({% cache %}) under the rows they show,
    as the roster and the tables are (issue 25): the page again renders neither, a new name of an opponent
    is in the match table at once (and only that table is rendered again), each language keeps its own."""
    from league.lib.writes import league_writes
    from teams.models import Team

    _season, teams = league(1)
    player = teams[0].players.order_by("number").first()
    url = reverse("player", args=[player.pk])
    client.get(url)
    kept = set(cache._cache)  # locmem; inside the test's transaction no page is cached, only fragments
    assert client.get(url).status_code == 200 and set(cache._cache) == kept
    with league_writes():
        Team.objects.filter(pk=teams[1].pk).update(name="Grønnland Giants")
    assert "Grønnland Giants" in client.get(url).content.decode()
    assert len(set(cache._cache) - kept) == 1  # the match table; his history names no team
    client.post(reverse("set_language"), {"language": "en"})
    assert "<th>Injury</th>" in client.get(url).content.decode()
