"""gunicorn serves pages and whitenoise's compressed, hashed static files in production mode (issue 2)."""

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn_server(env: dict[str, str]) -> Iterator[str]:
    """gunicorn with `env` (static files collected first), its address once /healthz answers at all."""
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}", "torshov.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            # 10 s: with its database away /healthz answers only after the pool's wait (DB_POOL_TIMEOUT); a
            # 1 s probe timed out a hundred times, two minutes of the suite (issue 25)
            urllib.request.urlopen(f"{base}/healthz", timeout=10)
            break
        except urllib.error.HTTPError:
            break  # it answers (a 503 while its database is away): the server is up
        except OSError:
            time.sleep(0.2)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def production_server(tmp_path_factory):
    static_root = tmp_path_factory.mktemp("static")
    db = tmp_path_factory.mktemp("db") / "prod.sqlite3"
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}},
        "DEBUG": "0",
        "SECRET_KEY": "gunicorn-test-" + "q9W2e8R3t7Y4u6I1o5P0aZsXdCfVgBhN" * 2,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": f"sqlite:///{db}",
        "SECURE_SSL_REDIRECT": "0",
        "STATIC_ROOT": str(static_root),
        "WEB_CONCURRENCY": "2",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    with gunicorn_server(env) as base:
        yield base


def test_gunicorn_serves_pages_and_hashed_compressed_static_files(production_server):
    page = urllib.request.urlopen(f"{production_server}/", timeout=5).read().decode()
    assert "Torshov Touchdown" in page
    css = re.search(r'href="(/static/css/league\.[0-9a-f]{12}\.css)"', page)
    assert css, "static files are referenced by their hashed names"
    request = urllib.request.Request(f"{production_server}{css.group(1)}", headers={"Accept-Encoding": "gzip"})
    response = urllib.request.urlopen(request, timeout=5)
    assert response.status == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "max-age=315360000" in response.headers["Cache-Control"]  # hashed files cache forever
    health = urllib.request.urlopen(f"{production_server}/healthz", timeout=5)
    assert health.status == 200
