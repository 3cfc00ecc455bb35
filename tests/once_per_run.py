"""What the workers of one run share (pytest-xdist's documented pattern, with a lock from the standard
library): a thing made once for the whole run, by whichever worker asks first, in the run's own temporary
directory; the others wait for it, then use it."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def once_per_run(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """`make(path)` run once for the whole run (it creates the file or folder `path`); the path it made."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's directory, above each worker's own
    path = shared / name
    with _locked(shared / f"{name}.lock"):
        if not path.exists():
            making = shared / f"{name}.making"
            if making.is_dir():
                shutil.rmtree(making)
            making.unlink(missing_ok=True)
            make(making)
            making.rename(path)
    return path
