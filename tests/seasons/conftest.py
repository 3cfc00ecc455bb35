import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client
