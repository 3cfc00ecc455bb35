"""The demo league (`seed_demo`) for tests that need a whole league, built once per run and its rows put
back for each test (issue 25: a build plays a dozen matches through every service, about 10 s; putting its
rows back takes under a second). Fixture `demo_league` in tests/conftest.py."""

import pickle
import random
from pathlib import Path
from unittest import mock

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection, transaction

from tests.factories import PASSWORD
from tests.reference_data import insert_rows


def build() -> dict[str, list]:
    """The demo league (13 teams of varied races, long names, a cup, two rounds played) with passwords set;
    its rows, every model's (the many-to-many tables' too), by the model's label."""
    # the server's dice seeded too: seed_demo picks a level-up without looking at the one already taken, and
    # some dice give a player two rolls with the same first choice
    with mock.patch("matches.dice.secrets.randbelow", random.Random(2006).randrange):
        call_command("seed_demo", "--rounds", "2")
    for user in get_user_model().objects.all():
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    return {
        model._meta.label: list(model._base_manager.all())
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    }


def save(path: Path) -> None:
    """The demo league built (in this worker's database) and its rows written to `path` for the run's other
    workers: they put the rows back instead of building it again (tests/once_per_run.py)."""
    path.write_bytes(pickle.dumps(build()))


def load(path: Path) -> dict:
    """The rows `save` wrote, by model."""
    return {apps.get_model(label): objects for label, objects in pickle.loads(path.read_bytes()).items()}


def restore(rows: dict) -> None:
    """The database emptied and filled with `rows`, in one transaction. Emptied with a DELETE a table: the
    test's teardown has just truncated them all (pytest-django's flush), so only the reference data put
    back since has rows, and a second TRUNCATE of every table cost half a second (issue 25)."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            for table in connection.introspection.django_table_names(only_existing=True, include_views=False):
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
        insert_rows(rows)
    ContentType.objects.clear_cache()  # the rows' content types may have other ids than those it kept
