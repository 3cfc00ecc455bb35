"""The season's final tables in the league's chat when the board ends the season: one post, a section per
division in the table's order, and nothing more when the end is committed again."""

import json

import pytest

from league.models import Webhook
from league.seasons.services.season_end import commit_season_end
from tests.seasons.test_season_services import run_season
from tests.webhook_server import receiver

pytestmark = pytest.mark.django_db


def test_the_final_tables_are_posted_once_when_the_season_ends(
    season_with, board_member, django_capture_on_commit_callbacks
):
    season, teams = season_with(2, 2)
    rank = {t.pk: i for i, t in enumerate(teams)}
    with receiver() as chat:
        Webhook.objects.create(name="Tables", url=chat.url, format=Webhook.Format.JSON, results=False)
        Webhook.objects.create(name="Discord", url=chat.url, results=False, season_tables=False)
        run_season(season, board_member, lambda m: (2, 0) if rank[m.home_id] < rank[m.away_id] else (0, 1))
        with django_capture_on_commit_callbacks(execute=True):
            commit_season_end(season, by=board_member, next_name="Season 2")
        with django_capture_on_commit_callbacks(execute=True):
            commit_season_end(season, by=board_member, next_name="Season 2")
    [body] = [json.loads(r.body) for r in chat.requests]  # results off: only the tables, once
    assert body["text"] == "Sesongen Season 1 er over: sluttabellene."
    assert [s["title"] for s in body["sections"]] == ["1st division", "2nd division"]
    assert body["sections"][0]["text"].splitlines()[0].startswith("1. Team A: ")
    first = body["data"]["divisions"][0]["table"]
    assert [(row["position"], row["team"]) for row in first] == [(1, "Team A"), (2, "Team B")]
