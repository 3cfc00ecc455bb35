"""The mutation score per module of league/rules, from the results `mutmut run` left in mutants/.

Killed counts what a test caught (a failing test or a timeout); a mutant no test ran counts against the
score as a survivor does. Exits 1 when the whole package is under the goal (90% unless --goal says).

    python scripts/mutation_score.py [--goal 90] [--survivors]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

RESULTS = Path("mutants/league/rules")
CAUGHT = {"killed", "timeout", "caught by type check"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goal", type=float, default=90.0, help="the package's lowest acceptable score, in percent")
    parser.add_argument("--survivors", action="store_true", help="list the mutants no test caught")
    args = parser.parse_args()
    metas = sorted(RESULTS.rglob("*.py.meta"))
    if not metas:
        print(f"no results in {RESULTS}: run `mutmut run` first", file=sys.stderr)
        return 1
    total: Counter[str] = Counter()
    survivors: list[str] = []
    print(f"{'module':<32}{'mutants':>8}{'killed':>8}{'survived':>9}{'no test':>8}{'score':>8}")
    for meta in metas:
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        counts = Counter(status_by_exit_code[code] for code in codes.values())
        survivors += [name for name, code in codes.items() if status_by_exit_code[code] not in CAUGHT]
        total += counts
        module = meta.relative_to(RESULTS.parent.parent).as_posix().removesuffix(".py.meta")
        print(_row(module, counts))
    print(_row("league/rules", total))
    if args.survivors:
        print(*sorted(survivors), sep="\n")
    return 0 if _score(total) >= args.goal else 1


def _score(counts: Counter[str]) -> float:
    mutants = sum(counts.values())
    return 100 * sum(counts[s] for s in CAUGHT) / mutants if mutants else 100.0


def _row(module: str, counts: Counter[str]) -> str:
    caught = sum(counts[s] for s in CAUGHT)
    return (
        f"{module:<32}{sum(counts.values()):>8}{caught:>8}{counts['survived']:>9}{counts['no tests']:>8}"
        f"{_score(counts):>7.1f}%"
    )


if __name__ == "__main__":
    sys.exit(main())
