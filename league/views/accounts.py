"""Accounts: log-in and log-out, the board makes a coach's account; the page a locked-out log-in gets."""

from __future__ import annotations

from axes.helpers import get_client_username, get_cool_off
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.accounts import COACH, address_is_locked, login_attempts, role_group
from league.lib.redirects import next_url
from league.lib.responses import post_form, success
from league.lib.writes import league_writes
from league.seasons.forms import CoachForm, LoginForm
from league.views.base import _require_board


class SafeNext(auth_views.RedirectURLMixin):
    """Django's `next`, checked as every other (league.lib.redirects): Django's own check lets `x` through,
    a relative address the browser would take to a 404; an unsafe one falls back to the view's default."""

    def get_redirect_url(self) -> str:
        return next_url(self.request, self.redirect_field_name) or ""


class LoginView(SafeNext, auth_views.LoginView):
    authentication_form = LoginForm


class LogoutView(SafeNext, auth_views.LogoutView):
    pass


@login_required
@require_http_methods(["GET", "POST"])
def coach_create(request: HttpRequest) -> HttpResponse:
    """The board makes a coach's account: in the coaches' group, not staff, no other rights (issue 14)."""
    _require_board(request)
    form = CoachForm(request.POST or None)

    def page() -> HttpResponse:
        return render(request, "league/coach_form.html", {"form": form})

    def create() -> AbstractBaseUser:
        with league_writes():
            coach = form.save()
            coach.groups.add(role_group(COACH))
        return coach

    def created(coach: AbstractBaseUser) -> HttpResponse:
        return success(
            request, _("%(name)s can now log in as a coach.") % {"name": coach.get_username()}, "coach_create"
        )

    if request.method == "GET":
        return page()
    return post_form(request, form, create, again=page, done=created)


def locked_out(request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None) -> HttpResponse:
    """django-axes' lock-out answer: the log-in page's layout, saying until when (issue 14)."""
    username = get_client_username(request, credentials)
    latest = login_attempts(request, username).aggregate(at=Max("attempt_time"))["at"]
    until = (latest or timezone.now()) + get_cool_off(request)
    context = {"until": until, "address": address_is_locked(request)}
    return render(request, "registration/locked_out.html", context, status=429)
