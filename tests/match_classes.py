"""A league match built once for a class of tests (tests/conftest.py, set_up_test_data): each test changes
it in a savepoint of its own and reads it through the fixture its module's tests already ask for."""

import pytest

from tests import factories


class OneScheduledMatch:
    """A scheduled league match, no step of it walked: the `league_match` fixture."""

    @classmethod
    def setUpTestData(cls):
        cls.match = factories.league_match()

    @pytest.fixture
    def league_match(self):
        return self.match


class OneWalkedMatch:
    """A league match walked through its pre-match to its report: the `ready_match` fixture."""

    @classmethod
    def setUpTestData(cls):
        cls.match = factories.ready_match()

    @pytest.fixture
    def ready_match(self):
        return self.match
