"""league.db.union: several short reads in one query, each as it would read alone."""

import pytest

from league import services
from league.db.union import labelled_union
from matches.models import Match
from matches.results import record_result

pytestmark = pytest.mark.django_db


def test_each_read_comes_back_whole_in_its_order_with_its_types(season_with, board_member, django_assert_num_queries):
    season, _teams = season_with(4, 3)
    for division in season.divisions.all():
        services.generate_fixtures(division)
    matches = Match.objects.filter(season=season)
    for n, match in enumerate(matches.order_by("pk")[:5]):
        record_result(match, home_score=n, away_score=1, by=board_member)
    columns = ("id", "round", "confirmed_at", "date", "home_score")
    reads = {
        "latest": matches.confirmed().order_by("-confirmed_at", "-id").values_list(*columns)[:3],
        "scheduled": matches.filter(status=Match.Status.SCHEDULED).order_by("round", "-id").values_list(*columns),
        "nothing": matches.filter(pk__in=[]).values_list(*columns),
        "none sliced": matches.values_list(*columns)[:0],
    }
    alone = {label: list(read) for label, read in reads.items()}
    with django_assert_num_queries(1):
        together = labelled_union(reads)
    assert together == alone
    assert len(together["latest"]) == 3 and together["latest"][0][2].tzinfo is not None  # aware, on SQLite too
    assert together["nothing"] == together["none sliced"] == []


def test_a_read_with_columns_it_does_not_return_is_refused(season_with):
    """DISTINCT ordered by a column it does not read selects that column too: the union would not line up."""
    season, _teams = season_with(4, 3)
    read = Match.objects.filter(season=season).order_by("round").distinct().values_list("id")
    with pytest.raises(ValueError, match="reads more columns"):
        labelled_union({"odd": read})
