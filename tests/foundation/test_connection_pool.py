"""Production holds its PostgreSQL connections in a pool per process (issue 25): 20 clients at once on one
gunicorn worker with 16 threads use at most DB_POOL_SIZE connections, and every request is answered."""

import os
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from league.management.servers import gunicorn_server
from tests.foundation.servers import PRODUCTION

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="PostgreSQL's pool"),
]
POOL_SIZE = 3


@pytest.fixture
def pooled_server(collected_static):
    name = connection.settings_dict["NAME"]  # the test database, migrated and seeded with reference data
    env = {
        **os.environ,
        **PRODUCTION,
        "DATABASE_URL": f"postgres://{connection.settings_dict['USER']}@127.0.0.1:5432/{name}",
        "STATIC_ROOT": str(collected_static),
        "WEB_CONCURRENCY": "1",
        "GUNICORN_THREADS": "16",
        "DB_POOL_SIZE": str(POOL_SIZE),
    }
    with gunicorn_server(env) as base:
        yield base, name


def test_twenty_clients_share_the_pool_and_all_are_answered(pooled_server):
    base, name = pooled_server
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        mine = cursor.fetchone()[0]  # this test's own connection is not the server's
    peak = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        try:
            with connection.cursor() as cursor:  # the watcher's thread has a connection of its own
                while not done.is_set():
                    cursor.execute(
                        "SELECT count(*) FROM pg_stat_activity"
                        " WHERE datname = %s AND pid NOT IN (pg_backend_pid(), %s)",
                        [name, mine],
                    )
                    peak = max(peak, cursor.fetchone()[0])
                    time.sleep(0.01)
        finally:
            connection.close()

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(20) as clients:
            statuses = list(
                clients.map(lambda i: urllib.request.urlopen(f"{base}/standings/?n={i}", timeout=30).status, range(60))
            )
    finally:
        done.set()
        watcher.join()
    assert statuses == [200] * 60
    assert 1 <= peak <= POOL_SIZE
