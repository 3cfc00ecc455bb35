"""R43 under two boards at once: two seasons that share a team, started at the same moment (one by its
fixtures, the other by its cup's draw, or both by their fixtures). One starts; the other is told which
team plays in the running season; never both, never a server error (issue 24, PostgreSQL)."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Ruleset, Season, SeasonEntry
from league.seasons.services.base import SeasonError
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season
from tests.concurrency import require_postgres, run_together

pytestmark = pytest.mark.django_db(transaction=True)

R43 = "a team plays in one running season at a time (R43)"


def boards(make_user, n=2):
    result = []
    for i in range(n):
        c = Client()
        c.cookies["django_language"] = "en"
        c.force_login(make_user(f"styre{i}", board=True, coach=False))
        result.append(c)
    return result


def sharing_seasons(make_teams) -> tuple[Season, Season]:
    """S1 with A, B, C and S2 with C, D, E: both prepared, C in both."""
    teams = make_teams(5)
    plan = [
        create_season(
            name=name, ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1st", 6, members)]
        )
        for name, members in (("S1", teams[:3]), ("S2", teams[2:]))
    ]
    return plan[0], plan[1]


def one_running_season_a_team() -> None:
    running = Season.objects.running()
    assert running.count() == 1
    teams = list(SeasonEntry.objects.filter(season__in=running).values_list("team_id", flat=True))
    assert len(teams) == len(set(teams))


@pytest.mark.parametrize("second_by", ["season_fixtures", "cup_draw"])
def test_two_seasons_sharing_a_team_started_at_once_r43(make_user, make_teams, second_by):
    require_postgres()
    first, second = sharing_seasons(make_teams)
    requests = [(reverse("season_fixtures", args=[first.pk, first.divisions.get().pk]), {"days_between": "14"})]
    if second_by == "season_fixtures":
        requests.append(
            (reverse("season_fixtures", args=[second.pk, second.divisions.get().pk]), {"days_between": "14"})
        )
    else:
        teams = list(second.entries.values_list("team_id", flat=True))
        requests.append((reverse("cup_draw", args=[second.pk]), {"name": "Cup", "prize": "0", "teams": teams}))
    cs = boards(make_user)
    responses = run_together(
        [lambda c=c, u=u, d=d: c.post(u, d, follow=True) for c, (u, d) in zip(cs, requests, strict=True)]
    )
    assert all(not isinstance(r, Exception) for r in responses), responses
    assert all(r.status_code in (200, 422) for r in responses)
    one_running_season_a_team()
    refused = [r for r in responses if R43 in r.content.decode()]
    assert len(refused) == 1 and "Team C already plays in" in refused[0].content.decode()


def test_many_starts_of_seasons_sharing_a_team_let_one_through_r43(make_teams):
    """The services alone, four seasons sharing one team, started by their fixtures at once."""
    require_postgres()
    teams = make_teams(9)
    seasons = [
        create_season(
            name=f"S{i}",
            ruleset=Ruleset.default(),
            divisions=[DivisionPlan(1, "1st", 6, [teams[0], teams[2 * i + 1], teams[2 * i + 2]])],
        )
        for i in range(4)
    ]
    results = run_together([lambda s=s: generate_fixtures(s.divisions.get()) for s in seasons])
    assert sum(isinstance(r, list) for r in results) == 1
    assert all(isinstance(r, (list, SeasonError)) for r in results), results
    one_running_season_a_team()
