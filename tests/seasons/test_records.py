"""The records page ("Rekorder"): each record held by the match, season or player the kept rows say, a void
taking a record away and a corrected report moving it (through the board's services), a few queries
whatever the league's size, and the page in Norwegian for a visitor."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.models import PlayerStats, Ruleset, Season, TeamSeasonStats
from league.seasons.records import longest_unbeaten_run
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season
from matches import stats
from matches.models import Match, PlayerMatch, PreMatch, SquadEntry
from matches.playthrough import walk_postmatch, walk_prematch
from matches.report.confirmation import confirm_report, reopen_report, settle_report, void_match
from matches.report.filing import LineInput, ReportInput, file_report
from matches.results import record_forfeit
from teams import services
from teams.corrections import correct_player
from teams.models import Player
from tests import factories
from tests.foundation.test_page_cache import kept_page

pytestmark = pytest.mark.django_db

# --- the unbeaten run, walked without a database --------------------------------------------------


def result(pk, home, away, home_score, away_score, tiebreak=None):
    """A result as the run reads it: (match, home, away, winner), the winner worked out here (R34: a drawn
    cup match's tiebreak winner won it)."""
    winner = home if home_score > away_score else away if away_score > home_score else tiebreak
    return (pk, home, away, winner)


def test_a_draw_keeps_a_run_going_and_a_loss_ends_it():
    run = longest_unbeaten_run(
        [
            result(1, 10, 20, 2, 0),  # 10 won
            result(2, 30, 10, 1, 1),  # 10 drew: still unbeaten
            result(3, 10, 20, 0, 0),
            result(4, 10, 30, 0, 1),  # 10 lost: its run of 3 ends
            result(5, 20, 30, 1, 0),
        ]
    )
    assert (run.team_id, run.length, run.first, run.last, run.ended) == (10, 3, 1, 3, True)


def test_of_runs_as_long_the_first_to_reach_it_holds_the_record_and_one_still_going_says_so():
    # 20 and 30 are unbeaten in matches 1–2 and 3–4; 20's reached 2 first
    run = longest_unbeaten_run(
        [result(1, 20, 40, 1, 0), result(2, 20, 40, 2, 0), result(3, 30, 40, 1, 0), result(4, 30, 40, 1, 0)]
    )
    assert (run.team_id, run.length, run.first, run.last, run.ended) == (20, 2, 1, 2, False)
    # one match more for 30 makes its run the longest
    run = longest_unbeaten_run(
        [
            result(1, 20, 40, 1, 0),
            result(2, 20, 40, 2, 0),
            result(3, 30, 40, 1, 0),
            result(4, 30, 40, 1, 0),
            result(5, 40, 30, 0, 0),
        ]
    )
    assert (run.team_id, run.length, run.first, run.last) == (30, 3, 3, 5)


def test_no_match_no_run():
    assert longest_unbeaten_run([]) is None


# --- the records, read independently from the rows -------------------------------------------------


def page_records(client, season=None) -> dict:
    url = reverse("records") + (f"?season={season.pk}" if season else "")
    response = client.get(url)
    assert response.status_code == 200
    return {key: record for part in response.context["parts"] for key, _label, record in part.records}


def expected_match_records(season=None) -> dict:
    """The match records worked out here from the confirmed matches that were played (no walkover, R35):
    each record's value and its earliest holder (the match confirmed first)."""
    played = Match.objects.filter(status="confirmed", forfeited_by=None).order_by("confirmed_at", "pk")
    if season:
        played = played.filter(season=season)
    rows = list(played.values("pk", "home_score", "away_score", "home_casualties", "away_casualties"))
    out = {}
    for key, value in (
        ("biggest_win", lambda m: abs(m["home_score"] - m["away_score"])),
        ("team_match_touchdowns", lambda m: max(m["home_score"], m["away_score"])),
        ("team_match_casualties", lambda m: max(m["home_casualties"], m["away_casualties"])),
    ):
        top = max((value(m) for m in rows), default=0)
        out[key] = (top, next(m["pk"] for m in rows if value(m) == top)) if top else None
    lines = PlayerMatch.objects.filter(match__status="confirmed", match__forfeited_by=None)
    if season:
        lines = lines.filter(match__season=season)
    lines = list(
        lines.order_by("match__confirmed_at", "pk").values(
            "player_id", "match_id", "touchdowns", "casualties", "crowd_casualties"
        )
    )
    for key, value in (
        ("player_match_touchdowns", lambda x: x["touchdowns"]),
        ("player_match_casualties", lambda x: x["casualties"] + x["crowd_casualties"]),  # R28: the block's push too
    ):
        top = max((value(x) for x in lines), default=0)
        out[key] = (top, next((x["player_id"], x["match_id"]) for x in lines if value(x) == top)) if top else None
    return out


def shown(records: dict) -> dict:
    """The page's match records in the shape `expected_match_records` works them out in."""
    out = {}
    for key in ("biggest_win", "team_match_touchdowns", "team_match_casualties"):
        r = records[key]
        out[key] = (r.value, r.match.pk) if r else None
    for key in ("player_match_touchdowns", "player_match_casualties"):
        r = records[key]
        out[key] = (r.value, (r.player.pk, r.match.pk)) if r else None
    return out


def report(match, home_score, away_score, home_lines=(), away_lines=()):
    """A report whose lines are (player index on the roster, counters)."""
    home = list(match.home.players.order_by("number"))
    away = list(match.away.players.order_by("number"))
    lines = [LineInput(home[i].pk, **c) for i, c in home_lines] + [LineInput(away[i].pk, **c) for i, c in away_lines]
    return ReportInput(home_score=home_score, away_score=away_score, lines=lines)


def play(match, filed: ReportInput, *, postmatch: bool = True) -> Match:
    walk_prematch(match)
    file_report(match, filed, by=match.home.coach)
    confirm_report(match, by=match.away.coach)
    if postmatch:
        walk_postmatch(match)
    return Match.objects.get(pk=match.pk)


class TestRecordsFollowTheServices:
    """A season of two divisions of two Human teams: A–B 3–0 and C–D 1–1 in round 1, played through to the
    post-match; then B–A 0–5, confirmed, its post-match not begun (so the board may still void or reopen
    it), B with an apothecary and two re-rolls more than A: A's win is an upset."""

    @classmethod
    def setUpTestData(cls):
        cls.board = factories.user("styret", board=True, coach=False)
        cls.season, teams = factories.season_with(2, 2)
        for division in cls.season.divisions.all():
            generate_fixtures(division)
        a, b, c, d = teams
        first = Match.objects.get(season=cls.season, round=1, home__in=[a, b])
        first = play(
            first,
            report(first, 3, 0, home_lines=[(0, {"touchdowns": 2}), (1, {"touchdowns": 1, "casualties": 1})]),
        )
        second = Match.objects.get(season=cls.season, round=1, home__in=[c, d])
        play(
            second,
            report(
                second,
                1,
                1,
                home_lines=[(0, {"touchdowns": 1})],
                away_lines=[(0, {"touchdowns": 1}), (1, {"casualties": 2})],
            ),
        )
        cls.first = first
        cls.winner = first.home  # 3–0 at home in round 1
        record = Match.objects.get(season=cls.season, round=2, home__in=[a, b])
        loser = record.home if record.away_id == cls.winner.pk else record.away
        services.buy_apothecary(loser, by=loser.coach)
        services.buy_reroll(loser, by=loser.coach)
        services.buy_reroll(loser, by=loser.coach)
        winner_lines = [(0, {"touchdowns": 4}), (2, {"touchdowns": 1})]
        if record.home_id == cls.winner.pk:
            filed = report(record, 5, 0, home_lines=winner_lines)
        else:
            filed = report(record, 0, 5, away_lines=winner_lines)
        cls.record = play(record, filed, postmatch=False)

    def test_each_record_is_the_one_the_rows_hold(self, client):
        records = page_records(client)
        assert shown(records) == expected_match_records()
        assert records["biggest_win"].match.pk == self.record.pk and records["biggest_win"].value == 5
        assert records["biggest_win"].team.pk == self.winner.pk
        assert records["player_match_touchdowns"].value == 4
        # the upset: the ratings the pre-match recorded for the match (R1), read here
        pre = PreMatch.objects.get(match=self.record)
        ratings = {self.record.home_id: pre.home_rating, self.record.away_id: pre.away_rating}
        loser_id = self.record.home_id if self.record.away_id == self.winner.pk else self.record.away_id
        assert ratings[loser_id] > ratings[self.winner.pk]
        upset = records["upset"]
        assert (upset.match.pk, upset.team.pk) == (self.record.pk, self.winner.pk)
        assert upset.value == ratings[loser_id] - ratings[self.winner.pk]
        # the seasons: the kept rows summed here, league and cup
        tds = {}
        for team_id, scored in TeamSeasonStats.objects.values_list("team_id", "touchdowns_for"):
            tds[team_id] = tds.get(team_id, 0) + scored
        assert (records["team_season_touchdowns"].team.pk, records["team_season_touchdowns"].value) == (
            self.winner.pk,
            max(tds.values()),
        )
        top = PlayerStats.objects.filter(season=self.season).order_by("-touchdowns", "player_id").first()
        assert (records["player_season_touchdowns"].player.pk, records["player_season_touchdowns"].value) == (
            top.player_id,
            6,
        )
        # the deadliest: the most casualties caused, block and foul, among the careers
        careers = PlayerStats.objects.filter(season=None)
        caused = max(careers, key=lambda s: (s.casualties + s.foul_casualties, -s.player_id))
        assert (records["deadliest"].player.pk, records["deadliest"].value) == (caused.player_id, 2)
        longest = max(careers, key=lambda s: (s.matches, -s.player_id))
        assert (records["longest_career"].player.pk, records["longest_career"].value) == (longest.player_id, 2)
        # A unbeaten in both its matches, the second its last: still unbeaten
        run = records["unbeaten_run"]
        assert (run.team.pk, run.value, run.match.pk, run.until.pk, run.unbeaten_still) == (
            self.winner.pk,
            2,
            self.first.pk,
            self.record.pk,
            True,
        )

    def test_a_voided_match_holds_no_record(self, client):
        void_match(self.record, by=self.board)
        records = page_records(client)
        assert shown(records) == expected_match_records()
        assert records["biggest_win"].match.pk == self.first.pk and records["biggest_win"].value == 3
        assert records["upset"] is None  # round 1's teams had the same ratings
        assert records["player_match_touchdowns"].value == 2
        assert records["team_season_touchdowns"].value == 3
        assert records["player_season_touchdowns"].value == 2
        run = records["unbeaten_run"]
        assert (run.value, run.match.pk, run.until.pk) == (1, self.first.pk, self.first.pk)  # the first to reach 1

    def test_a_corrected_report_moves_the_records(self, client):
        reopen_report(self.record, by=self.board)
        loser = self.record.home if self.record.away_id == self.winner.pk else self.record.away
        lines = [(0, {"casualties": 3})]  # the board's word: 1–0, and the loser's first player hurt three
        if self.record.home_id == self.winner.pk:
            corrected = report(self.record, 1, 0, home_lines=[(2, {"touchdowns": 1})], away_lines=lines)
        else:
            corrected = report(self.record, 0, 1, home_lines=lines, away_lines=[(2, {"touchdowns": 1})])
        settle_report(self.record, corrected, by=self.board)
        records = page_records(client)
        assert shown(records) == expected_match_records()
        assert records["biggest_win"].match.pk == self.first.pk  # 3–0 beats the corrected 1–0
        assert records["player_match_casualties"].match.pk == self.record.pk
        assert records["player_match_casualties"].team.pk == loser.pk
        assert records["player_match_casualties"].value == 3
        assert records["deadliest"].value == 3
        assert records["team_match_casualties"].team.pk == loser.pk
        assert records["upset"].match.pk == self.record.pk  # still the lower-rated team's win

    def test_a_board_correction_of_a_players_record_moves_no_record(self, client):
        # records are set in matches: a correction of a player's counters (teams.corrections) names no match
        # or season and changes no kept row, as on the leaders page; a wrong report is corrected as above
        before = page_records(client)
        holder = Player.objects.get(pk=before["player_season_touchdowns"].player.pk)
        correct_player(holder, reason="Counted twice", by=self.board, changes={"touchdowns": -1})
        assert page_records(client) == before

    def test_the_seasons_records_are_its_own(self, client):
        other = factories.teams(2, prefix="Other")
        later = create_season(name="Season 2", ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1", 6, other)])
        generate_fixtures(later.divisions.get())
        m = Match.objects.filter(season=later).order_by("round", "pk").first()
        play(m, report(m, 1, 0, home_lines=[(0, {"touchdowns": 1})]), postmatch=False)
        season_records = page_records(client, later)
        assert shown(season_records) == expected_match_records(later)
        assert season_records["biggest_win"].match.pk == m.pk
        assert page_records(client)["biggest_win"].match.pk == self.record.pk  # all time: the 5–0 still
        assert page_records(client, self.season)["biggest_win"].match.pk == self.record.pk


# --- the page ------------------------------------------------------------------------------------


def a_league(teams, seasons: int):
    """`seasons` double round robins of the four teams, every match 2–1 to the home team with its TR lower,
    two lines a team; the kept rows rebuilt."""
    previous = None
    for n in range(seasons):
        if previous is not None:
            Season.objects.filter(pk=previous.pk).update(status=Season.Status.FINISHED)
        season = create_season(
            name=f"Season {n + 1}",
            ruleset=Ruleset.default(),
            divisions=[DivisionPlan(1, "1st division", 6, teams)],
            previous=previous,
        )
        matches = generate_fixtures(season.divisions.get())
        Match.objects.filter(season=season).update(
            status="confirmed", home_score=2, away_score=1, home_casualties=1, confirmed_at=timezone.now()
        )
        lines, squads, pre = [], [], []
        for m in matches:
            pre.append(PreMatch(match=m, ruleset=season.ruleset, home_rating=100, away_rating=110))
            for team_id in (m.home_id, m.away_id):
                roster = [p for t in teams if t.pk == team_id for p in t.players.order_by("number")]
                squads += [SquadEntry(match=m, team_id=team_id, player=p) for p in roster]
                lines.append(PlayerMatch(match=m, team_id=team_id, player=roster[0], touchdowns=1))
                lines.append(PlayerMatch(match=m, team_id=team_id, player=roster[1], casualties=1))
        PreMatch.objects.bulk_create(pre)
        SquadEntry.objects.bulk_create(squads)
        PlayerMatch.objects.bulk_create(lines)
        previous = season
    stats.rebuild()
    return previous


@pytest.mark.parametrize("seasons", [1, 4])
def test_the_page_reads_the_same_few_queries_whatever_the_league_size(client, make_teams, seasons):
    season = a_league(make_teams(4), seasons)
    for url in (reverse("records"), f"{reverse('records')}?season={season.pk}"):
        client.get(url)  # warm: the session, the parsed ruleset
        cache.clear()  # uncached: the page cache would answer in one query
        with CaptureQueriesContext(connection) as read:
            response = client.get(url)
        # (the season,) the seasons for the picker, the results for the unbeaten run, the matches, the
        # report lines, the players' kept rows, two reads of the teams' season lines (no league version:
        # nothing is kept inside a test's transaction)
        assert len(read) <= 8, (url, [q["sql"][:90] for q in read])
        records = {key: r for part in response.context["parts"] for key, _label, r in part.records}
        assert records["upset"].value == 10 and records["biggest_win"].value == 1
        assert None not in records.values()


def test_a_visitor_reads_the_records_in_norwegian_each_linked_to_its_match(client, make_teams):
    a_league(make_teams(4), 1)
    client.cookies["django_language"] = "nb"
    response = client.get(reverse("records"))
    html = response.content.decode()
    for label in (
        "Rekorder: alle tider",
        "Største seier",
        "Flest touchdowns i én kamp, lag",
        "Lengste ubeseirede rekke",
    ):
        assert label in html
    records = {key: r for part in response.context["parts"] for key, _label, r in part.records}
    assert f'href="{reverse("match", args=[records["biggest_win"].match.pk])}"' in html
    assert f'href="{reverse("player", args=[records["deadliest"].player.pk])}"' in html
    assert "teamcoach" not in html  # no coach's username on the page


def test_every_page_links_to_the_records_from_its_footer(client):
    """The records were reached only from the leaders and a season's page: the footer names them beside
    the champions, on every page."""
    client.cookies["django_language"] = "nb"
    for url in (reverse("home"), reverse("champions"), reverse("rules")):
        footer = client.get(url).content.decode().split('<footer class="site-footer">')[1]
        assert f'<a href="{reverse("records")}">Rekorder</a>' in footer


@pytest.mark.django_db(transaction=True)
def test_a_visitor_is_served_the_kept_page(client, make_teams):
    a_league(make_teams(4), 1)
    path = reverse("records")
    client.get(path)
    assert kept_page(path, language="en") is not None
    with CaptureQueriesContext(connection) as read:
        assert client.get(path).status_code == 200
    assert len(read) == 1  # the league version, and nothing of the records


def test_a_drawn_cup_match_lost_on_the_tiebreak_ends_no_run_of_the_winner_r34(client, season_with, board_member):
    season, teams = season_with(2, 2)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board_member)
    match = cup.matches.get(round=1, cup_slot=0)
    walk_prematch(match)
    file_report(match, ReportInput(home_score=1, away_score=1, tiebreak_winner_id=match.away_id), by=board_member)
    confirm_report(match, by=board_member)
    # the home team lost it on the tiebreak: the away team's is the only run (were it a draw for both, the
    # home team's, read first, would hold it)
    run = page_records(client, season)["unbeaten_run"]
    assert (run.team.pk, run.value, run.match.pk, run.unbeaten_still) == (match.away_id, 1, match.pk, True)


def test_a_walkover_sets_no_match_record_but_is_a_win_in_a_run_r35(client, make_teams, board_member):
    a_league(make_teams(4), 1)  # every match 2–1: a margin of 1
    later = create_season(
        name="Season W", ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1", 6, factories.teams(2, "W"))]
    )
    generate_fixtures(later.divisions.get())
    walkover = Match.objects.filter(season=later).order_by("round", "pk").first()
    record_forfeit(walkover, walkover.away, by=board_member)  # awarded 2–0 to the home team
    records = page_records(client)
    assert shown(records) == expected_match_records()
    assert records["biggest_win"].value == 1
    season_records = page_records(client, later)
    assert all(season_records[key] is None for key in ("biggest_win", "team_match_touchdowns", "upset"))
    run = season_records["unbeaten_run"]
    assert (run.team.pk, run.value, run.match.pk) == (walkover.home_id, 1, walkover.pk)
    assert season_records["team_season_touchdowns"].value == 2  # the table counts the awarded 2–0


def test_an_unknown_season_is_an_unknown_address(client, db):
    assert client.get(reverse("records") + "?season=999999").status_code == 404
    assert client.get(reverse("records") + "?season=x").status_code == 404


def test_the_season_page_and_the_leaders_link_to_the_records(client, make_teams):
    season = a_league(make_teams(4), 1)
    assert (
        f'href="{reverse("records")}?season={season.pk}"'
        in client.get(reverse("season", args=[season.pk])).content.decode()
    )
    assert f'href="{reverse("records")}"' in client.get(reverse("leaders")).content.decode()
