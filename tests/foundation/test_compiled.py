"""league.db.compiled: a read compiled once per connection gives what its queryset gives, for any
arguments, and a read that cannot be compiled so is refused (issue 16)."""

import gc
import threading
import weakref

import pytest
from django.db import connection, connections
from django.db.models import Q

from league import services
from league.db.compiled import compiled
from league.db.union import labelled_union
from league.models import Ruleset
from matches.models import Match
from matches.results import record_result

pytestmark = pytest.mark.django_db

BUILT: list[tuple] = []
COLUMNS = ("id", "round", "confirmed_at", "date", "home_score", "home__name")


@compiled
def season_matches(season_id: int, round_: int, *, latest: int = 3):
    BUILT.append((season_id, round_, latest))
    matches = Match.objects.filter(season_id=season_id)
    return {
        "latest": matches.confirmed().order_by("-confirmed_at", "-id").values_list(*COLUMNS)[:latest],
        "round": matches.filter(Q(round=round_) | Q(home_score=round_)).order_by("id").values_list(*COLUMNS),
    }


@compiled
def one_round(season_id: int, round_: int):
    BUILT.append((season_id, round_))
    return Match.objects.filter(season_id=season_id, round=round_).order_by("-id").values_list(*COLUMNS)


def as_alone(season_id, round_, latest=3):
    matches = Match.objects.filter(season_id=season_id)
    return labelled_union(
        {
            "latest": matches.confirmed().order_by("-confirmed_at", "-id").values_list(*COLUMNS)[:latest],
            "round": matches.filter(Q(round=round_) | Q(home_score=round_)).order_by("id").values_list(*COLUMNS),
        }
    )


@pytest.fixture
def seasons(season_with, make_teams, board_member):
    first, _teams = season_with(4, 3)
    # Other teams: a team plays in one running season at a time (R43).
    plan = [services.DivisionPlan(1, "1st division", 6, make_teams(4, prefix="Other"))]
    second = services.create_season(name="S2", ruleset=Ruleset.default(), divisions=plan, previous=first)
    for season in (first, second):
        for division in season.divisions.all():
            services.generate_fixtures(division)
        for n, match in enumerate(Match.objects.filter(season=season).order_by("pk")[:5]):
            record_result(match, home_score=n, away_score=1, by=board_member)
    return [first, second]


def test_a_compiled_read_gives_what_its_queryset_gives_and_is_built_once(seasons, django_assert_num_queries):
    BUILT.clear()
    for season in seasons:
        for round_ in (1, 2, 5):
            expected = list(Match.objects.filter(season=season, round=round_).order_by("-id").values_list(*COLUMNS))
            with django_assert_num_queries(1):
                assert one_round(season.pk, round_) == expected
    assert len(BUILT) <= 4  # built at its first call on this connection (four times, to check it), then never
    latest = one_round(seasons[0].pk, 1)
    assert latest[0][2] is None or latest[0][2].tzinfo is not None  # converters applied (SQLite's datetimes)


def test_a_compiled_union_gives_what_labelled_union_gives_each_shape_compiled_once(seasons):
    BUILT.clear()
    for season in seasons:
        for round_, latest in ((1, 3), (2, 3), (3, 5), (1, 5)):
            found = season_matches(season.pk, round_, latest=latest)
            assert found == as_alone(season.pk, round_, latest)
            assert len(found["latest"]) == latest and found["latest"][0][2].tzinfo is not None
    assert sorted({built[2] for built in BUILT}) == [3, 5] and len(BUILT) <= 8  # two shapes, each checked once


def test_the_same_value_in_two_arguments_stays_two_arguments(seasons):
    """Compiled with a season id equal to the round, the read still sends each argument where it goes."""

    @compiled
    def by_round(round_: int, season_id: int):
        return Match.objects.filter(season_id=season_id, round=round_).order_by("id").values_list("id")

    first = seasons[0]
    assert by_round(first.pk, first.pk) == list(
        Match.objects.filter(season=first, round=first.pk).order_by("id").values_list("id")
    )
    assert by_round(2, seasons[1].pk) == list(
        Match.objects.filter(season=seasons[1], round=2).order_by("id").values_list("id")
    )


def test_a_read_whose_sql_depends_on_its_arguments_is_refused(seasons):
    @compiled
    def sliced(season_id: int, count: int):
        return Match.objects.filter(season_id=season_id).values_list("id")[:count]

    @compiled
    def transformed(name: str):
        return Match.objects.filter(home__name__startswith=name).values_list("id")  # a parameter "Team%"

    @compiled
    def computed(round_: int):
        return Match.objects.filter(round=round_ + 1).values_list("id")

    @compiled
    def maybe_none(season_id):
        return Match.objects.filter(season_id=season_id).values_list("id")

    with pytest.raises(ValueError, match="depends on its arguments"):
        sliced(seasons[0].pk, 3)
    with pytest.raises(ValueError, match="neither a constant nor an argument"):
        transformed("Team")
    with pytest.raises(ValueError, match="neither a constant nor an argument"):
        computed(1)
    with pytest.raises(TypeError, match="ints and strings"):
        maybe_none(None)


def test_an_argument_django_leaves_out_for_its_value_is_read_as_django_reads_it(seasons):
    """A number out of its column's range is "never" (or "always") to Django, and not in the SQL: that
    call is sent as Django sends it, and nothing is kept that would drop the filter for the next one."""

    @compiled
    def in_round(round_: int, season_id: int):
        return Match.objects.filter(round=round_, season_id=season_id).order_by("id").values_list("id")

    @compiled
    def before_round(round_: int, season_id: int):
        return Match.objects.filter(round__lt=round_, season_id=season_id).order_by("id").values_list("id")

    season = seasons[0]
    assert in_round(2**40, season.pk) == []  # past a small integer column's range: never
    assert in_round(2, season.pk) == list(Match.objects.filter(round=2, season=season).values_list("id"))
    everything = list(Match.objects.filter(season=season).order_by("id").values_list("id"))
    assert before_round(2**40, season.pk) == everything  # always
    assert before_round(2, season.pk) == list(Match.objects.filter(round=1, season=season).values_list("id"))
    assert in_round(32767, season.pk) == []  # the column's last value: probed from below


def test_what_a_compiled_read_takes_and_gives_is_checked():
    @compiled
    def flat(season_id: int):
        return Match.objects.filter(season_id=season_id).values_list("id", flat=True)

    @compiled
    def shaped(season_id: int, *, count: int):
        return Match.objects.filter(season_id=season_id).values_list("id")[:count]

    with pytest.raises(TypeError, match="values_list of tuples"):
        flat(1)
    with pytest.raises(TypeError, match="by position"):
        shaped(season_id=1, count=3)  # each season a shape of its own: a cache without end
    assert shaped(1, count=3) == []


@pytest.mark.django_db(transaction=True)
def test_each_connection_compiles_its_own(season_with):
    """gunicorn's threads each have a connection: a read compiled on one is compiled again on another."""
    from league.reference_data import ensure_reference_data

    ensure_reference_data()  # an earlier transactional test may have flushed the catalogue
    season, _teams = season_with(4, 3)
    for division in season.divisions.all():
        services.generate_fixtures(division)
    expected = list(Match.objects.filter(season=season, round=1).order_by("-id").values_list(*COLUMNS))
    assert one_round(season.pk, 1) == expected
    BUILT.clear()
    assert one_round(season.pk, 1) == expected  # compiled on this connection already
    found = []

    used = []

    def other_thread():
        try:
            found.append(one_round(season.pk, 1))
            used.append(weakref.ref(connections["default"]))
        finally:
            connection.close()

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert found == [expected] and len(BUILT) == 4  # built and checked on the other thread's connection
    gc.collect()
    assert used[0]() is None  # its compiled reads went with it: nothing keeps a closed thread's connection
