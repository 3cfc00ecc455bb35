import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english():
    """Messages are asserted in English; the Norwegian wording is checked in the browser tests."""
    with translation.override("en"):
        yield


@pytest.fixture
def client(client):
    """Pages in English (the language cookie), so refusals can be asserted word for word."""
    client.cookies["django_language"] = "en"
    return client
