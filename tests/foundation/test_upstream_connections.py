"""Through nginx, no coach loses a POST to another client's unread body.

An anonymous client posting 100 kB text/plain bodies to /accounts/login/ is refused before Django reads
them (the CSRF check); gunicorn drains at most 64 kB of an unread body and then closes the connection it
had just answered as kept-alive. When nginx reused that upstream connection for the next request, a
coach's POST failed with nginx's 502 (measured: 38 of 100 here, each coach's POST right after one of the
other client's). Each request now has an upstream connection of its own."""

import http.client
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from league.management.servers import NGINX, free_port, gunicorn_server, nginx_proxy
from tests.foundation.conftest import production_database, production_env
from tests.foundation.servers import ROOT

pytestmark = pytest.mark.skipif(not Path(NGINX).exists(), reason="nginx is installed by scripts/ensure-test-tools")

PASSWORD = "a-coach-password-9173"
CREATE_COACH = (
    "from django.contrib.auth import get_user_model; "
    f"get_user_model().objects.create_user('coach', password='{PASSWORD}')"
)
ROUNDS = 100


@pytest.fixture(scope="module")
def site(tmp_path_factory, collected_static):
    """nginx as deploy/nginx.conf has it, in front of gunicorn on a database with one coach."""
    env = production_env(production_database(tmp_path_factory), collected_static)
    subprocess.run([sys.executable, "manage.py", "shell", "-c", CREATE_COACH], cwd=ROOT, env=env, check=True)
    with gunicorn_server(env) as upstream, nginx_proxy(upstream, tmp_path_factory.mktemp("nginx")) as base:
        yield base


class Browser:
    """One kept-alive connection to nginx and its cookies, as a phone's browser has."""

    def __init__(self, base: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=10)
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None):
        headers = {**(headers or {}), "Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.conn.request(method, path, body=body or None, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode(errors="replace")
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        return response.status, text

    def post_form(self, path: str, fields: dict[str, str]):
        fields = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **fields}
        return self.send(
            "POST", path, urlencode(fields).encode(), {"Content-Type": "application/x-www-form-urlencoded"}
        )


def logged_in_coach(base: str) -> Browser:
    coach = Browser(base)
    status, _ = coach.send("GET", "/accounts/login/")
    assert status == 200 and "csrftoken" in coach.cookies
    status, _ = coach.post_form("/accounts/login/", {"username": "coach", "password": PASSWORD})
    assert status == 302 and "sessionid" in coach.cookies
    return coach


def test_no_coach_post_is_lost_to_another_clients_unread_body(site):
    coach = logged_in_coach(site)
    statuses = []
    for _ in range(ROUNDS):
        # a connection of its own each time, so it lands on each of nginx's workers in turn
        Browser(site).send("POST", "/accounts/login/", b"x" * 100_000, {"Content-Type": "text/plain"})  # 403, unread
        statuses.append(coach.post_form("/i18n/setlang/", {"language": "nb", "next": "/"})[0])
    assert statuses.count(502) == 0, f"{statuses.count(502)} of {ROUNDS} of the coach's POSTs got 502"
    assert set(statuses) == {302}


def test_nginx_says_in_norwegian_when_the_app_does_not_answer(tmp_path):
    nowhere = f"http://127.0.0.1:{free_port()}"
    with nginx_proxy(nowhere, tmp_path) as base:
        visitor = Browser(base)
        status, page = visitor.send("GET", "/")
        assert status == 502
        assert 'lang="nb"' in page and "Prøv igjen" in page
        status, page = Browser(base).post_form("/accounts/login/", {"username": "coach"})
        assert status == 502 and "sjekk siden" in page  # a form's sender may not know whether it was saved


def test_a_body_too_large_is_refused_in_norwegian(site):
    status, page = Browser(site).send(
        "POST", "/accounts/login/", b"x" * 4_000_000, {"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert status == 413
    assert 'lang="nb"' in page and re.search(r"for stor", page)
