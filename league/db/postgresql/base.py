"""PostgreSQL with the league version raised by every committed league write (league.db.versioning)."""

from django.db.backends.postgresql import base

from league.db.versioning import VERSION_TABLE, VersioningMixin


class DatabaseWrapper(VersioningMixin, base.DatabaseWrapper):
    exists_sql = "SELECT to_regclass(%s) IS NOT NULL"
    bump_sql = (
        f"INSERT INTO {VERSION_TABLE} (id, number, token, changed_at) VALUES (1, 1, %s, %s) "
        f"ON CONFLICT (id) DO UPDATE SET number = {VERSION_TABLE}.number + 1, changed_at = excluded.changed_at"
    )
