"""A season's standings and results, and the leaders, as CSV files (issue 27): Norwegian headers by
default and English with the language cookie, a byte order mark, ';' between fields, whole numbers
as numbers, the same rows as the pages, a few queries whatever the league's size, and a plain
message for parameters no page links to."""

import csv
import io

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from league.models import Ruleset, Season, SeasonEnd
from league.seasons import leaders as leader_reads
from league.seasons.leaders import Filters, player_leader_rows, team_leader_lines
from league.seasons.selectors import season_board
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season
from matches import stats
from matches.models import Match, PlayerMatch, SquadEntry
from teams.models import Race
from tests.html_tables import table_rows
from tests.results import record_result

pytestmark = pytest.mark.django_db


def read_csv(response) -> list[list[str]]:
    """The file as a spreadsheet reads it: UTF-8 after the byte order mark, ';' between fields."""
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def norwegian(client):
    """The site's own language: no cookie (the folder's client asks for English)."""
    client.cookies.pop("django_language", None)
    return client


@pytest.fixture
def league(make_teams, board_member):
    """`play(seasons, teams=4)`: that many seasons of a double round robin, every match confirmed with
    varied scores, the first two players of each team with deeds, the last season ended with a title."""

    def play(seasons: int = 1, n: int = 4):
        teams = make_teams(n)
        previous = None
        for number in range(seasons):
            if previous is not None:  # R43: a team plays in one running season at a time
                Season.objects.filter(pk=previous.pk).update(status=Season.Status.FINISHED)
            season = create_season(
                name=f"Høst {2020 + number}",
                ruleset=Ruleset.default(),
                divisions=[
                    DivisionPlan(1, "1. divisjon", 6, teams[: n // 2]),
                    DivisionPlan(2, "2. divisjon", 5, teams[n // 2 :]),
                ],
                previous=previous,
            )
            matches = []
            for division in season.divisions.all():
                matches += generate_fixtures(division)
            lines, squads = [], []
            for i, m in enumerate(matches[:-1]):  # the last fixture stays to be played
                record_result(m, home_score=i % 3, away_score=(i + 1) % 2, home_casualties=i % 4, by=board_member)
                for team_id in (m.home_id, m.away_id):
                    roster = [p for t in teams if t.pk == team_id for p in t.players.order_by("number")]
                    squads += [SquadEntry(match=m, team_id=team_id, player=p) for p in roster]
                    lines.append(PlayerMatch(match=m, team_id=team_id, player=roster[0], touchdowns=1 + i % 2))
                    lines.append(PlayerMatch(match=m, team_id=team_id, player=roster[1], casualties=1, mvps=i % 2))
            SquadEntry.objects.bulk_create(squads)
            PlayerMatch.objects.bulk_create(lines)
            Match.objects.filter(pk__in=[m.pk for m in matches[:-1]]).update(confirmed_at=timezone.now())
            previous = season
        SeasonEnd.objects.create(season=previous, summary={"trophies": [[teams[0].pk, "1. divisjon"]]})
        stats.rebuild()
        return previous, teams

    return play


# --- the standings -------------------------------------------------------------------------------


def test_standings_headers_are_norwegian_by_default_and_english_with_the_cookie(client, league):
    season, _teams = league()
    url = reverse("season_standings_csv", args=[season.pk])
    english = read_csv(client.get(url))[0]
    assert english[:4] == ["Division", "Place", "Tied", "Team"] and english[-1] == "Points"
    nb = read_csv(norwegian(client).get(url))[0]
    assert nb[:4] == ["Divisjon", "Plass", "Delt plass", "Lag"] and nb[-1] == "Poeng"
    assert len(nb) == len(english) == 15


def test_standings_are_the_pages_numbers(client, league):
    """Line by line what the standings page shows, and what its selector reads."""
    season, _teams = league()
    rows = read_csv(client.get(reverse("season_standings_csv", args=[season.pk])))[1:]
    page = client.get(reverse("standings"), {"season": season.pk}).content.decode()
    shown = [r.texts() for r in table_rows(page, "standings") if r.cells[0].text != "#"]
    assert len(rows) == len(shown) == 4
    for row, cells in zip(rows, shown, strict=True):
        _division, place, tied, team, race, *numbers = row
        p, w, d, lost, tdf, tda, tdd, casf, casa, pts = (int(n) for n in numbers)  # whole numbers, plain
        assert cells[0] == place + ("=" if tied == "Yes" else "")
        assert cells[1] == f"{team} {race}"
        assert cells[2:6] == [str(p), str(w), str(d), str(lost)]
        assert cells[6:9] == [f"{tdf}–{tda}", f"{tdd:+d}", f"{casf}–{casa}"] and cells[9] == str(pts)
    board = season_board(Season.objects.with_rules().get(pk=season.pk), latest=0, upcoming=0, bracket="none")
    expected = [
        [t.division.name, line["position"], team.name, line["played"], line["points"]]
        for t in board.tables
        for line, team in t.rows()
    ]
    assert [[r[0], int(r[1]), r[3], int(r[5]), int(r[14])] for r in rows] == expected
    assert sum(int(r[5]) for r in rows) > 0  # matches were played


def test_the_file_name_is_ascii_and_says_what_it_holds(client, league):
    season, _teams = league()
    response = norwegian(client).get(reverse("season_standings_csv", args=[season.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="torshov-tabell-host-2020.csv"'
    response = client.get(reverse("season_results_csv", args=[season.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="torshov-resultater-host-2020.csv"'


# --- the results ---------------------------------------------------------------------------------


def test_results_are_the_season_pages_fixtures_with_scores_only_when_confirmed(client, league, board_member):
    season, teams = league()
    cup = draw_cup(season, teams=teams, name="Torshov-cupen", prize=0, by=board_member)
    rows = read_csv(norwegian(client).get(reverse("season_results_csv", args=[season.pk])))
    assert rows[0] == [
        "Turnering",
        "Runde",
        "Dato",
        "Hjemmelag",
        "Bortelag",
        "Hjemmelagets touchdowns",
        "Bortelagets touchdowns",
        "Hjemmelagets skader påført",
        "Bortelagets skader påført",
        "Status",
    ]
    matches = Match.objects.filter(season=season)
    league_matches = [r for r in rows[1:] if r[0] != cup.name]
    assert len(league_matches) == matches.filter(division__isnull=False).count() == 4
    assert len(rows[1:]) - len(league_matches) == matches.filter(cup=cup).count() > 0
    for row in league_matches:
        match = matches.get(home__name=row[3], away__name=row[4], division__isnull=False)
        assert int(row[1]) == match.round
        assert row[2] == (match.date.isoformat() if match.date else "")
        if match.status == Match.Status.CONFIRMED:
            assert [int(n) for n in row[5:9]] == [
                match.home_score,
                match.away_score,
                match.home_casualties,
                match.away_casualties,
            ]
            assert row[9] == "Bekreftet"
        else:
            assert row[5:9] == ["", "", "", ""] and row[9] == "Oppsatt"


def test_a_dated_fixture_has_its_date_in_iso_8601(client, league):
    season, _teams = league()
    match = Match.objects.filter(season=season, status=Match.Status.SCHEDULED).first()
    Match.objects.filter(pk=match.pk).update(date="2026-03-14")
    rows = read_csv(client.get(reverse("season_results_csv", args=[season.pk])))
    assert [r[2] for r in rows if r[3] == match.home.name and r[4] == match.away.name] == ["2026-03-14"]


# --- the leaders ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["players", "teams"])
def test_leaders_headers_in_both_languages(client, league, kind):
    league()
    url = f"{reverse('leaders_csv')}?kind={kind}"
    english, nb = read_csv(client.get(url))[0], read_csv(norwegian(client).get(url))[0]
    if kind == "players":
        assert english[:3] == ["Rank", "Player", "Team"] and nb[:3] == ["Plassering", "Spiller", "Lag"]
    else:
        assert english[-1] == "Titles" and nb[-1] == "Titler" and nb[7] == "Seier %"


def test_player_leaders_are_every_row_of_the_page_with_its_filters(client, league, monkeypatch):
    """Unpaged: the CSV holds every page's rows in the page's order, with the page's filters."""
    season, _teams = league(seasons=2)
    monkeypatch.setattr(leader_reads, "PAGE_SIZE", 3)
    query = {"kind": "players", "stat": "touchdowns", "season": season.pk, "race": "human"}
    rows = read_csv(client.get(reverse("leaders_csv"), query))
    shown = []
    for page in (1, 2):  # 4 rows, 3 a page
        html = client.get(reverse("leaders"), {**query, "page": page}).content.decode()
        shown += [r.texts() for r in table_rows(html, "leaders") if r.cells[0].text != "#"]
    assert len(rows[1:]) == len(shown) == 4
    for row, cells in zip(rows[1:], shown, strict=True):
        rank, player, team, *numbers = row
        numbers = [int(n) for n in numbers]
        assert cells[0] == rank and cells[1] == f"{player} {team}"
        assert cells[2:] == [str(n) for n in numbers]
    f = Filters(season=season, race=Race.objects.get(slug="human"), stat="touchdowns", kind="players")
    assert [r[1] for r in rows[1:]] == [s.player.name for s in player_leader_rows(f)]


def test_team_leaders_are_the_pages_lines_with_the_win_percent_as_a_decimal_comma(client, league):
    league(seasons=2)
    rows = read_csv(client.get(reverse("leaders_csv"), {"kind": "teams", "stat": "titles"}))
    html = client.get(reverse("leaders"), {"kind": "teams", "stat": "titles"}).content.decode()
    shown = [r.texts() for r in table_rows(html, "leaders") if r.cells[0].text != "#"]
    assert len(rows[1:]) == len(shown) == 4
    for row, cells in zip(rows[1:], shown, strict=True):
        rank, team, race, p, w, d, lost, percent, tdd, casd, titles = row
        assert cells[:2] == [rank, f"{team} {race}"]
        assert cells[2:6] == [str(int(n)) for n in (p, w, d, lost)]
        assert cells[6] == percent.replace(",", ".")  # Norwegian Excel reads 66,7 as a number
        assert cells[7:] == [f"{int(tdd):+d}", f"{int(casd):+d}", str(int(titles))]
    lines = team_leader_lines(Filters(season=None, race=None, stat="titles", kind="teams"))
    assert [r[1] for r in rows[1:]] == [line.name for line in lines]
    assert int(rows[1][10]) == 1  # the title of the season end


def test_the_page_links_to_its_file_with_its_filters(client, league):
    season, _teams = league()
    html = client.get(reverse("leaders"), {"kind": "teams", "season": season.pk, "page": 1}).content.decode()
    assert f'href="{reverse("leaders_csv")}?kind=teams&amp;season={season.pk}"' in html


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ({"kind": "coaches"}, 400, "Ukjent liste «coaches»: velg spillere eller lag."),
        ({"stat": "'; DROP TABLE"}, 400, "Ukjent statistikk «'; DROP TABLE»."),
        ({"kind": "teams", "stat": "spp"}, 400, "Ukjent statistikk «spp»."),
        ({"season": "x1"}, 400, "En sesong velges med nummeret sitt."),
        ({"season": "99999"}, 404, "Det finnes ingen sesong nummer 99999."),
        ({"race": "dwarfz"}, 404, "Det finnes ingen rase «dwarfz»."),
    ],
)
def test_leaders_filters_no_page_links_to_say_why_in_norwegian(client, league, query, status, message):
    league()
    response = norwegian(client).get(reverse("leaders_csv"), query)
    assert response.status_code == status
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == message
    assert client.get(reverse("leaders"), query).status_code == 404  # the page as before


@pytest.mark.parametrize("name", ["season_standings_csv", "season_results_csv"])
def test_an_unknown_season_is_a_norwegian_404(client, name):
    response = norwegian(client).get(reverse(name, args=[99999]))
    assert response.status_code == 404
    assert "Fant ikke siden" in response.content.decode()


def test_the_pages_link_to_their_files(client, league):
    season, _teams = league()
    files = [reverse("season_standings_csv", args=[season.pk]), reverse("season_results_csv", args=[season.pk])]
    for page in (reverse("standings"), reverse("season", args=[season.pk])):
        html = norwegian(client).get(page, {"season": season.pk}).content.decode()
        assert "Last ned CSV" in html, page
        assert all(f'href="{url}" download' in html for url in files), page


# 3 seasons: 180 matches, enough to see a count grow (in `make test-long`: the build is most of the time)
@pytest.mark.parametrize("seasons", [1, pytest.param(3, marks=pytest.mark.long)])
def test_each_file_reads_a_few_queries_whatever_the_league_size(client, league, seasons, django_assert_max_num_queries):
    season, _teams = league(seasons=seasons, n=4 * seasons)
    urls = [
        reverse("season_standings_csv", args=[season.pk]),
        reverse("season_results_csv", args=[season.pk]),
        reverse("leaders_csv"),
        f"{reverse('leaders_csv')}?season={season.pk}&race=human&stat=touchdowns",
        f"{reverse('leaders_csv')}?kind=teams",
        f"{reverse('leaders_csv')}?kind=teams&stat=titles&season={season.pk}",
    ]
    for url in urls:
        client.get(url)  # warm: the parsed ruleset, the per-version lists
        cache.clear()
        with django_assert_max_num_queries(6):
            read_csv(client.get(url))
