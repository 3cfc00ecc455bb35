"""What the workers of one run share (pytest-xdist's documented pattern, with a lock from the standard
library): a thing made once for the run, by the first worker that asks, in the run's own temporary
directory; a worker that asks later uses it. A worker that asks while another is still making it makes its
own instead of waiting idle (both start with the slowest tests, which often need the same thing)."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path


def once_per_run(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """`make(path)` run once for the whole run (it creates the file or folder `path`); the path it made."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's directory, above each worker's own
    path = shared / name
    if path.exists():
        return path
    with (shared / f"{name}.lock").open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another worker is making it now
            own = tmp_path_factory.mktemp(name) / name
            make(own)
            return own
        if not path.exists():
            making = shared / f"{name}.making"
            if making.is_dir():
                shutil.rmtree(making)
            making.unlink(missing_ok=True)
            make(making)
            making.rename(path)
    return path
