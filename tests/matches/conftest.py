import pytest
from django.utils import translation

from tests import factories


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def league_match(db):
    """factories.league_match(): a scheduled league match, built for the test. The tests that use it
    most build it once in a class's setUpTestData instead (tests/conftest.py, set_up_test_data)."""
    return factories.league_match()


@pytest.fixture
def ready_match(league_match):
    """factories.ready_match(): the league match walked to its report, built for the test (or once in a
    class's setUpTestData)."""
    return factories.ready_match(league_match)
