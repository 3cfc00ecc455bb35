"""The users' admin for a board that is not superuser: it edits names, e-mail and whether
a coach's account is active, and nothing that grants rights. Superusers keep Django's full admin.

Registered from LeagueConfig.ready(), after the admin has registered Django's own UserAdmin.
"""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

# What would let a board member raise himself or anyone else above the board.
GRANTS = ("is_superuser", "is_staff", "groups", "user_permissions")


class LeagueUserAdmin(UserAdmin):
    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        fields = tuple(super().get_readonly_fields(request, obj))
        if request.user.is_superuser:
            return fields
        fields += (*GRANTS, "last_login", "date_joined")
        if obj is not None and obj.is_staff:
            fields += ("is_active",)  # one board member does not shut out another
        return fields

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        # The board makes coaches on the coach page (league.views.accounts.coach_create), which grants nothing more.
        return request.user.is_superuser

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser

    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> HttpResponse:
        if not request.user.is_superuser and str(request.user.pk) != str(id):
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)


def register() -> None:
    User = get_user_model()
    if admin.site.is_registered(User):
        admin.site.unregister(User)
    admin.site.register(User, LeagueUserAdmin)
