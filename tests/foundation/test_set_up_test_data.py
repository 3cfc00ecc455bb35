"""setUpTestData for a class of pytest tests (tests/conftest.py, `set_up_test_data`; issue 25): what a
class builds is built once for its tests, and still a fresh start for every test. What one test
writes, in the database or on the objects, never reaches the next, nor the tests after the class."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import translation

from tests import factories

pytestmark = pytest.mark.django_db

BUILDS: list[str] = []


class TestBuiltOnceForTheClass:
    @classmethod
    def setUpTestData(cls):
        BUILDS.append("built")
        cls.user = factories.user("bygget_en_gang", first_name="Kari")
        cls.built_on_it = {"user": cls.user, "same": cls.user}

    def test_a_test_writes_what_it_likes(self):
        self.user.first_name = "Changed"
        self.user.save()
        get_user_model().objects.create_user("lekket")

    def test_the_next_test_sees_none_of_it(self):
        assert self.user.first_name == "Kari"
        assert get_user_model().objects.get(pk=self.user.pk).first_name == "Kari"
        assert not get_user_model().objects.filter(username="lekket").exists()

    def test_the_data_was_built_once_for_the_class(self):
        # the tests of this class run together in one process (pytest-xdist may share them out: once each)
        assert BUILDS == ["built"]

    def test_the_copies_keep_their_relations(self):
        assert self.built_on_it["user"] is self.user and self.built_on_it["same"] is self.user
        assert type(self).__dict__["user"].data is not self.user  # the test's own copy

    def test_each_test_runs_in_its_own_savepoint_inside_the_class_transaction(self):
        # the class's transaction, and pytest-django's own atomic block for this test
        assert connection.in_atomic_block and len(connection.atomic_blocks) == 2

def test_after_the_class_its_data_is_gone():
    assert not get_user_model().objects.filter(username="bygget_en_gang").exists()
    assert "user" not in vars(TestBuiltOnceForTheClass)


class TestInTheLanguageOfItsTests:
    """The apps' folders run their tests in English (tests/*/conftest.py, `english`): setUpTestData too."""

    @pytest.fixture(autouse=True)
    def english(self):
        with translation.override("en"):
            yield

    @classmethod
    def setUpTestData(cls):
        cls.language = translation.get_language()

    def test_set_up_test_data_ran_in_the_language_of_the_tests(self):
        assert self.language == translation.get_language() == "en"


def test_elsewhere_in_the_default_language():
    assert translation.get_language() == "nb"
