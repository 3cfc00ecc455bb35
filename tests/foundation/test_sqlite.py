"""SQLite for development holds two tabs: two writers at once wait for each other instead of failing
with "database is locked" (issue 10). PostgreSQL stays the production and CI database; these run the
settings under SQLite in a subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SETTINGS = """
import json, django
django.setup()
from django.conf import settings
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("PRAGMA journal_mode")
    mode = cursor.fetchone()[0]
print(json.dumps({"options": settings.DATABASES["default"]["OPTIONS"], "journal_mode": mode}))
"""

# Two writers that read, pause, then write: a deferred transaction would have to upgrade its read lock
# and SQLite refuses that at once ("database is locked"), whatever the busy timeout.
TWO_WRITERS = """
import threading, time, django
django.setup()
from django.db import connection, connections, transaction
with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE IF NOT EXISTS tab (n integer)")
connections.close_all()
barrier, errors = threading.Barrier(2), []

def write(n):
    try:
        barrier.wait()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM tab")
            time.sleep(0.3)
            cursor.execute("INSERT INTO tab VALUES (%s)", [n])
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connections.close_all()

threads = [threading.Thread(target=write, args=(n,)) for n in (1, 2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT count(*) FROM tab")
    print(cursor.fetchone()[0], errors)
"""


def run_python(code: str, database: Path) -> subprocess.CompletedProcess:
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "torshov.settings",
    }
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_sqlite_waits_for_a_writer_and_uses_wal(tmp_path):
    result = run_python(SETTINGS, tmp_path / "dev.sqlite3")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["options"]["transaction_mode"] == "IMMEDIATE"
    assert found["options"]["timeout"] >= 5
    assert "synchronous=NORMAL" in found["options"]["init_command"]
    assert found["journal_mode"] == "wal"


def test_two_writers_at_once_on_sqlite_both_succeed(tmp_path):
    result = run_python(TWO_WRITERS, tmp_path / "dev.sqlite3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2 []"
