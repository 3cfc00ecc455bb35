"""Reads never write (issue 24): a GET of any page, by anyone, in any state of a match, sends no
INSERT, UPDATE or DELETE. A write on a GET is not only a surprise in the data: every league write
raises the league version (league.lib.writes), which empties every public page's cache."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests import factories
from tests.league_states import build_states_league, routes

pytestmark = pytest.mark.django_db

WRITE = re.compile(r'^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+"?(\w+)"?', re.IGNORECASE)
# Not the league's data: the session row is the login's own (a message too long for its cookie goes
# there), and django-axes writes only when someone logs in. Neither raises the league version. Nor does
# a notification marked read when its coach opens it (issue 27: a GET, as its e-mail's link must be);
# no other notices' row is written on a GET, and no public page shows them.
NOT_LEAGUE = {"django_session", "league_notification"} | {
    f"axes_{t}" for t in ("accessattempt", "accesslog", "accessfailurelog")
}


def writes(queries: list[dict]) -> list[str]:
    """The statements that changed a row of the league's tables."""
    found = []
    for query in queries:
        m = WRITE.match(query["sql"])
        if m and m.group(1).lower() not in NOT_LEAGUE:
            found.append(query["sql"][:160])
    return found


class Visitors:
    """A logged-in client per person, made once a test (logging in writes the session: before the capture)."""

    def __init__(self) -> None:
        # a server error is the query-string fuzz's to find (test_query_fuzz): here only writes count
        self.clients = {"anonymous": Client(raise_request_exception=False)}

    def __call__(self, users: list) -> list[tuple[str, Client]]:
        for user in users:
            if user.username not in self.clients:
                self.clients[user.username] = Client(raise_request_exception=False)
                self.clients[user.username].force_login(user)
        return [("anonymous", self.clients["anonymous"])] + [(u.username, self.clients[u.username]) for u in users]


class TestInTheStatesLeague:
    """The league of every state, built once for the class (tests/conftest.py, set_up_test_data)."""

    @classmethod
    def setUpTestData(cls):
        cls.states = build_states_league(factories.teams, factories.user("styret", board=True, coach=False))

    def test_the_states_league_visits_every_route(self):
        # a route the builder cannot fill would be skipped silently: each one has paths
        for route in routes():
            assert self.states.visits(route), route

    @pytest.mark.parametrize("route", routes(), ids=lambda r: r.name)
    def test_a_get_writes_no_row(self, route):
        """Each path of the route, as a visitor, the board, an unrelated coach and the coaches it concerns."""
        failures, visitors = [], Visitors()
        for visit in self.states.visits(route):
            for who, client in visitors([self.states.board, self.states.coaches[-1], *visit.coaches]):
                with CaptureQueriesContext(connection) as captured:
                    client.get(visit.path)
                failures += [f"GET {visit.path} as {who}: {sql}" for sql in writes(captured.captured_queries)]
        assert not failures, "\n".join(failures)

    def test_a_write_is_seen(self, client):
        """The check itself: a POST that takes a step is caught as a write."""
        match = self.states.matches["untouched"]
        client.force_login(match.home.coach)
        players = [p.pk for p in match.home.players.all()][:11]
        with CaptureQueriesContext(connection) as captured:
            client.post(f"/matches/{match.pk}/prematch/squad/", {"team": match.home.pk, "players": players})
        assert any("matches_prematch" in sql for sql in writes(captured.captured_queries))
