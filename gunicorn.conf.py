"""gunicorn settings, from the environment (see README, "Production").

Threaded workers (gthread): a connection waits for its request in the worker's poller, and a thread
reads its request line and headers. A client that sends them slowly holds one thread, and for at
most GUNICORN_HEADER_TIMEOUT seconds: HeaderDeadlineWorker closes it then. Slow
clients therefore cannot take every worker, and /healthz keeps answering.
"""

import errno
import multiprocessing
import os
import time

from gunicorn.http.parser import RequestParser
from gunicorn.http.unreader import SocketUnreader
from gunicorn.workers.gthread import TConn, ThreadWorker

HEADER_TIMEOUT = float(os.environ.get("GUNICORN_HEADER_TIMEOUT", "5"))


class DeadlineUnreader(SocketUnreader):
    """Reads the socket; while `deadline` is set, no read waits past it."""

    deadline: float | None = None

    def chunk(self, size_hint=None):
        if self.deadline is None:
            return super().chunk(size_hint)
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("request head too slow")
        self.sock.settimeout(remaining)
        try:
            return super().chunk(size_hint)
        finally:
            self.sock.settimeout(None)  # blocking again, as gunicorn left it


class HeaderDeadlineParser(RequestParser):
    """gunicorn's HTTP/1 parser, with a deadline for the request line and headers (not the body)."""

    timed_out = False

    def __init__(self, cfg, source, source_addr):
        super().__init__(cfg, source, source_addr)
        self.unreader = DeadlineUnreader(source)

    def __next__(self):
        self.unreader.deadline = time.monotonic() + HEADER_TIMEOUT
        try:
            return super().__next__()
        except TimeoutError:
            self.timed_out = True
            raise StopIteration from None  # gthread closes the connection
        finally:
            self.unreader.deadline = None


class DeadlineConn(TConn):
    def init(self):
        fresh = not self.initialized
        super().init()
        # Only a plain HTTP/1 connection whose parser has read nothing yet gets the deadline.
        if fresh and type(self.parser) is RequestParser and not self.parser.unreader.buf.tell():
            self.parser = HeaderDeadlineParser(self.cfg, self.sock, self.client)

    def close(self, graceful=False):
        # A graceful close lingers up to 2 s reading in the worker's main thread, which a client
        # still trickling would fill: a client past the header deadline is cut off at once.
        super().close(graceful=graceful and not getattr(self.parser, "timed_out", False))


class HeaderDeadlineWorker(ThreadWorker):
    def accept(self, listener):
        # gunicorn's ThreadWorker.accept (27.0), with DeadlineConn for TConn.
        try:
            client_sock, client_addr = listener.accept()
            self.nr_conns += 1
            client_sock.setblocking(True)
            self.enqueue_req(DeadlineConn(self.cfg, client_sock, client_addr, listener.getsockname()))
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise


bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = HeaderDeadlineWorker
# Threads per worker: a request waiting on the database holds a thread, not the worker.
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
# A request that runs longer than this (a runaway page) is killed with its worker, so one cannot hold a
# thread for ever; nginx waits longer (proxy_read_timeout 60 s), so the timeout is ours to report.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# A restarting worker finishes its requests in flight for up to this long.
graceful_timeout = 10
# Idle kept-alive connections are closed after 2 s, so idle clients cannot hold threads. nginx never
# reuses one (deploy/nginx.conf opens a connection per request and asks gunicorn to close it): a
# connection nginx reused just as gunicorn closed it, idle or after an unread body, was a coach's 502.
# Only clients that reach gunicorn directly (health checks, tests) keep a connection alive.
keepalive = 2
accesslog = "-"
# gunicorn's default line, and the request id the app logs its lines under (league.lib.middleware).
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %({x-request-id}o)s'
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# A worker is replaced after about this many requests, so a leak cannot grow for ever. 1,000 restarted a
# worker every 2-3 s under load and cost half the throughput; 0 never restarts.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "20000"))
# Each worker's count is drawn from max_requests to 1.5 × max_requests: workers started together (at
# boot, all serving the same load) would otherwise restart within seconds of each other, and while
# several boot at once the others take their load (under load, a tenth of it as jitter let three of
# five restart within 6 s: p99 8.75 s and 29 timeouts).
max_requests_jitter = max_requests // 2
# The control socket's default path ($HOME/.gunicorn/gunicorn.ctl) is shared by every instance on
# the host; off unless an instance is given a path of its own.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True
