"""Two boards creating the same season, team or cup at the same moment: one is created, the other is
told it already exists; never a server error (issue 10, PostgreSQL)."""

import pytest
from django.test import Client
from django.urls import reverse

from league.lib.once import new_token
from league.models import Cup, Ruleset, Season
from teams.models import Team
from tests.concurrency import require_postgres, run_together

pytestmark = pytest.mark.django_db(transaction=True)


def boards(make_user, n=2):
    result = []
    for i in range(n):
        c = Client()
        c.cookies["django_language"] = "en"
        c.force_login(make_user(f"styre{i}", board=True, coach=False))
        result.append(c)
    return result


def together(clients, url, data):
    responses = run_together([lambda c=c, d=d: c.post(url, d, follow=True) for c, d in zip(clients, data, strict=True)])
    assert all(not isinstance(r, Exception) for r in responses), responses
    assert all(r.status_code in (200, 422) for r in responses)
    return [r.content.decode() for r in responses]


def test_two_boards_create_the_same_season_at_once(make_user):
    require_postgres()
    cs = boards(make_user)
    data = {"name": "Sesong 2030", "ruleset": Ruleset.default().pk}
    pages = together(cs, reverse("season_create"), [data, data])
    assert Season.objects.filter(name="Sesong 2030").count() == 1
    assert sum("A season called Sesong 2030 already exists." in p for p in pages) == 1


def test_two_boards_register_the_same_team_at_once(make_user, coach):
    require_postgres()
    from tests.teams.test_register_team import form

    cs = boards(make_user)
    data = [form(coach), form(coach)]  # two rendered forms: two tokens, the same name
    assert data[0]["token"] != data[1]["token"]
    pages = together(cs, reverse("team_register"), data)
    assert Team.objects.filter(name="Grønland Grunts").count() == 1
    assert sum("A team called Grønland Grunts already exists." in p for p in pages) == 1


def test_two_boards_draw_the_cup_at_once_r34(make_user, season_with):
    require_postgres()
    season, teams = season_with(2, 2)
    cs = boards(make_user)
    data = {"name": "Cup", "prize": "0", "teams": [t.pk for t in teams], "order": "", "token": new_token()}
    pages = together(cs, reverse("cup_draw", args=[season.pk]), [data, data])
    assert Cup.objects.filter(season=season).count() == 1
    assert sum("The cup of this season is already drawn." in p for p in pages) == 1
