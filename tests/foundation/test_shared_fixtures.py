"""The shared fixtures of tests/shared.py: built once for a group, and still a fresh start for every
test (issue 15). What one test writes, in the database or on the objects, never reaches the next."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests.shared import shared_fixture

pytestmark = pytest.mark.django_db

BUILDS: list[str] = []


@shared_fixture
def built_once(make_user):
    BUILDS.append("built")
    return make_user("bygget_en_gang", first_name="Kari")


@shared_fixture
def built_on_it(built_once):
    return {"user": built_once, "same": built_once}


def test_a_test_writes_what_it_likes(built_once):
    built_once.first_name = "Changed"
    built_once.save()
    get_user_model().objects.create_user("lekket")


def test_the_next_test_sees_none_of_it(built_once):
    assert built_once.first_name == "Kari"
    assert get_user_model().objects.get(pk=built_once.pk).first_name == "Kari"
    assert not get_user_model().objects.filter(username="lekket").exists()


def test_the_fixture_was_built_once_for_the_group(built_once):
    # the three tests of this group run together in one process (two with pytest-xdist's --dist loadfile)
    assert BUILDS == ["built"]


def test_fixtures_built_on_it_get_the_same_objects(built_once, built_on_it):
    assert built_on_it["user"] is built_once and built_on_it["same"] is built_once


def test_each_test_runs_in_its_own_savepoint_inside_the_groups_transaction(built_once):
    # the group's transaction, and pytest-django's own atomic block for this test
    assert connection.in_atomic_block and len(connection.atomic_blocks) == 2


@pytest.fixture
def reference_data(transactional_db):
    from tests.reference_data import ensure_reference_data

    ensure_reference_data()  # an earlier transactional test may have emptied the database


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_builds_the_fixture_for_itself(reference_data, built_once):
    # outside any group: committed for real, and flushed after the test as before
    assert not connection.in_atomic_block
    assert get_user_model().objects.filter(pk=built_once.pk).exists()
