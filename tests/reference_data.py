"""The league's reference data (groups, default ruleset, race catalogue), loaded again.

The migrations load it once; this puts it back in a database a transactional test emptied (the browser
and concurrency tests flush it between tests). The rows the migrations left are kept before the first
test (`keep`, from `django_db_setup` in tests/conftest.py) and inserted again, ids and all, after each
flush: a tenth of the time of the migrations' own idempotent loaders, whose hundreds of update_or_create
were about 0.7 s for each transactional test. The loaders run only where nothing could be kept (a reused
test database a flush left empty).
"""

import copy
from importlib import import_module

from django.apps import apps as global_apps
from django.core.management.color import no_style
from django.db import connection, transaction

from league.accounts import grant_board_permissions

LOADERS = (
    ("league.migrations.0001_groups", "create_groups"),
    ("league.migrations.0003_default_ruleset", "create_default"),
    ("teams.migrations.0002_load_catalogue", "load_catalogue"),
)
# What the loaders write besides the groups (which Django's post_migrate and grant_board_permissions make
# again after a flush, with new ids): these models' rows and their many-to-many tables' rows.
REFERENCE_MODELS = ("league.Ruleset", "teams.Skill", "teams.Race", "teams.Position")

_kept: dict = {}  # model -> its rows as the loaders left them, in this worker


def _reference_models() -> list:
    models = [global_apps.get_model(name) for name in REFERENCE_MODELS]
    return models + [f.remote_field.through for model in models for f in model._meta.local_many_to_many]


def ensure_reference_data() -> None:
    """The reference data in the database: the loaders' the first time in a worker, later put back if a
    flush emptied it (else it is as they left it: no test commits a change to it)."""
    if not _kept:
        _load()
    elif not any(model._base_manager.exists() for model in _kept):
        _put_back()
    grant_board_permissions()


def keep() -> None:
    """The reference data the migrations loaded, kept before any test flushes it, so the first flush's
    teardown puts it back too instead of running the loaders (seconds). Nothing kept from a database a
    flush left empty (a reused test database): then the first flush runs the loaders."""
    if not _kept and all(global_apps.get_model(name)._base_manager.exists() for name in REFERENCE_MODELS):
        _kept.update({model: list(model._base_manager.all()) for model in _reference_models()})


def _load() -> None:
    with connection.schema_editor(atomic=False) as editor:
        for module, function in LOADERS:
            getattr(import_module(module), function)(global_apps, editor)
    if not _kept:
        _kept.update({model: list(model._base_manager.all()) for model in _reference_models()})


def _put_back() -> None:
    """The kept rows inserted as they were; the groups come by their names."""
    with transaction.atomic():
        import_module(LOADERS[0][0]).create_groups(global_apps, None)
        insert_rows(_kept)


def insert_rows(rows: dict) -> None:
    """Each model's kept instances inserted as they were, ids and all, in one transaction (its foreign keys
    are checked at its commit, so the order of the models does not matter), and the sequences moved past
    them, as loaddata does."""
    with transaction.atomic():
        for model, objects in rows.items():
            model._base_manager.bulk_create([copy.copy(obj) for obj in objects])
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), list(rows)):
                cursor.execute(sql)
