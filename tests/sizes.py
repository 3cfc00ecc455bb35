"""How big the heavy tests are. `make test` runs them small, so the suite stays a few minutes;
`make test-long` sets TEST_SIZE=full and runs them at full size, beside the tests marked `long`.
Each size can also be set alone by its own variable (e.g. LEAGUE_YEARS=25), which wins over both."""

import os

FULL = os.environ.get("TEST_SIZE", "") == "full"


def size(name: str, small: int, full: int) -> int:
    """The environment's `name` when set, else `full` under TEST_SIZE=full, else `small`."""
    value = os.environ.get(name, "")
    return int(value) if value else (full if FULL else small)
