"""SQLite with the league version raised by every committed league write (league.db.versioning)."""

from django.db.backends.sqlite3 import base
from django.utils import timezone

from league.db.versioning import VERSION_TABLE, VersioningMixin


class DatabaseWrapper(VersioningMixin, base.DatabaseWrapper):
    exists_sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
    bump_sql = (
        f"INSERT INTO {VERSION_TABLE} (id, number, token, changed_at) VALUES (1, 1, ?, ?) "
        f"ON CONFLICT (id) DO UPDATE SET number = {VERSION_TABLE}.number + 1, changed_at = excluded.changed_at"
    )

    def _now(self):
        return timezone.now().replace(tzinfo=None).isoformat(" ")  # as Django stores a UTC datetime here
