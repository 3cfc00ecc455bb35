"""The default ruleset "Torshov 2006" from the committed data file, and the trigger that keeps
published versions unchanged (R: a change never rewrites history)."""

import json
from pathlib import Path

from django.db import migrations
from django.utils import timezone

DATA = Path(__file__).resolve().parents[1] / "rules" / "data" / "torshov_2006.json"

POSTGRES_TRIGGER = """
CREATE OR REPLACE FUNCTION league_ruleset_published_is_frozen() RETURNS trigger AS $$
BEGIN
    -- Re-saving identical values (fixtures, test rollback) is no change.
    IF OLD.status = 'published' AND (
        NEW.name, NEW.status, NEW.data, NEW.notes, NEW.based_on_id, NEW.published_at
    ) IS DISTINCT FROM (
        OLD.name, OLD.status, OLD.data, OLD.notes, OLD.based_on_id, OLD.published_at
    ) THEN
        RAISE EXCEPTION 'ruleset "%" is published and cannot be changed', OLD.name;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER league_ruleset_published_is_frozen BEFORE UPDATE ON league_ruleset
    FOR EACH ROW EXECUTE FUNCTION league_ruleset_published_is_frozen();
"""
POSTGRES_DROP = """
DROP TRIGGER IF EXISTS league_ruleset_published_is_frozen ON league_ruleset;
DROP FUNCTION IF EXISTS league_ruleset_published_is_frozen();
"""
SQLITE_TRIGGER = """
CREATE TRIGGER league_ruleset_published_is_frozen BEFORE UPDATE ON league_ruleset
WHEN OLD.status = 'published' AND (
    NEW.name IS NOT OLD.name OR NEW.status IS NOT OLD.status OR NEW.data IS NOT OLD.data
    OR NEW.notes IS NOT OLD.notes OR NEW.based_on_id IS NOT OLD.based_on_id
    OR NEW.published_at IS NOT OLD.published_at
)
BEGIN
    SELECT RAISE(ABORT, 'ruleset is published and cannot be changed');
END;
"""
SQLITE_DROP = "DROP TRIGGER IF EXISTS league_ruleset_published_is_frozen;"


def create_default(apps, schema_editor):
    Ruleset = apps.get_model("league", "Ruleset")
    data = json.loads(DATA.read_text(encoding="utf-8"))
    if not Ruleset.objects.filter(name=data["name"]).exists():
        Ruleset.objects.create(
            name=data["name"],
            data=data,
            status="published",
            published_at=timezone.now().replace(microsecond=0),
            notes="Regelboka av 5/11-06 med styrets kjennelser R1–R40.",  # in Norwegian since issue 26 (0009)
        )


def remove_default(apps, schema_editor):
    pass  # the trigger is dropped first; the row goes with the table


def add_trigger(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_TRIGGER, params=None)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_TRIGGER)


def drop_trigger(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_DROP, params=None)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_DROP)


class Migration(migrations.Migration):
    dependencies = [("league", "0002_ruleset")]
    operations = [
        migrations.RunPython(create_default, remove_default),
        migrations.RunPython(add_trigger, drop_trigger),
    ]
