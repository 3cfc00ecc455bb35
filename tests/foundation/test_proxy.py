"""The production recipe's nginx (deploy/nginx.conf) buffers requests: 100 clients trickling a request
body a byte a second never reach gunicorn's threads, so /healthz answers through the proxy while they hang
on. (Straight to gunicorn's 2 × 16 threads, the same clients held every thread and /healthz timed out, when
tried by hand.) Nothing here is timed: how fast a page answers is the benchmark's."""

import contextlib
import socket
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from league.management.servers import NGINX, nginx_proxy

SLOW_CLIENTS = 100
pytestmark = pytest.mark.skipif(not Path(NGINX).exists(), reason="nginx is installed by scripts/ensure-test-tools")


@pytest.fixture
def proxy(production_server, tmp_path):
    with nginx_proxy(production_server, tmp_path) as base:
        yield base


def slow_bodies(base: str, stop: threading.Event) -> threading.Thread:
    """SLOW_CLIENTS POSTs that promise a body of 100 kB and send it a byte a second (bounded: 20 s)."""
    port = urlsplit(base).port
    conns = []
    for _ in range(SLOW_CLIENTS):
        conn = socket.create_connection(("127.0.0.1", port), timeout=5)
        conn.sendall(b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\nu")
        conns.append(conn)

    def trickle() -> None:
        for _ in range(20):
            if stop.wait(1):
                break
            for conn in conns:
                with contextlib.suppress(OSError):
                    conn.sendall(b"a")
        for conn in conns:
            conn.close()

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    return thread


def answers(url: str) -> bool:
    try:
        # generous: the slow clients hang on for 20 s, and what matters is an answer while they do
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200
    except OSError:
        return False


def test_slow_request_bodies_stop_at_the_proxy(proxy):
    stop = threading.Event()
    trickler = slow_bodies(proxy, stop)
    try:
        time.sleep(1)
        for _ in range(3):
            assert answers(f"{proxy}/healthz")
            assert trickler.is_alive(), "the slow clients were gone before /healthz answered"
            time.sleep(1)
    finally:
        stop.set()
        trickler.join()
