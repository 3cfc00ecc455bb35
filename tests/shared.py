"""Heavy fixtures built once for a run of tests that use them, the way Django's `setUpTestData` works
(issue 15).

A fixture decorated with `@shared_fixture` instead of `@pytest.fixture` keeps its name and its value
for the tests, but is no longer built again for every test. The tests of a module that use the same
shared fixtures form a group (`group_key`); the conftest runs the group one after another. Before the
first test of a group takes its own transaction, the fixtures are built inside an outer transaction;
each test then runs in a savepoint inside it (pytest-django's usual per-test rollback) and gets a deep
copy of the built objects, so what a test writes, in the database or on the objects, never reaches the
next. When the group ends, the outer transaction is rolled back: the database is as before the group.

A permission matrix that replays a match for each role builds it once per matrix this way. Every test
still starts from exactly the state the fixture built, and from nothing else the group built: a group
is the tests that use the same shared fixtures, and only they run in its transaction.

Tests that cannot run inside an outer transaction (transactional tests: the browser, the concurrency
tests) build the fixture for themselves, as before.

A shared fixture may depend only on other shared fixtures and on the factories in `FACTORIES`
(fixtures that return a function and write nothing themselves), because it is built outside any test.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import pytest

# Fixtures a shared fixture may use while it is built: they write nothing until called.
FACTORIES = frozenset({"make_user", "make_teams", "season_with"})
# Autouse fixtures whose effect the build must see too: the same language as the tests of the group.
CONTEXTS: dict[str, Callable[[], Any]] = {}


def _english():
    from django.utils import translation

    return translation.override("en")


CONTEXTS["english"] = _english

TRANSACTIONAL_FIXTURES = frozenset(
    {"transactional_db", "live_server", "django_db_reset_sequences", "django_db_serialized_rollback"}
)

_names = pytest.StashKey[frozenset]()
_copy = pytest.StashKey[dict]()


def shared_fixture(builder: Callable[..., Any]):
    """`@pytest.fixture` for a fixture built once for the group of tests that use it (see the module)."""
    name = builder.__name__
    parameters = list(inspect.signature(builder).parameters.values())

    @functools.wraps(builder)
    def fixture(request, **kwargs):
        built = _current_copy(request.node)
        if built is not None and name in built:
            return built[name]
        return builder(**kwargs)  # a test outside any group (a transactional one): built for it alone

    request_parameter = inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    fixture.__signature__ = inspect.Signature([request_parameter, *parameters])
    fixture.shared_builder = builder
    return pytest.fixture(fixture)


@dataclass
class Group:
    key: tuple
    stack: ExitStack
    blocker: Any
    state: dict[str, Any] = field(default_factory=dict)


_group: Group | None = None


def is_transactional(item) -> bool:
    marker = item.get_closest_marker("django_db")
    if marker is not None and (
        marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences") or (marker.args and marker.args[0])
    ):
        return True
    return bool(TRANSACTIONAL_FIXTURES.intersection(item.fixturenames))


def shared_names(item) -> frozenset:
    """The shared fixtures a test uses (directly or through other fixtures)."""
    if _names not in item.stash:
        found = set()
        manager = item.session._fixturemanager
        for name in getattr(item, "fixturenames", ()):
            defs = manager.getfixturedefs(name, item)
            if defs and hasattr(defs[-1].func, "shared_builder"):
                found.add(name)
        item.stash[_names] = frozenset(found)
    return item.stash[_names]


def group_key(item) -> tuple | None:
    """Tests with the same key share one build; None: the test builds its fixtures itself."""
    if item is None or not hasattr(item, "fixturenames"):
        return None
    names = shared_names(item)
    if not names or is_transactional(item):
        return None
    if item.get_closest_marker("django_db") is None and "db" not in item.fixturenames:
        return None  # no database for this test: let the fixture fail as it always did
    return (item.path, item.cls, names)


def order(items: list) -> None:
    """Run the tests of a group one after another: within each run of a module's tests, each group keeps
    the place of its first test, and the tests keep their order within their group. Runs are not merged:
    pytest-django has put the transactional tests (which empty the database) after all the others."""
    start = 0
    while start < len(items):
        end = start
        while end < len(items) and (items[end].path, items[end].cls) == (items[start].path, items[start].cls):
            end += 1
        first: dict[Any, int] = {}
        run = items[start:end]
        place = {id(item): (first.setdefault(group_key(item), i), i) for i, item in enumerate(run)}
        items[start:end] = sorted(run, key=lambda item: place[id(item)])
        start = end


def _current_copy(item) -> dict | None:
    if _group is None or _group.key != group_key(item):
        return None
    if _copy not in item.stash:  # one copy for all of the test's shared fixtures: the same objects stay the same
        item.stash[_copy] = copy.deepcopy({name: _group.state[name] for name in _group.key[2]})
    return item.stash[_copy]


def before_test(request) -> None:
    """Called as a test's database fixture is set up, before the test's own transaction: end the group
    before if this test is not in it, build the group's fixtures if this test starts a group."""
    global _group
    item = request.node
    key = group_key(item)
    if _group is not None and _group.key != key:
        end_group()
    if key is None:
        return
    # Runs after the test's own transaction is rolled back (finalizers run last in, first out).
    item.addfinalizer(functools.partial(after_test, item))
    if _group is not None:
        return
    from django.db import transaction

    blocker = request.getfixturevalue("django_db_blocker")
    stack = ExitStack()
    with blocker.unblock():
        stack.enter_context(transaction.atomic())
    _group = Group(key, stack, blocker)
    try:
        with blocker.unblock(), ExitStack() as contexts:
            for name, context in CONTEXTS.items():
                if name in item.fixturenames:
                    contexts.enter_context(context())
            for name in sorted(key[2]):
                _build(name, item, _group.state)
    except BaseException:
        end_group()
        raise


next_item: Any = None  # the test pytest runs next, set by the conftest as a test's teardown begins


def after_test(item) -> None:
    if _group is not None and group_key(next_item) != _group.key:
        end_group()


def _build(name: str, item, state: dict) -> Any:
    if name in state:
        return state[name]
    defs = item.session._fixturemanager.getfixturedefs(name, item)
    func = defs[-1].func if defs else None
    builder = getattr(func, "shared_builder", None)
    if builder is not None:
        kwargs = {p: _build(p, item, state) for p in inspect.signature(builder).parameters}
        state[name] = builder(**kwargs)
    elif name == "django_user_model":
        from django.contrib.auth import get_user_model

        state[name] = get_user_model()
    elif name in FACTORIES and func is not None:
        kwargs = {p: _build(p, item, state) for p in inspect.signature(func).parameters}
        state[name] = func(**kwargs)
    else:
        raise pytest.UsageError(
            f"a shared fixture cannot use the fixture {name!r}: make it a shared fixture too, or a factory "
            "in tests/shared.py FACTORIES if it writes nothing until called"
        )
    return state[name]


def end_group() -> None:
    """Roll the group's transaction back: the database is as it was before the group."""
    global _group
    group, _group = _group, None
    if group is None:
        return
    from django.db import transaction

    with group.blocker.unblock():
        transaction.set_rollback(True)
        group.stack.close()
