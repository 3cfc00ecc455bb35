"""The serving tests' servers: the static files collected and a production database migrated once per
run (whichever worker asks first; the others wait for it), and a production gunicorn."""

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from league.management.servers import gunicorn_server
from tests.foundation.servers import HEADER_DEADLINE, PRODUCTION, ROOT
from tests.once_per_run import once_per_run


def _manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args, "--noinput", "-v0"], cwd=ROOT, env=env, check=True)


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory):
    """STATIC_ROOT as `manage.py collectstatic` fills it in production (hashed, compressed)."""
    return once_per_run(
        tmp_path_factory,
        "static",
        lambda root: _manage({**os.environ, **PRODUCTION, "STATIC_ROOT": str(root)}, "collectstatic"),
    )


def _env(**more: str) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}, **PRODUCTION, **more}


def production_database(tmp_path_factory) -> Path:
    """A SQLite database of its own in production mode: a copy of one migrated once per run (migrating
    costs about 6 s)."""

    def migrated(directory: Path) -> None:
        directory.mkdir()
        _manage(_env(DATABASE_URL=f"sqlite:///{directory / 'prod.sqlite3'}"), "migrate")
        with contextlib.closing(sqlite3.connect(directory / "prod.sqlite3")) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the file the workers copy (WAL: settings)

    db = tmp_path_factory.mktemp("db") / "prod.sqlite3"
    shutil.copy(once_per_run(tmp_path_factory, "migrated", migrated) / "prod.sqlite3", db)
    return db


def production_env(db: Path, collected_static: Path, **more: str) -> dict[str, str]:
    return _env(
        DATABASE_URL=f"sqlite:///{db}",
        STATIC_ROOT=str(collected_static),
        WEB_CONCURRENCY="2",
        GUNICORN_HEADER_TIMEOUT=str(HEADER_DEADLINE),
        **more,
    )


@pytest.fixture(scope="session")
def production_server(tmp_path_factory, collected_static):
    """gunicorn in production mode on a SQLite database of its own, shared by the serving tests of a worker."""
    with gunicorn_server(production_env(production_database(tmp_path_factory), collected_static)) as base:
        yield base
