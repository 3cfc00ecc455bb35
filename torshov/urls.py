from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from league.views import accounts, language, password_reset, pwa
from league.views import pages as league_views

urlpatterns = [
    path("", league_views.home, name="home"),
    path("favicon.ico", league_views.favicon),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("i18n/setlang/", language.set_language, name="set_language"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("accounts/password-reset/", password_reset.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password-reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        password_reset.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("admin/", admin.site.urls),
    path("", include("league.urls")),
    path("", include("teams.urls")),
    path("", include("matches.urls")),
]

admin.site.site_header = "Torshov Touchdown"
admin.site.site_title = "Torshov Touchdown"

# A database that does not answer is a Norwegian 503, not a 500 (league.lib.responses.server_error).
handler500 = "league.lib.responses.server_error"
