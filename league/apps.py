from axes import apps as axes_apps
from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.core.signals import request_finished
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from league.lib import logs


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = _("League")

    def ready(self) -> None:
        # Not at the top: league.apps is imported while the app registry loads, and league.accounts and
        # league.user_admin import models (league.models, the auth user), which exist only once it is ready.
        from league import accounts, user_admin

        user_admin.register()
        request_finished.connect(logs.forget_request_id, dispatch_uid="league.forget_request_id")

        # Permissions exist only after every app has migrated, so the board's
        # group is given them here rather than in the data migration.
        post_migrate.connect(accounts.grant_board_permissions, dispatch_uid="league.grant_board_permissions")


class LeagueAdminConfig(admin_apps.AdminConfig):
    """Django's admin, on the site whose writes raise the league version (league.lib.admin_site)."""

    default = False  # LeagueConfig is this module's app; this one is named in INSTALLED_APPS

    default_site = "league.lib.admin_site.LeagueAdminSite"


class LeagueAxesConfig(axes_apps.AppConfig):
    """django-axes (the log-in lock-out), named in the admin's index in the reader's language."""

    default = False
    verbose_name = _("Log-in attempts")


# Texts of django-axes' models and of the admin's index that their packages ship without Norwegian. Django
# reads one catalogue for every app, so ours translates them; listed here so that makemessages keeps them.
TRANSLATED_FOR_OTHERS = (
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
)
