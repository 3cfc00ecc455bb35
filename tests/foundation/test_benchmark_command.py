"""The benchmark command builds its league and prints its figures (not a timed test)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_benchmark_runs_on_a_small_league(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "benchmark",
            "--teams",
            "8",
            "--seasons",
            "2",
            "--divisions",
            "2",
            "--requests",
            "6",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "Built 8 teams" in out
    for page in ("front page /", "standings /standings/", "team page /teams/", "post-match sequence"):
        assert page in out
    # issue 16: per-player match rows, analyzed tables, the leaders and player pages, the kept tables' cost
    assert "per-player match rows" in out and "analyzed" in out and "cores" in out
    for page in ("leaders /leaders/", "team leaders /leaders/?kind=teams", "player page /players/", "kept tables"):
        assert page in out
    assert "throughput: skipped" in out  # SQLite here; gunicorn's throughput is measured on PostgreSQL
