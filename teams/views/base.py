"""Helpers the team pages share: who may change a team, board-only pages."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from league.accounts import is_board
from teams.models import Team


def _get_team_for_change(request: HttpRequest, pk: int) -> Team:
    """The one access check for writes: the team's coach or the board; everyone else 403."""
    team = get_object_or_404(Team.objects.select_related("race", "ruleset", "coach"), pk=pk)
    if not can_change(request.user, team):
        raise PermissionDenied
    return team


def can_change(user, team: Team) -> bool:
    return user.is_authenticated and (team.coach_id == user.pk or is_board(user))


def _require_board(request: HttpRequest) -> None:
    if not is_board(request.user):
        raise PermissionDenied
