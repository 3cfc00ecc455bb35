"""The JSON API's documentation page: every route under /api/ with its method, parameters,
an example answer and who may call it. The routes are read from the URL resolver, so the page names
each as it is registered; a route under /api/ that is not described here fails its test
(tests/league/test_api_docs.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

API_PREFIX = "api/"
DOCS_NAME = "api_docs"  # the page itself, at the prefix


@dataclass(frozen=True)
class Route:
    name: str  # the URL's name
    summary: Promise
    who: Promise
    example: dict[str, Any]
    parameters: tuple[tuple[str, Promise], ...] = ()
    method: str = "GET"
    errors: tuple[tuple[int, Promise], ...] = field(default=())


PUBLIC = _("Anyone, without logging in.")
PRIVATE = _(
    "Anyone. The coach's username and the treasury only for logged-in members (the session cookie of "
    "the site), unless the board publishes them; anonymous callers get the rest."
)

ROUTES = (
    Route(
        "api_seasons",
        _("Every season, the newest first: its status, ruleset and divisions."),
        PUBLIC,
        {
            "seasons": [
                {
                    "id": 3,
                    "name": "2026",
                    "status": "running",
                    "ruleset": "Torshov 2006",
                    "divisions": [{"level": 1, "name": "1. divisjon", "die": 6}],
                }
            ]
        },
    ),
    Route(
        "api_standings",
        _("A season's division tables, ranked by the rules (R31), as the standings page shows them."),
        PUBLIC,
        {
            "season": "2026",
            "divisions": [
                {
                    "level": 1,
                    "name": "1. divisjon",
                    "standings": [
                        {
                            "team": "Torshov Trolls",
                            "team_id": 12,
                            "position": 1,
                            "tied": False,
                            "played": 6,
                            "won": 4,
                            "drawn": 1,
                            "lost": 1,
                            "touchdowns_for": 11,
                            "touchdowns_against": 6,
                            "touchdown_difference": 5,
                            "casualties_for": 9,
                            "casualties_against": 7,
                            "points": 13,
                        }
                    ],
                }
            ],
        },
        parameters=(("pk", _("the season's id (as in /api/seasons/)")),),
        errors=((404, _("no season with that id")),),
    ),
    Route(
        "api_races",
        _("The race catalogue: each race's positions with their prices and skills, and the big guys."),
        PUBLIC,
        {
            "races": [
                {
                    "name": "Amazon",
                    "reroll_price": 40000,
                    "apothecary": True,
                    "head_coach": "ordinary",
                    "healer": "bandage_crew",
                    "positions": [
                        {
                            "name": "Linewomen",
                            "max": 12,
                            "price": 50000,
                            "ma": 6,
                            "st": 3,
                            "ag": 3,
                            "av": 7,
                            "skills": ["Dodge"],
                            "normal": "G",
                            "double": "ASPM",
                        }
                    ],
                }
            ],
            "big_guys": [
                {
                    "name": "Beast of Nurgle",
                    "price": 120000,
                    "ma": 4,
                    "st": 5,
                    "ag": 1,
                    "av": 10,
                    "skills": ["Big Guy", "Mighty Blow", "Regeneration"],
                    "normal": "GSM",
                    "double": "AP",
                    "allied": ["Nurgle"],
                }
            ],
        },
    ),
    Route(
        "api_teams",
        _("The active teams by name, with the address of each team's roster."),
        PRIVATE,
        {
            "teams": [
                {
                    "id": 12,
                    "name": "Torshov Trolls",
                    "race": "Human",
                    "coach": "kari",
                    "treasury": 45000,
                    "fan_factor": 4,
                    "url": "https://liga.torshov.no/api/teams/12/",
                }
            ]
        },
    ),
    Route(
        "api_team",
        _("A team's roster, the “Ditt Lag” sheet: team rating, staff, stadium and every player."),
        PRIVATE,
        {
            "id": 12,
            "name": "Torshov Trolls",
            "race": "Human",
            "coach": "kari",
            "head_coach": "Ordinary head coach",
            "team_rating": 118,
            "treasury": 45000,
            "total_team_cost": 1180000,
            "rerolls": 3,
            "reroll_price": 50000,
            "fan_factor": 4,
            "assistant_coaches": 1,
            "cheerleaders": 2,
            "apothecary": True,
            "mvps_received": 5,
            "stadium": {"capacity": 60000, "roof": False, "facilities": []},
            "players": [
                {
                    "id": 101,
                    "number": 1,
                    "name": "Ola Blitzer",
                    "position": "Blitzer",
                    "ma": 7,
                    "st": 3,
                    "ag": 3,
                    "av": 8,
                    "skills": ["Block", "Tackle"],
                    "injuries": ["-1 MA"],
                    "niggling": 0,
                    "miss_matches": 0,
                    "completions": 1,
                    "touchdowns": 4,
                    "interceptions": 0,
                    "casualties": 3,
                    "foul_casualties": 1,
                    "mvps": 1,
                    "spp": 27,
                    "skill_points": 2,
                    "value": 110000,
                    "available": True,
                }
            ],
        },
        parameters=(("pk", _("the team's id (as in /api/teams/)")),),
        errors=((404, _("no team with that id")),),
    ),
)


def api_routes() -> dict[str, str]:
    """Every route registered under /api/ but this page, by its URL's name: its pattern as registered
    ("/api/teams/<int:pk>/")."""
    found: dict[str, str] = {}

    def walk(patterns: list, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern) and route.startswith(API_PREFIX) and p.name != DOCS_NAME:
                found[p.name or route] = f"/{route}"

    walk(get_resolver().url_patterns, "")
    return found


@require_GET
def api_docs(request: HttpRequest) -> HttpResponse:
    registered = api_routes()
    routes = [
        {"route": r, "path": registered[r.name], "example": json.dumps(r.example, indent=2, ensure_ascii=False)}
        for r in ROUTES
        if r.name in registered
    ]
    return render(request, "league/api_docs.html", {"routes": routes})
