"""The league board pages, the board's season pages and the JSON (issue 5)."""

import pytest
from django.urls import reverse

from league.models import Cup, Season, TiebreakGame
from league.seasons.selectors import season_board
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures, record_tiebreak
from league.seasons.services.season_end import commit_season_end
from league.seasons.services.setup import DivisionPlan, create_season, start_season
from matches.models import Match
from tests.results import record_result

pytestmark = pytest.mark.django_db


def play_rounds(season, board_member, rounds):
    for division in season.divisions.all():
        generate_fixtures(division)
    start_season(season)
    for match in Match.objects.filter(season=season, round__lte=rounds).order_by("round", "pk"):
        record_result(match, home_score=2, away_score=1, home_casualties=1, by=board_member)


@pytest.mark.parametrize("rounds", [1, 6])
def test_front_page_and_standings_use_a_fixed_number_of_queries(
    client, season_with, board_member, rounds, django_assert_max_num_queries
):
    season, teams = season_with(4, 3)
    play_rounds(season, board_member, rounds)
    draw_cup(season, teams=teams, name="Cup", prize=0, by=board_member)
    for url in (
        reverse("home"),
        reverse("standings"),
        reverse("matches"),
        reverse("cup", args=[season.pk]),
        reverse("api_standings", args=[season.pk]),
    ):
        with django_assert_max_num_queries(12):
            assert client.get(url).status_code == 200


def test_front_page_shows_tables_results_and_fixtures(client, season_with, board_member):
    season, _teams = season_with(4, 3)
    play_rounds(season, board_member, 1)
    html = client.get(reverse("home")).content.decode()
    assert "1st division" in html and "2nd division" in html
    assert "Team A" in html and "2–1" in html


def test_api_standings(client, season_with, board_member):
    season, _teams = season_with(4, 3)
    play_rounds(season, board_member, 1)
    data = client.get(reverse("api_standings", args=[season.pk])).json()
    d1 = data["divisions"][0]
    assert d1["level"] == 1 and len(d1["standings"]) == 4
    first = d1["standings"][0]
    assert set(first) >= {
        "team",
        "position",
        "played",
        "won",
        "drawn",
        "lost",
        "touchdowns_for",
        "touchdowns_against",
        "touchdown_difference",
        "casualties_for",
        "casualties_against",
        "points",
    }
    assert first["points"] == 3 and first["position"] == 1
    seasons = client.get(reverse("api_seasons")).json()["seasons"]
    assert seasons[0]["name"] == "Season 1" and [d["die"] for d in seasons[0]["divisions"]] == [6, 5]


def test_team_history_and_season_pages(client, season_with, board_member):
    season, teams = season_with(4, 3)
    play_rounds(season, board_member, 2)
    assert "Season 1" in client.get(reverse("team_history", args=[teams[0].pk])).content.decode()
    assert client.get(reverse("season", args=[season.pk])).status_code == 200
    assert client.get(reverse("seasons")).status_code == 200
    match = Match.objects.filter(season=season, status="confirmed").first()
    assert "2 – 1" in client.get(reverse("match", args=[match.pk])).content.decode()


def test_team_history_shows_each_seasons_place_from_that_seasons_results_r31(client, make_teams, board_member):
    """Two seasons of the same three teams: the first team wins everything in the first and loses
    everything in the second. Its history reads each season's line from that season alone (3 points a
    win, R31), its place among its division's teams. The second season starts once the first has
    ended (R43: a team plays in one running season at a time)."""
    from league.models import Ruleset

    teams = make_teams(3)
    first = create_season(
        name="S1", ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1st", 6, teams)]
    )
    star = teams[0]

    def play(season, star_wins: bool) -> None:
        for match in generate_fixtures(season.divisions.get()):
            plays = star.pk in (match.home_id, match.away_id)
            home_wins = (match.home_id == star.pk) == star_wins if plays else True
            record_result(match, home_score=2 if home_wins else 0, away_score=0 if home_wins else 2, by=board_member)

    play(first, star_wins=True)
    # The other two won their home games against each other: the tie for the prizes is played off (R31).
    record_tiebreak(first.divisions.get(), winner=teams[1], loser=teams[2], by=board_member)
    second = commit_season_end(first, by=board_member, next_name="S2")
    play(second, star_wins=False)
    rows = client.get(reverse("team_history", args=[star.pk])).context["seasons"]
    assert [(r["season"].name, r["line"].position, r["size"], r["line"].won, r["line"].points) for r in rows] == [
        ("S2", 3, 3, 0, 0),  # the newest first: four losses
        ("S1", 1, 3, 4, 12),  # four wins of four
    ]


def test_the_board_creates_a_season_in_the_app(client, board_member, make_teams):
    from league.models import Ruleset

    teams = make_teams(5)
    client.force_login(board_member)
    response = client.post(
        reverse("season_create"),
        {
            "name": "Sesong 2027",
            "ruleset": Ruleset.default().pk,
            "division_1": [t.pk for t in teams[:3]],
            "division_2": [t.pk for t in teams[3:]],
        },
    )
    season = Season.objects.get(name="Sesong 2027")
    assert response.status_code == 302 and [d.die for d in season.divisions.order_by("level")] == [6, 5]
    response = client.post(
        reverse("season_create"),
        {
            "name": "Sesong 2028",
            "ruleset": Ruleset.default().pk,
            "division_1": [t.pk for t in teams[:3]],
            "division_2": [t.pk for t in teams[2:]],
        },
    )
    assert "cannot play in both divisions" in response.content.decode()
    assert not Season.objects.filter(name="Sesong 2028").exists()


# --- permission matrix on every board write --------------------------------------------------------


def board_writes(season, teams):
    d1 = season.divisions.get(level=1)
    return [
        (
            "season_fixtures",
            [season.pk, d1.pk],
            {"days_between": "14"},
            lambda: Match.objects.filter(division=d1).exists(),
        ),
        (
            "season_add_fixture",
            [season.pk, d1.pk],
            {"round": "9", "home": teams[0].pk, "away": teams[1].pk},
            lambda: Match.objects.filter(division=d1, round=9).exists(),
        ),
        (
            "season_tiebreak",
            [season.pk, d1.pk],
            {"winner": teams[0].pk, "loser": teams[1].pk},
            lambda: TiebreakGame.objects.exists(),
        ),
        (
            "cup_draw",
            [season.pk],
            {"name": "Cup", "prize": "0", "teams": [t.pk for t in teams]},
            lambda: Cup.objects.exists(),
        ),
        ("season_start", [season.pk], {}, lambda: Season.objects.get(pk=season.pk).status == "running"),
    ]


def test_leaders_are_each_categorys_best_as_read_alone(make_teams):
    """The five categories' best careers come in one read; each category is ranked as its own index
    reads it (most first, then by player), among the players on a roster."""
    import random

    from league.models import PlayerStats
    from league.seasons.leaders import ROSTER_LEADER_STATS, roster_leaders
    from teams.models import Player

    rng = random.Random(25)
    players = [p for team in make_teams(2) for p in team.players.order_by("number")]
    for player in players:
        _career(player, **{stat: rng.choice([0, 1, 2, 2, 3]) for stat in ROSTER_LEADER_STATS if stat != "spp"})
    Player.objects.filter(pk__in=[p.pk for p in players[::4]]).update(status=Player.Status.DEAD)
    careers = PlayerStats.objects.filter(season=None, player__status=Player.Status.ACTIVE)
    board = roster_leaders()
    for stat in ROSTER_LEADER_STATS:
        best = careers.filter(**{f"{stat}__gt": 0}).order_by(f"-{stat}", "player_id")
        assert [(p.pk, v) for p, v in board[stat]] == list(best.values_list("player_id", stat)[:5]), stat


def test_front_page_lists_the_newest_results_first_and_the_next_fixtures_soonest_first(
    client, season_with, board_member
):
    """Each list as read alone, with its types (aware times on SQLite too); the cup's rounds in order,
    byes last (moved here from the tests of the UNION that read them together before issue 25)."""
    season, teams = season_with(4, 3)
    for division in season.divisions.all():
        generate_fixtures(division)
    matches = Match.objects.filter(season=season, division__isnull=False)
    for n, match in enumerate(matches.order_by("-pk")[:5]):  # confirmed in another order than the fixtures'
        record_result(match, home_score=n, away_score=1, by=board_member)
    draw_cup(season, teams=teams, name="Cup", prize=0, by=board_member)
    board = client.get(reverse("home")).context["board"]
    newest = matches.confirmed().order_by("-confirmed_at", "-id")
    assert [m["id"] for m in board.latest] == list(newest.values_list("id", flat=True)[:8])
    assert len(board.latest) == 5 and board.latest[0]["confirmed_at"].tzinfo is not None
    assert board.latest[0]["home_name"] == Match.objects.get(pk=board.latest[0]["id"]).home.name
    scheduled = Match.objects.filter(season=season, status=Match.Status.SCHEDULED, home__isnull=False)
    soonest = scheduled.filter(away__isnull=False).order_by("round", "date", "id").values_list("id", flat=True)
    assert [m["id"] for m in board.upcoming] == list(soonest[:8])
    for cup_round in board.bracket:
        slots = [m["cup_slot"] for m in cup_round]
        filled = [s for s in slots if s is not None]
        assert filled == sorted(filled) and slots == filled + [None] * (len(slots) - len(filled))


def test_front_page_lists_pick_the_right_eight_at_their_orders_edges(client, season_with, board_member):
    """The lists' statement cuts each list in the database (league.seasons.selectors._BOARD_LISTS): with more
    than eight to pick from, the eight it finds are those the ORM's order names, at the order's edges: fixtures
    of one round dated and undated (undated last), results confirmed at the same moment (the newer id first)
    and one without a confirmation time (first, as PostgreSQL and SQLite both place it)."""
    from datetime import date, timedelta

    from django.db.models import F
    from django.utils import timezone

    season, _teams = season_with(4, 3)
    for division in season.divisions.all():
        generate_fixtures(division)
    matches = Match.objects.filter(season=season, division__isnull=False)
    for n, match in enumerate(matches.order_by("round", "pk")):
        # every other fixture dated, later ones earlier: within a round the dated come first, by date
        Match.objects.filter(pk=match.pk).update(date=date(2026, 12, 31) - timedelta(days=n) if n % 2 else None)
    ready = matches.filter(status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False)
    assert ready.count() > 8
    board = client.get(reverse("home")).context["board"]
    soonest = ready.order_by("round", F("date").asc(nulls_last=True), "id").values_list("id", flat=True)
    assert [m["id"] for m in board.upcoming] == list(soonest[:8])
    confirmed = list(matches.order_by("pk")[:11])
    for match in confirmed:
        record_result(match, home_score=1, away_score=0, by=board_member)
    start = timezone.now()
    for n, match in enumerate(confirmed):  # the last without a time; the 3rd and 4th at the same moment
        moment = None if n == 10 else start + timedelta(minutes=max(n, 3))
        Match.objects.filter(pk=match.pk).update(confirmed_at=moment)
    board = client.get(reverse("home")).context["board"]
    newest = matches.confirmed().order_by(F("confirmed_at").desc(nulls_first=True), "-id")
    assert [m["id"] for m in board.latest] == list(newest.values_list("id", flat=True)[:8])
    # no time first; the tie at the cut (8th and 9th) goes to the newer id
    assert board.latest[0]["id"] == confirmed[10].pk and board.latest[7]["id"] == confirmed[3].pk


@pytest.mark.parametrize("index", range(5))
@pytest.mark.parametrize("who", ["anonymous", "coach", "board"])
def test_board_writes_permission_matrix(client, season_with, board_member, who, index):
    season, teams = season_with(4, 3)
    if index == 4:  # starting needs fixtures
        for division in season.divisions.all():
            generate_fixtures(division)
    name, args, data, happened = board_writes(season, teams)[index]
    user = {"anonymous": None, "coach": teams[0].coach, "board": board_member}[who]
    if user:
        client.force_login(user)
    response = client.post(reverse(name, args=args), data)
    if who == "board":
        assert response.status_code == 302 and happened()
    else:
        assert response.status_code == 403 and not happened()


@pytest.mark.parametrize("who", ["anonymous", "coach", "board"])
def test_result_and_season_end_permission_matrix(client, season_with, board_member, who):
    season, teams = season_with(2, 2)
    for division in season.divisions.all():
        generate_fixtures(division)
    match = Match.objects.filter(season=season).first()
    user = {"anonymous": None, "coach": teams[0].coach, "board": board_member}[who]
    if user:
        client.force_login(user)
    response = client.post(
        reverse("match_result", args=[match.pk]),
        {"home_score": "1", "away_score": "0", "home_casualties": "0", "away_casualties": "0"},
    )
    match.refresh_from_db()
    # RULINGS: a direct result on a match page is kept only for forfeits and tiebreak games: refused to all
    assert match.status == "scheduled"
    assert response.status_code == (302 if who == "board" else 403)
    response = client.post(reverse("season_end", args=[season.pk]), {"next_name": "S2"})
    assert Season.objects.filter(name="S2").exists() is False  # not all played: refused even for the board
    # the board is refused by the rule, on the form: the page again (league.lib.responses.INVALID)
    assert response.status_code in ({302} if who == "anonymous" else {403} if who == "coach" else {422})


def _career(player, **deeds):
    """A kept career row (matches.stats), its SPP worth the deeds under R28's awards."""
    from league import rules
    from league.models import PlayerStats

    r = rules.default_ruleset()
    spp = r.spp(**{("fouls" if k == "foul_casualties" else k): v for k, v in deeds.items()})
    return PlayerStats.objects.create(player=player, team=player.team, season=None, spp=spp, **deeds)


def test_leaders_show_each_category_with_its_own_number(client, make_teams):
    from league.seasons.leaders import roster_leaders
    from teams.models import Player

    team = make_teams(1)[0]
    star, other, fallen = team.players.order_by("number")[:3]
    _career(star, touchdowns=4, casualties=1, completions=7)
    _career(other, casualties=3)
    _career(fallen, touchdowns=9)
    Player.objects.filter(pk=fallen.pk).update(status=Player.Status.DEAD)
    board = roster_leaders()
    assert [(p.pk, v) for p, v in board["touchdowns"]] == [(star.pk, 4)]  # the dead are in the memorial
    assert [(p.pk, v) for p, v in board["casualties"]] == [(other.pk, 3), (star.pk, 1)]
    assert [(p.pk, v) for p, v in board["spp"]] == [(star.pk, 4 * 3 + 2 + 7), (other.pk, 6)]  # R28
    assert board["interceptions"] == []
    html = client.get(reverse("home")).content.decode()
    assert star.name in html


def test_leaders_read_past_the_best_who_have_left_the_roster(make_teams):
    """Twice as many rows as shown are read in one go; when all of them have died or retired, the
    category is read again among players on a roster."""
    from league.seasons.leaders import roster_leaders
    from teams.models import Player

    team = make_teams(1)[0]
    *gone, active = team.players.order_by("number")[:3]
    for n, player in enumerate(gone):
        _career(player, touchdowns=10 + n)
    _career(active, touchdowns=1)
    Player.objects.filter(pk__in=[p.pk for p in gone]).update(status=Player.Status.RETIRED)
    assert [(p.pk, v) for p, v in roster_leaders(top=1)["touchdowns"]] == [(active.pk, 1)]


@pytest.mark.parametrize("who", ["anonymous", "coach", "board"])
def test_the_board_changes_a_divisions_teams_in_the_app(client, season_with, board_member, make_teams, who):
    season, teams = season_with(2, 2)
    newcomer = make_teams(1, prefix="New")[0]
    division = season.divisions.get(level=1)
    user = {"anonymous": None, "coach": teams[0].coach, "board": board_member}[who]
    if user:
        client.force_login(user)
    response = client.post(
        reverse("season_division_teams", args=[season.pk, division.pk]), {"teams": [teams[0].pk, newcomer.pk]}
    )
    names = sorted(division.entries.values_list("team__name", flat=True))
    if who == "board":
        assert response.status_code == 302 and names == ["New A", "Team A"]
    else:
        assert response.status_code == 403 and names == ["Team A", "Team B"]


def test_front_page_names_the_teams_of_a_division_whose_table_it_does_not_show(client, make_teams, board_member):
    """The front page shows the 1st and 2nd divisions' tables and reads only their teams; a result
    from the 3rd division still names both its teams (read as the list needs them)."""
    from league.models import Ruleset

    teams = make_teams(6)
    season = create_season(
        name="Three divisions",
        ruleset=Ruleset.default(),
        divisions=[DivisionPlan(n, f"Division {n}", 6, teams[2 * (n - 1) : 2 * n]) for n in (1, 2, 3)],
    )
    for division in season.divisions.all():
        generate_fixtures(division)
    start_season(season)
    match = Match.objects.get(season=season, division__level=3, round=1)
    record_result(match, home_score=2, away_score=1, home_casualties=0, away_casualties=0, by=board_member)
    html = client.get(reverse("home")).content.decode()
    latest = html[html.index(match.home.name) - 2000 :]
    assert match.away.name in latest and match.home.name in latest
    assert "Division 1" in html and "Division 2" in html and "Division 3" not in html


def test_standings_rows_show_ties_signed_differences_and_escaped_names_r31(client, season_with, board_member):
    """The table's rows (templates/league/_standings_table.html) as the page shows them: R31 leaves two teams
    that drew both games tied on one position, marked "="; the difference carries its sign."""
    season, _teams = season_with(2, 2)
    d1, d2 = season.divisions.order_by("level")
    for division in (d1, d2):
        generate_fixtures(division)
    for match in Match.objects.filter(division=d1):
        record_result(match, home_score=1, away_score=1, home_casualties=2, by=board_member)
    home_wins = Match.objects.filter(division=d2).order_by("round").first()
    record_result(home_wins, home_score=3, away_score=1, by=board_member)
    d1_team = d1.entries.first().team
    d1_team.name = "<b>Orks & Co</b>"
    d1_team.save()

    html = client.get(reverse("standings")).content.decode()
    assert html.count('<tr class="tied"><td class="num">1=</td>') == 2
    assert "&lt;b&gt;Orks &amp; Co&lt;/b&gt;" in html and "<b>Orks" not in html
    assert f'<a href="{reverse("team", args=[d1_team.pk])}">' in html
    # each d1 team drew 1-1 twice, causing 2 casualties at home: TD 2–2, +0, CAS 2–2
    drawn_twice = '<td class="num">2–2</td><td class="num hide-narrow">+0</td><td class="num hide-narrow">2–2</td>'
    assert html.count(drawn_twice) == 2
    winner, loser = home_wins.home, home_wins.away
    assert f"{winner.name}</a>" in html and '<td class="num">3–1</td><td class="num hide-narrow">+2</td>' in html
    assert '<td class="num">1–3</td><td class="num hide-narrow">-2</td>' in html and loser.name in html


def test_a_division_table_reads_in_norwegian_with_its_header_and_an_empty_division(client, season_with, board_member):
    """The table as a reader sees it (templates/league/_standings_table.html): the header's abbreviations with their
    full words as titles, each line's place, team and race, numbers; a division without teams says so."""
    from tests.html_tables import table_rows

    season, _teams = season_with(2, 2)
    d1, d2 = season.divisions.order_by("level")
    generate_fixtures(d1)
    first = Match.objects.filter(division=d1).order_by("round").first()
    record_result(first, home_score=2, away_score=0, by=board_member)
    d2.entries.all().delete()  # the board took the 2nd division's teams out before its first match
    client.cookies["django_language"] = "nb"
    header, *lines, second_header, empty = table_rows(client.get(reverse("standings")).content.decode(), "standings")
    assert second_header.texts() == header.texts()
    assert header.texts() == ["#", "Lag", "K", "V", "U", "T", "TD", "+/\u2212", "CAS", "P"]
    assert [c.attrs.get("title") for c in header.cells[2:6]] == ["Spilt", "Vunnet", "Uavgjort", "Tapt"]
    assert [line.texts() for line in lines] == [
        ["1", f"{first.home.name} Human", "1", "1", "0", "0", "2–0", "+2", "0–0", "3"],  # a win is 3 points (R31)
        ["2", f"{first.away.name} Human", "1", "0", "0", "1", "0–2", "-2", "0–0", "0"],
    ]
    assert empty.texts() == ["Ingen lag ennå."]


# --- the board's forms on the season page: the one way of a POST (league.lib.responses.post_form) -----


def test_a_refused_tiebreak_game_is_said_on_its_form_in_its_division(client, season_with, board_member):
    season, teams = season_with(2, 2)
    d1 = season.divisions.get(level=1)
    other = next(t for t in teams if not t.season_entries.filter(division=d1).exists())
    mine = d1.entries.first().team
    client.force_login(board_member)
    url = reverse("season_tiebreak", args=[season.pk, d1.pk])
    response = client.post(url, {"winner": mine.pk, "loser": mine.pk})  # one team twice: refused by the service
    assert response.status_code == 422
    html = response.content.decode()
    assert "A tiebreak game has two teams." in html
    assert html.count("A tiebreak game has two teams.") == 1  # on the form, not flashed as well
    # and at the top, where a phone shows the page, a link down to the form (the walkthrough's find)
    assert f'Not saved: the form under {d1.name} says why. <a href="#tiebreak-d{d1.pk}">' in html
    assert html.count(f'id="tiebreak-d{d1.pk}"') == 1
    response = client.post(url, {"winner": mine.pk, "loser": other.pk})  # not a team of the division
    assert response.status_code == 422 and "Select a valid choice" in response.content.decode()
    assert not TiebreakGame.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "coach", "board"])
def test_taking_back_a_tiebreak_game_permission_matrix_r31(client, season_with, board_member, who):
    season, _teams = season_with(2, 2)
    d1 = season.divisions.get(level=1)
    a, b = [entry.team for entry in d1.entries.all()]
    game = record_tiebreak(d1, winner=a, loser=b, by=board_member)
    user = {"anonymous": None, "coach": a.coach, "board": board_member}[who]
    if user:
        client.force_login(user)
    response = client.post(reverse("season_tiebreak_withdraw", args=[season.pk, game.pk]))
    assert response.status_code == (302 if who == "board" else 403)
    assert TiebreakGame.objects.filter(pk=game.pk).exists() == (who != "board")


def test_the_board_sees_the_recorded_tiebreak_games_and_takes_one_back_in_norwegian_r31(
    client, season_with, board_member
):
    season, _teams = season_with(2, 2)
    d1 = season.divisions.get(level=1)
    a, b = [entry.team for entry in d1.entries.all()]
    game = record_tiebreak(d1, winner=a, loser=b, by=board_member)
    client.force_login(board_member)
    client.cookies["django_language"] = "nb"
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    assert "Registrerte tiebreak-kamper" in html and f"{a.name} slo {b.name}" in html
    url = reverse("season_tiebreak_withdraw", args=[season.pk, game.pk])
    assert f'action="{url}"' in html and "Trekk tilbake" in html
    page = client.post(url, follow=True).content.decode()
    assert "Tiebreak-kampen er trukket tilbake." in page and f"{a.name} slo {b.name}" not in page
    assert not TiebreakGame.objects.exists()
    taken_back = TiebreakGame.history.get(history_type="-")  # kept: who took which game back, and when
    assert (taken_back.winner_id, taken_back.loser_id, taken_back.history_user) == (a.pk, b.pk, board_member)
    again = client.post(url, follow=True)  # a second press (two tabs): already gone, the same answer
    assert again.status_code == 200 and "Tiebreak-kampen er trukket tilbake." in again.content.decode()


def test_an_ended_seasons_tiebreak_games_stay_and_its_page_says_so_in_norwegian_r31(client, season_with, board_member):
    """After the season end its tables are history: the games are listed without a take-back button, the
    form to record one is gone, and an old tab's record or take-back is refused with a message."""
    season, _teams = season_with(2, 2)
    for division in season.divisions.all():
        generate_fixtures(division)
    for match in Match.objects.filter(season=season):
        record_result(match, home_score=1, away_score=1, by=board_member)  # every division tied at the top
    games = [
        record_tiebreak(d, winner=pair[0], loser=pair[1], by=board_member)
        for d in season.divisions.all()
        for pair in [[e.team for e in d.entries.order_by("team_id")]]
    ]
    commit_season_end(season, by=board_member, next_name="S2")
    client.force_login(board_member)
    client.cookies["django_language"] = "nb"
    page = reverse("season", args=[season.pk])
    html = client.get(page).content.decode()
    assert "Registrerte tiebreak-kamper" in html and "Trekk tilbake" not in html
    assert "Sesongen er avsluttet: tabellene er historie (R31)." in html
    assert reverse("season_tiebreak", args=[season.pk, games[0].division_id]) not in html
    ended = f"{season.name} er avsluttet: tabellene er historie, og tiebreak-kampene deres blir stående."
    withdraw = reverse("season_tiebreak_withdraw", args=[season.pk, games[0].pk])
    assert ended in client.post(withdraw, follow=True).content.decode()
    record = reverse("season_tiebreak", args=[season.pk, games[0].division_id])
    d1 = games[0].division
    response = client.post(record, {"winner": games[0].loser_id, "loser": games[0].winner_id})
    assert response.status_code == 422 and ended in response.content.decode()
    assert list(TiebreakGame.objects.order_by("pk")) == games and d1.tiebreaks.count() == 1


def test_a_division_with_played_matches_offers_no_teams_or_fixtures_form(client, season_with, board_member):
    """Its teams and fixtures are fixed once a match is played (the services refuse): the season page says
    so instead of offering forms every press of which would be refused; the other division keeps them."""
    season, _teams = season_with(2, 2)
    d1, d2 = season.divisions.order_by("level")
    first, _return = generate_fixtures(d1)
    record_result(first, home_score=1, away_score=0, by=board_member)
    client.force_login(board_member)
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    for division, fixed in ((d1, True), (d2, False)):
        teams_form = reverse("season_division_teams", args=[season.pk, division.pk])
        fixtures_form = reverse("season_fixtures", args=[season.pk, division.pk])
        assert (teams_form in html, fixtures_form in html) == (not fixed, not fixed)
    assert html.count("The division has played matches: its teams can no longer change.") == 1
    assert html.count("Fixtures cannot be regenerated after the first match of the division is played.") == 1


def test_a_second_cup_draw_is_told_above_the_drawn_cup_r34(client, season_with, board_member):
    """Another board drew the cup a moment before: the page shows the bracket instead of the draw
    form, so the refusal is said above the bracket (once), not lost with the form."""
    season, teams = season_with(2, 2)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, by=board_member)
    client.force_login(board_member)
    data = {"name": "Cup 2", "prize": "0", "teams": [t.pk for t in teams], "order": ""}
    response = client.post(reverse("cup_draw", args=[season.pk]), data)
    html = response.content.decode()
    assert response.status_code == 422
    assert html.count("The cup of this season is already drawn.") == 1 and 'role="alert"' in html
    assert 'Not saved: the form under the cup draw says why. <a href="#cup">' in html and html.count('id="cup"') == 1
    assert list(Cup.objects.filter(season=season)) == [cup]


def test_front_page_bracket_shows_the_round_before_the_first_open_one_and_those_after(
    client, season_with, board_member
):
    """The front page's cup (read with its lists in one query, issue 25): from the round before the
    first with a match still to play, as the whole bracket of the cup page has them."""
    season, teams = season_with(4, 3)
    draw_cup(season, teams=teams, name="Cup", prize=0, by=board_member)
    for played in (0, 1, 2):
        ready = Match.objects.filter(cup__season=season, status=Match.Status.SCHEDULED, away__isnull=False)
        for match in ready.filter(home__isnull=False, round=played).order_by("pk"):
            record_result(match, home_score=2, away_score=1, by=board_member)
        whole = season_board(Season.objects.with_rules().get(pk=season.pk)).bracket
        open_rounds = [n for n, rnd in enumerate(whole) if any(m["status"] == "scheduled" for m in rnd)]
        first = max(0, (open_rounds[0] if open_rounds else len(whole) - 1) - 1)
        board = client.get(reverse("home")).context["board"]
        assert board.bracket_offset == first
        assert board.bracket == [rnd[:16] for rnd in whole[first:]]
        assert [m["id"] for m in board.upcoming] == [m["id"] for m in season_board(board.season).upcoming]
