"""What the serving tests give the servers (league.management.servers starts them), and a database link
that a test cuts."""

import contextlib
import socket
import threading
from pathlib import Path

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
