"""The JSON API's documentation page (issue 27): every route registered under /api/ is described, with
its method, parameters, who may call it and an example answer shaped as the real one; in Norwegian
by default and English with the language cookie; linked from every page's footer."""

import json
from html import unescape

import pytest
from django.urls import reverse

from league.views.api_docs import ROUTES, api_routes
from tests.factories import human_team
from tests.league_states import routes

pytestmark = pytest.mark.django_db


def registered_under_api() -> set[str]:
    """Every route under api/ but the page itself, from the resolver walked on its own (the routes the
    foundation tests visit), not through the page's helper."""
    return {r.pattern for r in routes() if r.pattern.startswith("api/") and r.pattern != "api/"}


def test_every_route_under_api_is_described():
    """A new route under /api/ without an entry in league.views.api_docs.ROUTES fails here."""
    assert {path.lstrip("/") for path in api_routes().values()} == registered_under_api()
    assert sorted(api_routes()) == sorted(r.name for r in ROUTES)


def test_the_page_lists_each_route_with_its_method_parameters_and_who_may_call_it(client):
    html = unescape(client.get(reverse("api_docs")).content.decode())
    for route in registered_under_api():
        assert f"GET /{route}" in html, route
    assert "Hvem kan kalle den" in html and "Eksempel på svar" in html and "Parametere" in html
    assert "Alle, uten å logge inn." in html
    assert "pk</code>: lagets id" in html


def test_the_page_in_english_with_the_cookie(client):
    client.cookies["django_language"] = "en"
    html = unescape(client.get(reverse("api_docs")).content.decode())
    assert "Who may call it" in html and "Example response" in html and "Anyone, without logging in." in html


def test_the_footer_links_to_the_page(client):
    html = client.get(reverse("home")).content.decode()
    assert f'<a href="{reverse("api_docs")}">For utviklere: JSON-API-et</a>' in html


def shape(value):
    """The keys of an answer, down through its first list items: what a caller's program relies on."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


def test_each_example_has_the_shape_of_the_real_answer(client, coach, board_member, season_with):
    team = human_team(coach)
    season, _teams = season_with(2, 2)
    client.force_login(board_member)  # who sees every field
    args = {"api_standings": [season.pk], "api_team": [team.pk]}
    for route in ROUTES:
        real = client.get(reverse(route.name, args=args.get(route.name, [])))
        assert real.status_code == 200, route.name
        answer = real.json()
        if route.name == "api_team":  # the example's player has a skill and an injury; the new team's none
            answer["players"][0]["skills"], answer["players"][0]["injuries"] = ["Block"], ["-1 MA"]
        if route.name == "api_races":
            answer["races"][0]["positions"][0]["skills"] = ["Dodge"]
        assert shape(json.loads(json.dumps(route.example))) == shape(answer), route.name


@pytest.mark.parametrize("name", ["api_standings", "api_team"])
def test_a_documented_404_is_a_404(client, name):
    assert client.get(reverse(name, args=[99999])).status_code == 404


def test_the_page_reads_nothing_from_the_database_but_the_request(client, django_assert_max_num_queries):
    client.get(reverse("api_docs"))
    with django_assert_max_num_queries(3):
        assert client.get(reverse("api_docs")).status_code == 200
