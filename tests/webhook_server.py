"""An HTTP server of the test's own on 127.0.0.1, in a thread, that records each request it receives and
answers with the statuses it is given (then 204): a webhook's or a push service's receiver in the tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    statuses: list[int] = field(default_factory=list)  # the next answers, in order; 204 once they run out
    requests: list[Received] = field(default_factory=list)


@contextmanager
def receiver(*statuses: int, path: str = "/hook") -> Iterator[Receiver]:
    """A server answering `statuses` then 204; its address (with `path`) and what it received."""
    lock = threading.Lock()
    record = Receiver(url="", statuses=list(statuses))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with lock:
                record.requests.append(Received("POST", self.path, dict(self.headers.items()), body))
                status = record.statuses.pop(0) if record.statuses else 204
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:  # quiet in the test's output
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    record.url = f"http://127.0.0.1:{server.server_address[1]}{path}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield record
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
