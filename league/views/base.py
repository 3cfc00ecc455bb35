"""Helpers the league's pages share: board-only pages, a season by its id."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from league.accounts import is_board
from league.models import Season


def _require_board(request: HttpRequest) -> None:
    if not is_board(request.user):
        raise PermissionDenied


def _get_season(pk: int) -> Season:
    return get_object_or_404(Season.objects.with_rules(), pk=pk)
