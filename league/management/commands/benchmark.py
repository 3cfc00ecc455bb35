"""Benchmark of the league board on a large league, in a throwaway database.

Builds 200 teams, 10 seasons of 10 divisions (a double round robin each) and a cup per season,
about 40,000 matches with a report line for each player who played (about 1 M per-player match
rows), keeps the statistics (matches.stats) and ANALYZEs the tables, then reports the median and
95th-percentile server time and the query count of the front page, a standings page, a team page,
the leaders and a long-serving player's page, each uncached and from the page cache; the cost of
keeping the tables for one confirmed report; the post-match sequence; and the front page's
throughput through gunicorn with 20 concurrent clients (PostgreSQL only), with the core count.
Run it against PostgreSQL: DATABASE_URL=postgres://… python manage.py benchmark
"""

from __future__ import annotations

import os
import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.db.models import Count, F
from django.test import Client
from django.test.utils import CaptureQueriesContext, setup_test_environment
from django.utils import timezone

from league import rules
from league.lib.writes import league_writes
from league.management.throughput import front_page_throughput
from league.models import Cup, Division, Ruleset, Season, SeasonEntry
from matches import stats
from matches.models import Match, PlayerMatch, SquadEntry
from matches.playthrough import walk_postmatch, walk_prematch
from matches.report.confirmation import confirm_report
from matches.report.filing import LineInput, ReportInput, file_report
from teams.models import Player, Position, Race, Stadium, Team, TreasuryEntry


class Command(BaseCommand):
    help = "Time the front page, standings and team pages on a large league (a throwaway test database)."

    def add_arguments(self, parser):
        parser.add_argument("--teams", type=int, default=200)
        parser.add_argument("--seasons", type=int, default=10)
        parser.add_argument("--divisions", type=int, default=10)
        parser.add_argument("--requests", type=int, default=60, help="Timed requests per page.")
        parser.add_argument("--keepdb", action="store_true", help="Reuse the benchmark database if it exists.")
        parser.add_argument("--lines", type=int, default=11, help="Per-player match rows per team and match.")
        parser.add_argument("--clients", type=int, default=20, help="Concurrent clients for the throughput.")
        parser.add_argument("--seconds", type=float, default=30, help="Throughput run length; 0 skips it.")

    def handle(
        self,
        *args,
        teams: int,
        seasons: int,
        divisions: int,
        requests: int,
        keepdb: bool,
        lines: int,
        clients: int,
        seconds: float,
        **options,
    ):
        setup_test_environment()
        old_name = connection.settings_dict["NAME"]
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=keepdb)
        try:
            started = time.perf_counter()
            if not Match.objects.exists():
                self.build(teams=teams, seasons=seasons, divisions=divisions, lines=lines)
            built = time.perf_counter() - started
            self.report(requests=requests, built=built)
            if line := front_page_throughput(clients=clients, seconds=seconds):
                self.stdout.write(line)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=keepdb)

    # --- building the league ---------------------------------------------------------------------

    def build(self, *, teams: int, seasons: int, divisions: int, lines: int = 11) -> None:
        rng = random.Random(40000)
        User = get_user_model()
        ruleset = Ruleset.default()
        races = list(Race.objects.all())
        positions = {r.pk: list(Position.objects.filter(race=r)) for r in races}
        users = User.objects.bulk_create(User(username=f"bench{i}") for i in range(teams))
        team_rows = Team.objects.bulk_create(
            Team(
                name=f"Bench Team {i:03d}",
                race=races[i % len(races)],
                coach=users[i],
                ruleset=ruleset,
                rerolls=rng.randint(1, 5),
                fan_factor=rng.randint(1, 12),
                assistant_coaches=rng.randint(0, 3),
                cheerleaders=rng.randint(0, 4),
                apothecary=races[i % len(races)].apothecary_allowed,
            )
            for i in range(teams)
        )
        Stadium.objects.bulk_create(Stadium(team=t, capacity=60000) for t in team_rows)
        TreasuryEntry.objects.bulk_create(
            TreasuryEntry(team=t, seq=1, amount=100000, balance=100000, kind="registered", description="bench")
            for t in team_rows
        )
        players = []
        for t in team_rows:
            options = positions[t.race_id]
            for n in range(1, 15):
                players.append(
                    Player(
                        team=t,
                        number=n,
                        name=f"{t.name} #{n}",
                        position=options[n % len(options)],
                        completions=rng.randint(0, 20),
                        touchdowns=rng.randint(0, 15),
                        interceptions=rng.randint(0, 3),
                        casualties=rng.randint(0, 10),
                        mvps=rng.randint(0, 2),
                    )
                )
        Player.objects.bulk_create(players, batch_size=2000)
        players_of: dict[int, list[int]] = {}
        for pk, team_id in Player.objects.order_by("team_id", "number").values_list("pk", "team_id"):
            players_of.setdefault(team_id, []).append(pk)
        per_division = teams // divisions
        previous = None
        now = timezone.now()
        for s in range(seasons):
            last = s == seasons - 1
            season = Season.objects.create(
                name=f"Bench Season {s + 1}",
                ruleset=ruleset,
                previous=previous,
                status=Season.Status.RUNNING if last else Season.Status.FINISHED,
            )
            order = list(team_rows)
            rng.shuffle(order)
            matches = []
            for d in range(divisions):
                division = Division.objects.create(
                    season=season, level=d + 1, name=f"Division {d + 1}", die=6 if d == 0 else 5
                )
                members = order[d * per_division : (d + 1) * per_division]
                SeasonEntry.objects.bulk_create(
                    SeasonEntry(season=season, division=division, team=t, coach_id=t.coach_id) for t in members
                )
                fixtures = rules.double_round_robin([t.pk for t in members])
                half = max(f.round for f in fixtures) // 2
                for f in fixtures:
                    played = not last or f.round <= half  # the running season is half played
                    matches.append(
                        Match(
                            season=season,
                            division=division,
                            round=f.round,
                            home_id=f.home,
                            away_id=f.away,
                            status="confirmed" if played else "scheduled",
                            home_score=rng.randint(0, 4) if played else None,
                            away_score=rng.randint(0, 3) if played else None,
                            home_casualties=rng.randint(0, 5),
                            away_casualties=rng.randint(0, 5),
                            confirmed_at=now if played else None,
                        )
                    )
            cup = Cup.objects.create(season=season, name=f"Bench Cup {s + 1}", draw=[t.pk for t in order])
            for slot, (home, away) in enumerate(rules.cup_first_round([t.pk for t in order])):
                matches.append(
                    Match(
                        season=season,
                        cup=cup,
                        round=1,
                        cup_slot=slot,
                        home_id=home,
                        away_id=away,
                        status="bye" if away is None else "confirmed",
                        home_score=None if away is None else 2,
                        away_score=None if away is None else 1,
                        confirmed_at=now,
                    )
                )
            Match.objects.bulk_create(matches, batch_size=2000)
            self._build_lines(season, players_of, lines, rng)
            previous = season
        t0 = time.perf_counter()
        stats.rebuild()
        kept = time.perf_counter() - t0
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # without it PostgreSQL guesses the row counts of the new tables
        self.stdout.write(
            f"Built {teams} teams, {len(players)} players, {seasons} seasons, {Match.objects.count()} matches, "
            f"{PlayerMatch.objects.count()} per-player match rows; statistics rebuilt in {kept:.1f} s; analyzed."
        )

    def _build_lines(self, season, players_of: dict[int, list[int]], lines: int, rng: random.Random) -> None:
        """A report line for `lines` players of each team in each confirmed match, as a real league has
        them: most lines empty-handed, some with a completion, a touchdown or a casualty (R28)."""
        rows = []
        played = Match.objects.filter(season=season, status="confirmed").exclude(away=None)
        for match_id, home_id, away_id in played.values_list("id", "home_id", "away_id"):
            for team_id in (home_id, away_id):
                for player_id in players_of[team_id][:lines]:
                    roll = rng.random()
                    rows.append(
                        PlayerMatch(
                            match_id=match_id,
                            player_id=player_id,
                            team_id=team_id,
                            touchdowns=1 if roll < 0.1 else 0,
                            completions=1 if 0.1 <= roll < 0.2 else 0,
                            casualties=1 if 0.2 <= roll < 0.27 else 0,
                            interceptions=1 if 0.27 <= roll < 0.28 else 0,
                        )
                    )
            if len(rows) >= 20000:
                PlayerMatch.objects.bulk_create(rows, batch_size=5000)
                rows = []
        PlayerMatch.objects.bulk_create(rows, batch_size=5000)

    # --- timing ------------------------------------------------------------------------------------

    def report(self, *, requests: int, built: float) -> None:
        client = Client()
        season = Season.objects.filter(status=Season.Status.RUNNING).first()
        team = Team.objects.order_by("pk").first()
        veteran = (
            PlayerMatch.objects.values("player_id").annotate(n=Count("id")).order_by("-n", "player_id").first() or {}
        )
        player_id = veteran.get("player_id") or team.players.first().pk
        urls = [
            ("front page", "/"),
            ("standings", f"/standings/?season={season.pk}"),
            ("season page", f"/seasons/{season.pk}/"),  # its tables' race, round by round
            ("team page", f"/teams/{team.pk}/"),
            ("leaders", "/leaders/"),
            ("team leaders", f"/leaders/?kind=teams&season={season.pk}"),
            ("player page", f"/players/{player_id}/"),
            ("records, all-time", "/records/"),
        ]
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        self.stdout.write(
            f"Database: {connection.vendor}; {cores} cores (cpu_count {os.cpu_count()}); built in {built:.1f} s; "
            f"{requests} requests per page"
        )
        if veteran:
            self.stdout.write(f"The player page's player has {veteran['n']} match rows.\n")
        self.stdout.write(
            "Uncached: the page cache emptied before each request. After a write: a league write (a new league "
            "version) before each. Cached: the public fragments kept."
        )
        self.stdout.write(
            f"{'page (uncached: median, p95, queries)':45} {'median ms':>10} {'p95 ms':>10} {'queries':>8}"
            f" {'after a write':>14} {'cached':>8}"
        )
        for label, url in urls:
            for _ in range(3):  # warm up
                client.get(url)
            times, written, cached = [], [], []
            for _ in range(requests):
                cache.clear()
                t0 = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - t0) * 1000)
                assert response.status_code == 200, (url, response.status_code)
            for _ in range(requests):
                with league_writes():  # a league write: a new version
                    Team.objects.filter(pk=team.pk).update(name=F("name"))
                t0 = time.perf_counter()
                client.get(url)
                written.append((time.perf_counter() - t0) * 1000)
            for _ in range(requests):
                t0 = time.perf_counter()
                client.get(url)
                cached.append((time.perf_counter() - t0) * 1000)
            cache.clear()
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            median = statistics.median
            self._line(f"{label} {url}", times, len(queries), written=median(written), cached=median(cached))
        self._time_kept_tables(max(5, requests // 3))
        self._time_postmatch(max(5, requests // 6))

    def _line(
        self, name: str, times: list[float], queries: int, written: float | None = None, cached: float | None = None
    ) -> None:
        if not times:
            self.stdout.write(f"{name:45} {'(nothing to time)':>21}")
            return
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
        extra = f" {written:14.1f} {cached:8.2f}" if written is not None and cached is not None else ""
        self.stdout.write(f"{name:45} {statistics.median(times):10.1f} {p95:10.1f} {queries:8d}{extra}")

    def _time_kept_tables(self, count: int) -> None:
        """The extra cost of a confirmed report for the kept tables: matches.stats.count_match on a
        played match with its report lines, in a transaction rolled back."""
        matches = list(
            Match.objects.filter(status="confirmed", division__isnull=False)
            .select_related("season__ruleset")
            .order_by("-pk")[:count]
        )
        times, queries = [], 0
        for match in matches:
            with league_writes(), CaptureQueriesContext(connection) as captured:
                t0 = time.perf_counter()
                stats.count_match(match, sign=1)
                times.append((time.perf_counter() - t0) * 1000)
                transaction.set_rollback(True)
            queries = len(captured)
        self._line("kept tables, one confirmed report", times, queries)

    def _time_postmatch(self, count: int) -> None:
        """A whole post-match sequence for one match, both teams, through the services."""
        matches = list(
            Match.objects.filter(status="scheduled", division__isnull=False, prematch__isnull=True)
            .select_related("home", "away")
            .order_by("pk")[:count]
        )
        times, queries = [], 0
        for match in matches:
            # rolled back, so that a run with --keepdb finds the same fixtures unplayed
            with league_writes():
                elapsed, queries = self._walk_match(match)
                times.append(elapsed)
                transaction.set_rollback(True)
        self._line("post-match sequence, both teams (services)", times, queries)

    def _walk_match(self, match) -> tuple[float, int]:
        """Pre-match and report through the services (matches.playthrough, as the demo league plays),
        then the timed post-match of both teams."""
        walk_prematch(match)
        playing = match.squad.filter(status=SquadEntry.Status.PLAYING).order_by("player__number")
        h = [e.player_id for e in playing if e.team_id == match.home_id]
        a = [e.player_id for e in playing if e.team_id == match.away_id]
        lines = [
            LineInput(h[0], touchdowns=2),
            LineInput(h[1], casualties=1),
            LineInput(a[0], touchdowns=1),
            LineInput(a[1], injury="serious_injury", injured_by_id=h[1]),
        ]
        file_report(match, ReportInput(home_score=2, away_score=1, lines=lines), by=None)
        confirm_report(match, by=None)
        with CaptureQueriesContext(connection) as captured:
            t0 = time.perf_counter()
            walk_postmatch(match)
            elapsed = (time.perf_counter() - t0) * 1000
        return elapsed, len(captured)
