"""A match night through nginx and gunicorn, in a throwaway database: the demo league (seed_demo) with
`--matches` matches live, each followed by its two coaches' phones polling the board as the live page
does, `--coaches` of those coaches keeping their logs at a coach's pace, and `--visitors` visitors reading
the public pages, for `--seconds`. It prints each kind's count, median, 99th percentile and errors, and how
many of the entries answered as recorded are rows in the database. It reports; it never fails on a time.
See docs/match-night.md."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from io import StringIO
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import setup_test_environment

from league.lib.writes import league_writes
from league.management.match_night import KINDS, Browser, Night, Phone, page_token
from league.management.servers import NGINX, ROOT, gunicorn_server, nginx_proxy
from matches import dice
from matches.models import LiveEvent, Match
from matches.playthrough import walk_prematch
from teams.models import Player, Team

PASSWORD = "match-night-" + "k3J8s1L5d9F2g7H4"
SEED = 2006


class Command(BaseCommand):
    help = "Load a match night through nginx and gunicorn on the demo league (a throwaway database); print figures."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=13, help="Matches live, two phones each (default 13).")
        parser.add_argument("--coaches", type=int, default=6, help="Coaches keeping their logs (default 6).")
        parser.add_argument("--visitors", type=int, default=20, help="Visitors browsing (default 20).")
        parser.add_argument("--seconds", type=float, default=60, help="How long the night lasts (default 60).")
        parser.add_argument(
            "--entry-seconds", type=float, default=10, help="A coach's pace: seconds between entries, ±50%%."
        )
        parser.add_argument(
            "--read-seconds", type=float, default=5, help="A visitor's seconds on a page before the next, ±50%%."
        )
        parser.add_argument("--rounds", type=int, default=4, help="League rounds played before the night (default 4).")
        parser.add_argument("--static-root", help="Static files already collected (default: collected for the run).")
        parser.add_argument("--json", action="store_true", help="The figures as JSON instead of a table.")

    def handle(self, *args, **options):
        if not Path(NGINX).exists():
            raise CommandError("nginx is not installed: bash scripts/ensure-test-tools installs it.")
        setup_test_environment()  # the demo league's e-mails kept in memory, not printed
        old_name = connection.settings_dict["NAME"]
        with tempfile.TemporaryDirectory() as folder:
            # A database of its own, never the test suite's (test_<name>) nor the league's.
            connection.settings_dict["TEST"]["NAME"] = (
                str(Path(folder) / "match_night.sqlite3")
                if connection.vendor == "sqlite"
                else f"{old_name}_match_night"
            )
            connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
            try:
                self.night(Path(folder), **options)
            finally:
                connection.creation.destroy_test_db(old_name, verbosity=0)

    def night(self, folder: Path, **options) -> None:
        matches = self.build(options["matches"], rounds=options["rounds"])
        static_root = options["static_root"] or str(folder / "static")
        env = self.server_env(static_root)
        if not options["static_root"]:
            manage = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
            subprocess.run(manage, cwd=ROOT, env=env, check=True, timeout=300)
        (folder / "nginx").mkdir()
        with gunicorn_server(env) as upstream, nginx_proxy(upstream, folder / "nginx") as base:
            phones = self.phones(base, matches)
            night = Night(
                base,
                seconds=options["seconds"],
                poll_seconds=settings.LIVE_POLL_SECONDS,
                entry_seconds=options["entry_seconds"],
                read_seconds=options["read_seconds"],
            )
            # each coach keeps the log of a match of his own, from his phone (the home team's)
            coaches = phones[0 : 2 * options["coaches"] : 2]
            figures = night.run(
                phones=phones, coaches=coaches, visitors=options["visitors"], pages=self.pages(matches), seed=SEED
            )
        rows = LiveEvent.objects.filter(client_id__in=figures.recorded).count()
        result = {
            "matches": len(matches),
            "phones": len(phones),
            "coaches": len(coaches),
            "visitors": options["visitors"],
            "seconds": options["seconds"],
            "poll_seconds": settings.LIVE_POLL_SECONDS,
            "workers": int(env.get("WEB_CONCURRENCY") or (os.cpu_count() or 1) * 2 + 1),
            "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
            "database": connection.vendor,
            "kinds": figures.summary(),
            "entries_answered": len(figures.recorded),
            "entries_in_database": rows,
            "first_errors": figures.described,
        }
        self.stdout.write(json.dumps(result, indent=2) if options["json"] else self.table(result))

    def build(self, count: int, *, rounds: int) -> list[Match]:
        """The demo league, and the next `count` league matches past their pre-match sequence: live. The demo
        league has 13 teams, so a coach keeps about two of thirteen logs."""
        call_command("seed_demo", "--rounds", str(rounds), stdout=StringIO())
        scheduled = Match.objects.filter(status=Match.Status.SCHEDULED, division__isnull=False, away__isnull=False)
        matches = list(scheduled.select_related("home__coach", "away__coach").order_by("round", "pk")[:count])
        if len(matches) < count:
            raise CommandError(f"The demo league has {len(matches)} matches to play, not {count}.")
        with league_writes(), dice.seeded(random.Random(SEED)):
            for match in matches:
                walk_prematch(match)
        User = get_user_model()
        for coach in User.objects.filter(
            pk__in={m.home.coach_id for m in matches} | {m.away.coach_id for m in matches}
        ):
            coach.set_password(PASSWORD)
            coach.save(update_fields=["password"])
        return matches

    def server_env(self, static_root: str) -> dict[str, str]:
        """Production's settings (DEBUG off, the pool, the worker count) on the throwaway database."""
        db = connection.settings_dict
        if connection.vendor == "sqlite":
            url = f"sqlite:///{db['NAME']}"
        else:
            url = (
                f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
                f"{db['PORT'] or 5432}/{db['NAME']}"
            )
        return {
            **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
            "DEBUG": "0",
            "SECRET_KEY": "match-night-" + "p4R8t2Y6u1I9o3P7aSdFgHjKlZxCvBnM" * 2,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "STATIC_ROOT": static_root,
            "DATABASE_URL": url,
        }

    def phones(self, base: str, matches: list[Match]) -> list[Phone]:
        """Two phones a match, the home coach's first: each logged in and on the live page. A coach at two
        tables has one session (one log-in: a password check costs a third of a second of a core)."""
        sessions: dict[int, dict[str, str]] = {}
        phones = []
        for match in matches:
            for coach in (match.home.coach, match.away.coach):
                if coach.pk not in sessions:
                    browser = Browser(base)
                    browser.log_in(coach.username, PASSWORD)
                    sessions[coach.pk] = browser.cookies
                    browser.close()
                browser = Browser(base, sessions[coach.pk])
                status, html, _ = browser.send("GET", f"/matches/{match.pk}/live/")
                browser.close()
                if status != 200:
                    raise CommandError(f"The live page of match {match.pk} answered {status}.")
                phones.append(Phone(match=match.pk, cookies=sessions[coach.pk], csrf=page_token(html)))
        return phones

    def pages(self, live: list[Match]) -> list[list[str]]:
        """The public pages a visitor reads, each kind as likely: the front page, the standings, a team, a
        player, the leaders, a match (played or live)."""
        played = Match.objects.filter(status=Match.Status.CONFIRMED).values_list("pk", flat=True)
        return [
            ["/"],
            ["/standings/"],
            [f"/teams/{pk}/" for pk in Team.objects.values_list("pk", flat=True)],
            [f"/players/{pk}/" for pk in Player.objects.values_list("pk", flat=True)],
            ["/leaders/"],
            [f"/matches/{pk}/" for pk in [*played, *(m.pk for m in live)]],
        ]

    def table(self, r: dict) -> str:
        lines = [
            f"Match night through nginx: {r['matches']} matches live, {r['phones']} phones polling every "
            f"{r['poll_seconds']:g} s, {r['coaches']} coaches posting, {r['visitors']} visitors, {r['seconds']:g} s; "
            f"gunicorn {r['workers']} workers, {r['database']}, {r['cores']} cores",
            f"{'kind':10} {'count':>7} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'304':>7}",
        ]
        for kind in KINDS:
            k = r["kinds"][kind]
            lines.append(
                f"{kind:10} {k['count']:7d} {k['p50_ms']:8.1f} {k['p99_ms']:8.1f} {k['errors']:7d} {k['unchanged']:7d}"
            )
        lines.append(
            f"entries answered as recorded: {r['entries_answered']}; in the database: {r['entries_in_database']}"
        )
        lines += [f"error: {e}" for e in r["first_errors"]]
        return "\n".join(lines)
