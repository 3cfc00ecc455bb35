"""The admin's one shape for records the services write: read there, never added, edited or deleted."""

from django.http import HttpRequest


class ReadOnlyAdminMixin:
    """Records the services write (dice, ledger lines, report lines, hires): read in the admin only;
    a mistake is corrected by a new record, never by editing the old one."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
