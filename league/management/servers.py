"""gunicorn and nginx started as production runs them, on this machine, for as long as a block lasts: the
serving tests and `manage.py match_night` start them through these."""

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


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
    """gunicorn with the project's gunicorn.conf.py and `env` (its STATIC_ROOT collected), its address once
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
    # run as root (a container), nginx's workers would be `nobody`, shut out of the folder
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
