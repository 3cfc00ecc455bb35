"""Quiet, useful logs (issue 14): a 403 or 404 is one line, an error carries its traceback and the
request id the response hands back."""

import io
import logging
from unittest import mock

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def console():
    """What the configured console handler writes (settings.LOGGING)."""
    handler = next(h for h in logging.getLogger().handlers if getattr(h, "name", None) == "console")
    stream = io.StringIO()
    old = handler.setStream(stream)
    yield stream
    handler.setStream(old)


def test_a_refused_page_logs_one_line_without_a_traceback(client, coach, console):
    client.force_login(coach)
    response = client.get(reverse("season_create"))
    assert response.status_code == 403
    lines = console.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "WARNING django.request" in lines[0]
    assert f"[{response['X-Request-ID']}] Forbidden (Permission denied): /seasons/new/" in lines[0]
    assert "Traceback" not in console.getvalue()


def test_a_missing_page_logs_one_line(client, console):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert console.getvalue().count("\n") == 1
    assert f"[{response['X-Request-ID']}] Not Found: /no-such-page/" in console.getvalue()


def test_an_error_logs_its_traceback_under_the_request_id_the_response_carries(client, console):
    client.raise_request_exception = False
    with mock.patch("league.views.pages.current_season", side_effect=RuntimeError("the database fell over")):
        response = client.get("/")
    assert response.status_code == 500
    output = console.getvalue()
    assert f"ERROR django.request [{response['X-Request-ID']}] Internal Server Error: /" in output
    assert "Traceback" in output and "RuntimeError: the database fell over" in output


def test_a_proxys_request_id_is_kept_and_a_forged_one_replaced(client):
    assert client.get("/", HTTP_X_REQUEST_ID="abc-123").headers["X-Request-ID"] == "abc-123"
    forged = client.get("/", HTTP_X_REQUEST_ID="x\nERROR fake line").headers["X-Request-ID"]
    assert len(forged) == 32 and "\n" not in forged
