"""The front page's throughput through gunicorn, as `manage.py benchmark` measures it:
the project's gunicorn.conf.py on the benchmark's database, keep-alive clients at once for a while."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from django.conf import settings
from django.db import connection


def front_page_throughput(*, clients: int, seconds: float) -> str:
    """The front page through gunicorn (the project's gunicorn.conf.py, 2 workers), `clients`
    keep-alive clients at once for `seconds`, on this benchmark's database."""
    if seconds <= 0:
        return ""
    db = connection.settings_dict
    if connection.vendor != "postgresql":
        return "throughput: skipped (gunicorn needs a database another process opens: PostgreSQL)"
    root = Path(settings.BASE_DIR)
    with tempfile.TemporaryDirectory() as static_root:
        env = {
            **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
            "DEBUG": "0",
            "SECRET_KEY": "benchmark-" + "x7Q2w9E4r1T6y3U8i5O0pAsDfGhJkLzX" * 2,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "STATIC_ROOT": static_root,
            "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", "2"),
            "DATABASE_URL": (
                f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
                f"{db['PORT'] or 5432}/{db['NAME']}"
            ),
        }
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=root, env=env, check=True, timeout=300)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "gunicorn.conf.py",
                "--bind",
                f"127.0.0.1:{port}",
                "torshov.wsgi",
            ],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait_for(port)
            done, errors = _load(port, clients=clients, seconds=seconds)
        finally:
            server.terminate()
            server.wait(timeout=20)
    return (
        f"front page through gunicorn ({env['WEB_CONCURRENCY']} workers), {clients} clients for {seconds:.0f} s: "
        f"{done / seconds:.1f} requests/s, {errors} errors"
    )


def _wait_for(port: int) -> None:
    for _ in range(150):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not start")


def _load(port: int, *, clients: int, seconds: float) -> tuple[int, int]:
    """Each client a thread with a keep-alive connection to this machine, until the time is up."""
    counts = [0] * clients
    errors = [0] * clients
    deadline = time.monotonic() + seconds

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while time.monotonic() < deadline:
            try:
                conn.request("GET", "/", headers={"Host": "127.0.0.1"})
                response = conn.getresponse()
                response.read()
                if response.status == 200:
                    counts[i] += 1
                else:
                    errors[i] += 1
            except (OSError, http.client.HTTPException):
                errors[i] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    return sum(counts), sum(errors)
