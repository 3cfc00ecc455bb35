"""Run requests at the same moment from several threads, each with its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections


def require_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (CI runs it there)")


def run_together(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Start every job at once (a barrier), return each result or the exception it raised."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def worker(i: int, job: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = job()
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    # a job still running would leave its result None and hold its locks into the teardown's flush
    assert not any(t.is_alive() for t in threads), "a job was still running after 30 s"
    return results
