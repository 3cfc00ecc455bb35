"""Every GET route of the site, with the rows of a league in every state, by a visitor, the board, an
unrelated coach and the coaches a path concerns (the routes come from the URL resolver,
tests/league_states.py, so a new page is checked as soon as it is added):

- no visitor input is a server error (issue 24): any query string answers below 500. Bad `page`,
  `team`, `division`, `season`, `race`, `kind`… give the first page, the whole or an empty list, or 404.
  FUZZ_EXAMPLES sets the random query strings tried per route (2 in `make test`, 6 in `make test-long`;
  e.g. FUZZ_EXAMPLES=300 for a longer run), QUERY_SWEEP how many of the nasty values each key gets (2, 6);
- reads never write (issue 24): a GET sends no INSERT, UPDATE or DELETE. A write on a GET is not only a
  surprise in the data: every league write raises the league version (league.lib.writes), which empties
  every public page's cache.

Both are checked on the same visits of the same league (issue 25: two walks of it were a tenth of the
suite's time)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from unittest import mock
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.http import QueryDict
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import factories, fuzz
from tests.league_states import StatesLeague, build_states_league, routes
from tests.sizes import size

pytestmark = pytest.mark.django_db

# Random query strings a route gets after the sweep: a sample in `make test`, more in `make test-long`
EXAMPLES = size("FUZZ_EXAMPLES", 2, 6)
FUZZ_QUERY = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Every parameter a view reads from request.GET (grep request.GET), and a few it might one day.
KNOWN = ["page", "team", "division", "season", "race", "kind", "stat", "version", "a", "b", "next"]
KNOWN += ["match", "roll", "attendance", "q", "o", "id", "pk", "step", "lang"]
# The values that were server errors (issue 24) and their neighbours: each key a view reads gets each
# of the first (SWEEP); the others come with the generated garbage.
NASTY = ["x", "-1", "²", "9" * 40, "\x00", "", "0", "1²", "٣", "9" * 19, str(2**63), "1\x00", " 1", "1.5", "1e3"]
SWEEP = NASTY[:6]
# How many of them each key gets: all six in `make test-long`; in `make test` two, in turn, so that a route's
# first three keys together still get all six (the found-by-hand values are a test of their own below).
SWEEP_VALUES = size("QUERY_SWEEP", 2, len(SWEEP))

values = st.one_of(st.sampled_from(NASTY), fuzz.numbers, fuzz.texts)
keys_anywhere = st.one_of(st.sampled_from(KNOWN), st.text(max_size=8))
# Pairs, a key repeated with a good and a bad value; percent-encoded as a browser sends them.
encoded = st.lists(st.tuples(keys_anywhere, values), max_size=6).map(urlencode)
# Raw bytes as a WSGI server hands them over (latin-1 text of the bytes): broken percent-escapes,
# bare separators and UTF-8 not encoded.
raw = st.text(alphabet="=&;%+?#ab09²ø\x00 -", max_size=40).map(lambda s: s.encode().decode("latin-1"))
queries = st.one_of(encoded, raw, st.sampled_from(KNOWN).map(lambda k: f"{k}=1&{k}=x&{k}=²&{k}"))


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
    """A client per person, logged in once a test (logging in writes the session: before any capture)."""

    def __init__(self, states: StatesLeague) -> None:
        self.clients: dict[str, Client] = {"anonymous": Client()}  # raises a view's exception: caught below
        self.board = states.board
        self.coach = states.coaches[0]
        self.other_coach = states.coaches[-1]  # a coach no visit concerns: the league's last

    def of(self, user) -> Client:
        name = user.username if user is not None else "anonymous"
        if name not in self.clients:
            self.clients[name] = Client()
            self.clients[name].force_login(user)
        return self.clients[name]

    def client(self, who: str, coaches: list) -> tuple[str, Client]:
        user = {"anonymous": None, "board": self.board, "coach": (coaches or [self.coach])[0]}[who]
        return (user.username if user is not None else "anonymous"), self.of(user)

    def everyone(self, coaches: list) -> list:
        """The visitor, the board, an unrelated coach and the coaches the path concerns."""
        return [None, self.board, self.other_coach, *coaches]


def get(client: Client, path: str, query: str, htmx: bool = False):
    """The response, or an AssertionError naming the path and query if the view raised."""
    headers = {"HX-Request": "true"} if htmx else {}
    try:
        return client.get(path, QUERY_STRING=query, headers=headers)
    except Exception as exc:  # any exception a view lets out is a 500 to the visitor
        raise AssertionError(f"GET {path}?{query!r}: {type(exc).__name__}: {exc}") from exc


@contextmanager
def keys_read() -> Iterator[set[str]]:
    """The query-string keys the views read meanwhile (request.GET's get, [], getlist and `in`)."""
    read: set[str] = set()

    def recording(name: str):
        original = getattr(QueryDict, name)

        def recorded(self, key, *args, **kwargs):
            read.add(key)
            return original(self, key, *args, **kwargs)

        return recorded

    with ExitStack() as stack:
        for name in ("get", "__getitem__", "getlist", "__contains__"):
            stack.enter_context(mock.patch.object(QueryDict, name, recording(name)))
        yield read


def check(name: str, client: Client, path: str, query: str, htmx: bool = False) -> None:
    response = get(client, path, query, htmx)
    assert response.status_code < 500, f"GET {path}?{query!r} as {name}: {response.status_code}"


ROLES = ["anonymous", "coach", "board"]


# The query strings that were server errors when the issue was written, and what they give now.
FOUND = [
    ("player", "page=x", 200),
    ("player", "page=-1", 200),
    ("team_history", "page=x", 200),
    ("team_history", "page=-1", 200),
    ("team_ledger", "page=x", 200),
    ("team_ledger", "page=-1", 200),
    ("matches", "team=²", 200),
    ("matches", "division=²", 200),
    ("leaders", "race=%00", 404),  # a NUL PostgreSQL refuses in a string: no race has it
    ("leaders_csv", "race=%00", 404),
]


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
    def test_no_get_writes_a_row_or_is_a_server_error(self, route):
        """Each path as each person with no query (no row written; and it finds the keys the view
        reads), each key read with each nasty value, then random query strings."""
        visits, visitors = self.states.visits(route), Visitors(self.states)
        statuses, written = [], []
        with keys_read() as read:
            for visit in visits:
                for user in visitors.everyone(visit.coaches):
                    client, name = visitors.of(user), getattr(user, "username", "anonymous")
                    with CaptureQueriesContext(connection) as captured:
                        statuses.append(get(client, visit.path, "").status_code)
                    assert statuses[-1] < 500, f"GET {visit.path} as {name}: {statuses[-1]}"
                    written += [f"GET {visit.path} as {name}: {sql}" for sql in writes(captured.captured_queries)]
        assert not written, "\n".join(written)  # reads never write
        if set(statuses) == {405}:
            return  # a POST-only route reads no query string
        read = sorted(read)
        tried = 0
        for n, key in enumerate(read):
            for value in (SWEEP * 2)[n * SWEEP_VALUES % len(SWEEP) :][:SWEEP_VALUES]:
                visit, who = visits[tried % len(visits)], ROLES[tried % len(ROLES)]
                tried += 1
                check(*visitors.client(who, visit.coaches), visit.path, urlencode({key: value}))
        keys = st.sampled_from(read) | keys_anywhere if read else keys_anywhere
        pairs = st.lists(st.tuples(keys, values), max_size=6).map(urlencode)

        @FUZZ_QUERY
        @given(visit=st.sampled_from(visits), who=st.sampled_from(ROLES), query=pairs | queries, htmx=st.booleans())
        def fuzz_route(visit, who, query, htmx):
            check(*visitors.client(who, visit.coaches), visit.path, query, htmx)

        fuzz_route()

    @pytest.mark.parametrize(("name", "query", "status"), FOUND)
    def test_the_server_errors_found_by_hand_are_pages(self, name, query, status):
        route = next(r for r in routes() if r.name == name)
        visit = self.states.visits(route)[0]
        _who, client = Visitors(self.states).client("board", visit.coaches)
        assert get(client, visit.path, query).status_code == status

    def test_a_write_is_seen(self, client):
        """The writes check itself: a POST that takes a step is caught as a write."""
        match = self.states.matches["untouched"]
        client.force_login(match.home.coach)
        players = [p.pk for p in match.home.players.all()][:11]
        with CaptureQueriesContext(connection) as captured:
            client.post(f"/matches/{match.pk}/prematch/squad/", {"team": match.home.pk, "players": players})
        assert any("matches_prematch" in sql for sql in writes(captured.captured_queries))
