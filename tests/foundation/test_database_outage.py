"""While PostgreSQL is away, every request fails fast and the worker waits it out.

The database "goes away" behind a forwarder the test cuts (tests.foundation.servers.DatabaseLink): the
shared server at 127.0.0.1:5432 is never stopped. Cut, the forwarder answers nothing, as a host gone
silent: the worst case, where only the timeouts end a wait. Before, every request waited the pool's
10 s for its 503 (/healthz included, so a load balancer's check timed out instead of seeing it), and
`db_worker` exited at the first connection it could not get."""

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

from league.management.servers import gunicorn_server
from league.notices.delivery import ABANDONED_AFTER, finish_abandoned_tasks
from tests.foundation.servers import PRODUCTION, ROOT, DatabaseLink

pytestmark = pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"], reason="the outage of a PostgreSQL server"
)
# How fast the 503s come is the configured waits' (test_the_waits_for_a_database_away_are_short below) and
# the measurement's (docs/match-night.md): this test asserts that they come, and that the site comes back.


@pytest.fixture
def link():
    link = DatabaseLink()
    yield link
    link.close()


def app_env(link: DatabaseLink, **more: str) -> dict[str, str]:
    name = settings.DATABASES["default"]["NAME"]  # the test database, migrated by pytest-django
    return {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        **PRODUCTION,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{link.port}/{name}",
        "TASKS_BACKEND": "database",
        **more,
    }


def timed_get(url: str) -> tuple[int, float]:
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.monotonic() - start


def test_healthz_and_pages_answer_503_at_once_while_the_database_is_away(django_db_setup, link, collected_static):
    env = app_env(link, STATIC_ROOT=str(collected_static), WEB_CONCURRENCY="1")
    with gunicorn_server(env) as base:
        assert timed_get(f"{base}/healthz")[0] == 200
        assert timed_get(f"{base}/standings/")[0] == 200
        link.cut()
        health = [timed_get(f"{base}/healthz") for _ in range(3)]
        pages = [timed_get(f"{base}{path}") for path in ("/", "/standings/", "/teams/")]
        print(
            "database away: /healthz",
            [f"{s} {t:.2f}s" for s, t in health],
            "pages",
            [f"{s} {t:.2f}s" for s, t in pages],
        )
        assert [status for status, _ in health] == [503] * 3
        assert [status for status, _ in pages] == [503] * 3
        link.restore()
        for _ in range(50):  # back without a restart
            if timed_get(f"{base}/healthz")[0] == 200:
                break
            time.sleep(0.2)
        assert timed_get(f"{base}/standings/")[0] == 200


def test_the_waits_for_a_database_away_are_short():
    """What makes the 503s above come at once, not after the pool's old 10 s: /healthz waits for a pooled
    connection half a second, a page one second, and a connection attempt gives up after two."""
    from league.lib.middleware import HEALTH_DATABASE_TIMEOUT

    script = (
        "from django.conf import settings; o = settings.DATABASES['default']['OPTIONS'];"
        "print(o['pool']['timeout'], o['connect_timeout'])"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DB_")}
    env.update(PRODUCTION, DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused")
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.stdout.splitlines()[-1:] == ["1.0 2"], out.stderr[-2000:]
    assert HEALTH_DATABASE_TIMEOUT == 0.5


def _queued_task() -> DBTaskResult:
    # A notice that no longer exists: the task finds nothing to send and ends.
    return DBTaskResult.objects.create(
        task_path="league.notices.delivery.send_notice",
        args_kwargs={"args": [0], "kwargs": {}},
        backend_name="default",
        queue_name="default",
        run_after=get_date_max(),
    )


@pytest.mark.django_db(transaction=True)
def test_the_worker_waits_out_the_database_and_runs_the_next_task(link):
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "run_worker", "--interval", "0.2", "--retry-after", "0.5", "--no-startup-delay"],
        cwd=ROOT,
        env=app_env(link),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(150):  # started and polling the queue: its first connection came through the link
            if link.sockets:
                break
            time.sleep(0.1)
        link.cut()
        time.sleep(5)  # well past the pool's wait and the connection timeout
        assert worker.poll() is None, "the worker exited while the database was away"
        link.restore()
        task = _queued_task()
        for _ in range(100):
            task.refresh_from_db()
            if task.status != TaskResultStatus.READY:
                break
            time.sleep(0.2)
        assert task.status in (TaskResultStatus.RUNNING, TaskResultStatus.SUCCESSFUL)
    finally:
        worker.terminate()
        worker.wait(timeout=10)


@pytest.mark.django_db
def test_a_task_left_running_by_a_dead_worker_is_marked_failed():
    now = timezone.now()
    abandoned, running = _queued_task(), _queued_task()
    DBTaskResult.objects.filter(pk=abandoned.pk).update(
        status=TaskResultStatus.RUNNING, started_at=now - ABANDONED_AFTER - timedelta(seconds=1)
    )
    DBTaskResult.objects.filter(pk=running.pk).update(status=TaskResultStatus.RUNNING, started_at=now)
    assert finish_abandoned_tasks(now=now) == 1
    abandoned.refresh_from_db()
    running.refresh_from_db()
    assert abandoned.status == TaskResultStatus.FAILED and abandoned.finished_at == now
    assert running.status == TaskResultStatus.RUNNING  # its worker may still be sending
