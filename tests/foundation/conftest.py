"""The serving tests' servers: the static files collected once per worker, and a production gunicorn."""

import os
import subprocess
import sys

import pytest

from tests.foundation.servers import PRODUCTION, ROOT, gunicorn_server


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory):
    """STATIC_ROOT as `manage.py collectstatic` fills it in production (hashed, compressed), once per worker."""
    root = tmp_path_factory.mktemp("static")
    env = {**os.environ, **PRODUCTION, "STATIC_ROOT": str(root)}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    return root


@pytest.fixture(scope="session")
def production_server(tmp_path_factory, collected_static):
    """gunicorn in production mode on a SQLite database of its own, shared by the serving tests of a
    worker (issue 25: migrating a database costs about 15 s)."""
    db = tmp_path_factory.mktemp("db") / "prod.sqlite3"
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}},
        **PRODUCTION,
        "DATABASE_URL": f"sqlite:///{db}",
        "STATIC_ROOT": str(collected_static),
        "WEB_CONCURRENCY": "2",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    with gunicorn_server(env) as base:
        yield base
