"""gunicorn holds slow clients: with 12 connections sending their headers a byte every half second,
/healthz and the front page answer while the slow clients still hold their connections, and the slow ones
are dropped after the header deadline (GUNICORN_HEADER_TIMEOUT: 5 s in production, 3 s for the test
server). Nothing here is timed: how fast the pages answer is the benchmark's (`manage.py benchmark`)."""

import contextlib
import socket
import threading
import time
import urllib.request
from urllib.parse import urlsplit

from tests.foundation.servers import HEADER_DEADLINE

SLOW_CLIENTS = 12


def get(url: str) -> None:
    # a generous timeout: a server whose threads the slow clients held would answer only once it had
    # dropped them, which the test sees as the slow clients no longer held
    with urllib.request.urlopen(url, timeout=30) as response:
        assert response.status == 200
        response.read()


def held(conn: socket.socket) -> bool:
    """The connection is still open and the server has said nothing on it (it waits for the headers)."""
    timeout = conn.gettimeout()
    conn.setblocking(False)  # a look, not a wait
    try:
        conn.recv(1, socket.MSG_PEEK)  # b"": closed; data: an answer to the slow request, not a wait
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        conn.settimeout(timeout)


def test_healthz_and_front_page_answer_while_twelve_slow_clients_hang_on(production_server):
    port = urlsplit(production_server).port
    get(f"{production_server}/")  # the front page rendered once, before the slow clients come
    start = time.monotonic()
    slow = []
    for _ in range(SLOW_CLIENTS):
        conn = socket.create_connection(("127.0.0.1", port), timeout=5)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # a request line and a partial header
        slow.append(conn)
    stop = threading.Event()

    def trickle():
        for _ in range(60):  # bounded: at most 30 s
            for conn in slow:
                with contextlib.suppress(OSError):  # dropped by the server, as it should be
                    conn.sendall(b"a")
            if stop.wait(0.5):
                return

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        time.sleep(0.3)
        get(f"{production_server}/healthz")
        get(f"{production_server}/")
        assert all(held(conn) for conn in slow), "the pages answered only once the slow clients were dropped"

        # past the header deadline every slow client has been closed
        time.sleep(max(0.0, start + HEADER_DEADLINE + 1 - time.monotonic()))
        for conn in slow:
            conn.settimeout(3)
            try:
                data = conn.recv(1024)
            except (ConnectionResetError, TimeoutError) as exc:
                assert not isinstance(exc, (TimeoutError, socket.timeout)), "a slow client is still held"
                data = b""
            assert data == b"" or data.startswith(b"HTTP/1.1 400")
    finally:
        stop.set()
        trickler.join(timeout=5)
        for conn in slow:
            conn.close()


def test_no_shared_control_socket_unless_an_instance_is_given_its_own(monkeypatch):
    import runpy
    from pathlib import Path

    conf = str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py")
    monkeypatch.delenv("GUNICORN_CONTROL_SOCKET", raising=False)
    settings = runpy.run_path(conf)
    assert settings["control_socket_disable"] is True
    assert settings["worker_class"].__name__ == "HeaderDeadlineWorker"
    monkeypatch.setenv("GUNICORN_CONTROL_SOCKET", "/run/torshov/a.ctl")
    settings = runpy.run_path(conf)
    assert settings["control_socket"] == "/run/torshov/a.ctl"
    assert "control_socket_disable" not in settings
