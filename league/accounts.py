"""The league's two roles: the board (Styret) and the coaches (Trenere)."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission

BOARD_GROUP = "Styret"
COACH_GROUP = "Trenere"
BOARD_APPS = ("league", "teams", "matches")


def is_board(user: AbstractBaseUser | AnonymousUser) -> bool:
    """The board may change anything in the league; superusers count as board."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return any(group.name == BOARD_GROUP for group in user.groups.all())


def grant_board_permissions(sender: Any = None, **kwargs: Any) -> None:
    board, _ = Group.objects.get_or_create(name=BOARD_GROUP)
    Group.objects.get_or_create(name=COACH_GROUP)
    perms = Permission.objects.filter(content_type__app_label__in=BOARD_APPS) | Permission.objects.filter(
        content_type__app_label="auth", content_type__model="user"
    )
    board.permissions.add(*perms)
