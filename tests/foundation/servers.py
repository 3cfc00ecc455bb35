"""gunicorn started as production starts it, for the tests of serving (issue 2, issue 25)."""

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
# The settings production runs with, as the serving tests give them to gunicorn and collectstatic.
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "gunicorn-test-" + "q9W2e8R3t7Y4u6I1o5P0aZsXdCfVgBhN" * 2,
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "0",
}
# The serving tests' header deadline (GUNICORN_HEADER_TIMEOUT; 5 s in production): slow clients are
# dropped sooner, and the test that waits for it waits less.
HEADER_DEADLINE = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _stopped(proc: subprocess.Popen) -> Iterator[None]:
    """Stop the server's process when its block ends, however it ends."""
    try:
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextlib.contextmanager
def gunicorn_server(env: dict[str, str]) -> Iterator[str]:
    """gunicorn with `env` (its STATIC_ROOT collected: the `collected_static` fixture), its address once
    /healthz answers at all."""
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
            # 10 s: a server just started may be slow to answer its first request on a busy machine
            urllib.request.urlopen(f"{base}/healthz", timeout=10)
            break
        except urllib.error.HTTPError:
            break  # it answers (a 503 while its database is away): the server is up
        except OSError:
            time.sleep(0.2)
    with _stopped(proc):
        yield base


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@contextlib.contextmanager
def nginx_proxy(upstream: str, folder: Path) -> Iterator[str]:
    """deploy/nginx.conf as committed, pointed at `upstream` (gunicorn's address) and run from `folder`;
    its address once it answers."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    port = free_port()
    conf = conf.replace("server web:8000;", f"server 127.0.0.1:{urlsplit(upstream).port};")
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};")
    conf = conf.replace("include /etc/nginx/mime.types;", "")
    conf = conf.replace("/usr/share/nginx/errors", str(ROOT / "deploy" / "errors"))
    temp = "".join(
        f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # run as root (a container), nginx's workers would be `nobody`, shut out of the test's folder
    user = "user root;\n" if os.geteuid() == 0 else ""
    head = f"{user}pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nhttp {{\n{temp}\naccess_log off;"
    conf = re.sub(r"^http \{", head, conf, flags=re.M)
    (folder / "nginx.conf").write_text(conf)
    proc = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"])
    base = f"http://127.0.0.1:{port}"
    for _ in range(50):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            break
        time.sleep(0.1)
    with _stopped(proc):
        yield base


class DatabaseLink:
    """A TCP forwarder to the PostgreSQL server, for "the database goes away" without stopping the server
    others share. `cut()` drops every connection and leaves new ones unanswered, as a database host gone
    silent does (only timeouts end a wait for it); `restore()` forwards again."""

    def __init__(self, target: tuple[str, int] = ("127.0.0.1", 5432)) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.is_cut = False
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                self.sockets.append(client)
                if self.is_cut:
                    continue  # held, never answered
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets.append(server)
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self.lock:
            self.is_cut = True
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self.sockets = []

    def restore(self) -> None:
        self.cut()  # the connections held unanswered are dropped too
        self.is_cut = False

    def close(self) -> None:
        self.cut()
        self.listener.close()
