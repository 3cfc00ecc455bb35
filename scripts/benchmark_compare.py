"""The benchmark before and after a change, side by side in one run (docs/benchmark.md).

    python scripts/benchmark_compare.py b78b882 [--rounds 3] [--requests 60] [-- --teams 40 ...]

Checks out BEFORE (a commit) in a temporary git worktree, and runs `manage.py benchmark` of that
commit and of this checkout in turn, ROUNDS times each (before, after, after, before, …) on the same
machine, each against its own kept PostgreSQL database (built once, `--keepdb`), so the noise of a
busy machine falls on both alike. Prints each page's median over the rounds: uncached, after a write
and cached, before → after. Needs DATABASE_URL pointing at PostgreSQL (the server, not a database:
the script names the databases itself).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# "front page /   11.0   13.2   9   10.7   0.57": label and URL, median, p95, queries, after a write, cached.
LINE = re.compile(
    r"^(?P<page>.+?\S)\s+(?P<median>\d+\.\d)\s+(?P<p95>\d+\.\d)\s+(?P<queries>\d+)"
    r"(?:\s+(?P<written>\d+\.\d)\s+(?P<cached>\d+\.\d+))?$"
)


def run(tree: Path, database: str, args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """One benchmark of the checkout at `tree`; its page lines by page."""
    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    env = {**os.environ, "DATABASE_URL": f"{base}/{database}", "PYTHONPATH": str(tree)}
    command = [sys.executable, "manage.py", "benchmark", "--keepdb", "--requests", str(args.requests)]
    command += ["--seconds", str(args.seconds), *args.extra]
    out = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=True).stdout
    found: dict[str, dict[str, float]] = {}
    for line in out.splitlines():
        if "/" in line and (m := LINE.match(line.strip())):
            found[m["page"]] = {k: float(v) for k, v in m.groupdict().items() if k != "page" and v is not None}
        elif n := re.search(r"([\d.]+) requests/s", line):
            found["front page through gunicorn"] = {"rps": float(n[1])}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="The commit to compare with (e.g. the one before the change).")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=0, help="Throughput run per benchmark; 0 skips it.")
    parser.add_argument(
        "--database", default="torshov_bench", help="Name stem of the kept databases (one league size each)."
    )
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []  # more options for manage.py benchmark
    args = parser.parse_args(argv[: len(argv) - len(extra) - (1 if extra else 0)])
    args.extra = extra
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL to the PostgreSQL server (postgres://user@host:port/any).")
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(before), args.before], cwd=ROOT, check=True)
        try:
            results: dict[str, list[dict]] = {"before": [], "after": []}
            for n in range(args.rounds):
                sides = [("before", before), ("after", ROOT)]
                # every other round the other side first: a machine that slows during a round weighs on both
                for name, tree in sides if n % 2 == 0 else sides[::-1]:
                    print(f"round {n + 1}: {name}", file=sys.stderr, flush=True)
                    results[name].append(run(tree, f"{args.database}_{name}", args))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, check=False)
    print_table(results, args)


def cell(before: float | None, after: float | None, digits: int) -> str:
    if after is None:
        return "–"
    return f"{after:.{digits}f}" if before is None else f"{before:.{digits}f} → {after:.{digits}f}"


def print_table(results: dict[str, list[dict]], args: argparse.Namespace) -> None:
    def median(name: str, page: str, key: str) -> float | None:
        values = [r[page][key] for r in results[name] if page in r and key in r[page]]
        return statistics.median(values) if values else None

    print(f"Median over {args.rounds} rounds of {args.requests} requests, ms (before → after):\n")
    print("| page | uncached | after a write | cached | queries |")
    print("| --- | --- | --- | --- | --- |")
    pages = list(dict.fromkeys(p for r in results["after"] for p in r))
    for page in pages:
        if page == "front page through gunicorn":
            continue
        cells = []
        for key, digits in (("median", 1), ("written", 1), ("cached", 2), ("queries", 0)):
            b, a = median("before", page, key), median("after", page, key)
            cells.append(
                "–" if a is None else f"{b:.{digits}f} → {a:.{digits}f}" if b is not None else f"{a:.{digits}f}"
            )
        print(f"| {page} | " + " | ".join(cells) + " |")
    b, a = median("before", "front page through gunicorn", "rps"), median("after", "front page through gunicorn", "rps")
    if a is not None:
        print(f"\nFront page through gunicorn: {b:.0f} → {a:.0f} requests/s")


if __name__ == "__main__":
    main()
