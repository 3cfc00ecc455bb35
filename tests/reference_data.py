"""The league's reference data (groups, default ruleset, race catalogue), loaded again.

The migrations load it once; this re-runs the same idempotent loaders for a database a transactional
test emptied (the browser and concurrency tests flush it between tests).
"""

from importlib import import_module

from django.apps import apps as global_apps
from django.db import connection

from league.accounts import grant_board_permissions

LOADERS = (
    ("league.migrations.0001_groups", "create_groups"),
    ("league.migrations.0003_default_ruleset", "create_default"),
    ("teams.migrations.0002_load_catalogue", "load_catalogue"),
)


def ensure_reference_data() -> None:
    with connection.schema_editor(atomic=False) as editor:
        for module, function in LOADERS:
            getattr(import_module(module), function)(global_apps, editor)
    grant_board_permissions()
