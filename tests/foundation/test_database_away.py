"""While the database is away every page is a Norwegian 503 the visitor can wait out, not a 500 (issue 25)."""

import os
import urllib.error
import urllib.request
from unittest import mock

import pytest
from django.db import OperationalError

from league.lib.responses import server_error
from league.management.servers import free_port, gunicorn_server
from tests.foundation.servers import PRODUCTION

pytestmark = pytest.mark.django_db


def test_a_page_is_a_norwegian_503_while_the_database_does_not_answer(client):
    client.raise_request_exception = False
    with mock.patch("django.db.backends.base.base.BaseDatabaseWrapper.cursor", side_effect=OperationalError("down")):
        response = client.get("/standings/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    html = response.content.decode()
    assert 'lang="nb"' in html and "Ligaen tar en pause" in html


def test_any_other_error_is_still_a_500(rf):
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert "Noe gikk galt" in response.content.decode()


@pytest.fixture
def server_without_database(collected_static):
    """gunicorn in production mode whose PostgreSQL address answers nothing (a closed port)."""
    env = {
        **os.environ,
        **PRODUCTION,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{free_port()}/nowhere",
        "STATIC_ROOT": str(collected_static),
        "WEB_CONCURRENCY": "1",
        "DB_POOL_TIMEOUT": "0.5",  # the pool's wait for a connection that never comes, then the 503
    }
    with gunicorn_server(env) as base:
        yield base


def test_gunicorn_answers_503_in_norwegian_while_postgresql_is_away(server_without_database):
    for path in ("/", "/standings/", "/teams/"):
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(f"{server_without_database}{path}", timeout=10)
        assert caught.value.code == 503, path
        assert "Ligaen tar en pause" in caught.value.read().decode()
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(f"{server_without_database}/healthz", timeout=10)
    assert caught.value.code == 503
