#!/usr/bin/env bash
# `make test-long`'s league years (docs/testing.md): LEAGUE_YEARS random league years (default 1,000), a
# thousand because one year in `make test` rarely reaches the rare dead-ends; in chunks of CHUNK years
# (default 25), one process per core, each with its own hypothesis seeds, so a dead-end found in one
# chunk does not stop the others and every chunk replays from its seed:
#   pytest tests/seasons/test_league_year.py -k random_league_years --hypothesis-seed=<seed>
# with LEAGUE_YEARS=<CHUNK>. Each chunk's output is in $OUT/chunk_<seed>.log; $OUT/summary.txt has one
# line per chunk (seed, years, exit code, seconds) and the totals at the end. The database is
# DATABASE_URL's (SQLite in memory when unset); each process gets a test database of its own.
set -uo pipefail
cd "$(dirname "$0")/.."
YEARS="${LEAGUE_YEARS:-1000}"
CHUNK="${CHUNK:-25}"
PROCESSES="${PROCESSES:-$(nproc)}"
SEED="${SEED:-1000}"
OUT="${OUT:-league-years}"
PY="${PY:-.venv/bin/python}"
mkdir -p "$OUT"
: > "$OUT/summary.txt"
chunks=$(( (YEARS + CHUNK - 1) / CHUNK ))

worker() {  # worker N plays chunks N, N+PROCESSES, ...
  local n=$1 i seed start rc db
  for (( i = n; i < chunks; i += PROCESSES )); do
    seed=$(( SEED + i ))
    db=()
    if [[ "${DATABASE_URL:-}" == postgres* ]]; then
      db=(env "DATABASE_URL=${DATABASE_URL%/*}/torshov_years_$n")
    fi
    start=$(date +%s)
    "${db[@]}" env LEAGUE_YEARS="$CHUNK" "$PY" -m pytest -p no:cacheprovider -q -n0 \
      tests/seasons/test_league_year.py -k random_league_years --hypothesis-seed="$seed" \
      > "$OUT/chunk_$seed.log" 2>&1
    rc=$?
    echo "seed=$seed years=$CHUNK rc=$rc seconds=$(( $(date +%s) - start ))" >> "$OUT/summary.txt"
  done
}

for (( p = 0; p < PROCESSES; p++ )); do worker "$p" & done
wait
passed=$(grep -c " rc=0 " "$OUT/summary.txt")
failed=$(grep -vc " rc=0 " "$OUT/summary.txt")
echo "league years: $(( passed * CHUNK )) passed in $passed chunks, $failed chunks failed (see $OUT/chunk_<seed>.log)" \
  | tee -a "$OUT/summary.txt"
[ "$failed" -eq 0 ]
