"""The JSON API: races, teams and a team."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from league.accounts import sees_private
from teams.models import Position
from teams.selectors import roster_sheet
from teams.selectors import team_list as teams_selector
from teams.views.pages import _big_guys, _races_with_positions

# --- JSON API ------------------------------------------------------------------------------------


def _position_json(p: Position) -> dict:
    return {
        "name": p.name,
        "max": p.max_count,
        "price": p.price,
        "ma": p.ma,
        "st": p.st,
        "ag": p.ag,
        "av": p.av,
        "skills": [s.name for s in p.skills.all()],
        "normal": p.normal_access,
        "double": p.double_access,
    }


@require_GET
def api_races(request: HttpRequest) -> JsonResponse:
    races = [
        {
            "name": r.name,
            "reroll_price": r.reroll_price,
            "apothecary": r.apothecary_allowed,
            "head_coach": r.head_coach,
            "healer": r.healer,
            "positions": [_position_json(p) for p in r.positions.all()],
        }
        for r in _races_with_positions()
    ]
    big_guys = [{**_position_json(p), "allied": [r.name for r in p.allied_races.all()]} for p in _big_guys()]
    for b in big_guys:
        b.pop("max")
    return JsonResponse({"races": races, "big_guys": big_guys})


@require_GET
def api_teams(request: HttpRequest) -> JsonResponse:
    teams = [
        {
            "id": t.pk,
            "name": t.name,
            "race": t.race.name,
            "coach": t.coach.get_username(),
            "treasury": t.treasury or 0,
            "fan_factor": t.fan_factor,
            "url": request.build_absolute_uri(f"/api/teams/{t.pk}/"),
        }
        for t in teams_selector()
    ]
    return JsonResponse({"teams": [_public(request, team) for team in teams]})


@require_GET
def api_team(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(_public(request, roster_sheet(pk).as_dict()))


PRIVATE_FIELDS = ("coach", "treasury")


def _public(request: HttpRequest, team: dict) -> dict:
    """A team as the visitor may see it: without the coach and the treasury for anonymous visitors."""
    if sees_private(request.user):
        return team
    return {key: value for key, value in team.items() if key not in PRIVATE_FIELDS}
