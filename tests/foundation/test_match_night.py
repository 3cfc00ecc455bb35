"""`manage.py match_night` runs a small match night through a real nginx and gunicorn: phones poll, coaches'
entries land in the database, visitors read pages, and nothing fails. Its times are printed, never judged."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from league.management.servers import NGINX, ROOT

pytestmark = [
    pytest.mark.skipif(not Path(NGINX).exists(), reason="nginx is installed by scripts/ensure-test-tools"),
    # A throwaway database migrated and the demo league built in it: over a minute on two busy cores. In make
    # test, tests/matches/test_live.py polls and posts the live log, test_upstream_connections.py goes
    # through nginx.
    pytest.mark.long,
]


def test_a_small_match_night_polls_posts_and_browses_without_an_error(collected_static):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    command = [
        *(sys.executable, "manage.py", "match_night", "--json"),
        *("--matches", "2", "--coaches", "2", "--visitors", "2", "--seconds", "4"),
        *("--entry-seconds", "1", "--read-seconds", "0.5", "--rounds", "1", "--static-root", str(collected_static)),
    ]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    night = json.loads(result.stdout)
    assert (night["matches"], night["phones"], night["coaches"], night["visitors"]) == (2, 4, 2, 2)
    for kind in ("polls", "entries", "pages"):
        assert night["kinds"][kind]["count"] > 0, kind
        assert night["kinds"][kind]["errors"] == 0, night["first_errors"]
    # every entry the server answered as recorded is a row of the live log, found by the id the phone made
    assert night["entries_answered"] == night["kinds"]["entries"]["count"]
    assert night["entries_in_database"] == night["entries_answered"]
