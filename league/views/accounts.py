"""Accounts: log-in and log-out; the board makes coaches' accounts, lists them and deactivates or reactivates
them; the page a locked-out log-in gets."""

from __future__ import annotations

from axes.helpers import get_client_username, get_cool_off
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Max, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league.accounts import (
    COACH,
    activation_refused,
    address_is_locked,
    board_member_ids,
    display_name,
    login_attempts,
    role_group,
    set_active,
)
from league.lib.redirects import next_url
from league.lib.responses import act_and_redirect, post_form, success
from league.lib.writes import league_writes
from league.models import AccountChange
from league.seasons.forms import CoachForm, LoginForm
from league.views.base import _require_board
from teams.models import Team


class SafeNext(auth_views.RedirectURLMixin):
    """Django's `next`, checked as every other (league.lib.redirects): Django's own check lets `x` through,
    a relative address the browser would take to a 404; an unsafe one falls back to the view's default."""

    def get_redirect_url(self) -> str:
        return next_url(self.request, self.redirect_field_name) or ""


class LoginView(SafeNext, auth_views.LoginView):
    authentication_form = LoginForm


class LogoutView(SafeNext, auth_views.LogoutView):
    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        """Logged out, and the browser told to drop what it kept of the person's pages (the service worker's
        copies, the live log's queue): where the header is not obeyed (it needs HTTPS or localhost), pwa.js
        deletes the copies itself."""
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response


@login_required
@require_http_methods(["GET", "POST"])
def coach_create(request: HttpRequest) -> HttpResponse:
    """The board makes a coach's account: in the coaches' group, not staff, no other rights."""
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


@login_required
@require_GET
def coach_list(request: HttpRequest) -> HttpResponse:
    """The board's list of the league's accounts: who they are, their teams, whether they may log in (and
    who last changed that, when), and the button that changes it where the board may."""
    _require_board(request)
    accounts = (
        get_user_model()
        .objects.order_by("-is_active", "first_name", "last_name", "username")
        .prefetch_related(
            Prefetch("teams", queryset=Team.objects.order_by("name")),
            Prefetch("account_changes", queryset=AccountChange.objects.select_related("by")[:1], to_attr="last_change"),
        )
    )
    board = board_member_ids()
    rows = [
        {
            "account": account,
            "board": account.pk in board or account.is_superuser,
            "last_change": account.last_change[0] if account.last_change else None,
            "refused": activation_refused(account, by=request.user, board_member=account.pk in board),
        }
        for account in accounts
    ]
    return render(request, "league/coach_list.html", {"rows": rows})


def _name(account: AbstractBaseUser) -> str:
    return display_name(account)


@login_required
@require_POST
def coach_set_active(request: HttpRequest, pk: int, active: bool) -> HttpResponse:
    """Deactivate a coach's account (he can no longer log in; his teams stay) or let him back in."""
    _require_board(request)
    account = get_object_or_404(get_user_model(), pk=pk)

    def change() -> str:
        set_active(account, active=active, by=request.user)
        if active:
            return _("%(name)s can log in again.") % {"name": _name(account)}
        return _("%(name)s can no longer log in. The teams stay as they are.") % {"name": _name(account)}

    return act_and_redirect(request, change, reverse("coaches"))


def locked_out(request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None) -> HttpResponse:
    """django-axes' lock-out answer: the log-in page's layout, saying until when."""
    username = get_client_username(request, credentials)
    latest = login_attempts(request, username).aggregate(at=Max("attempt_time"))["at"]
    until = (latest or timezone.now()) + get_cool_off(request)
    context = {"until": until, "address": address_is_locked(request)}
    return render(request, "registration/locked_out.html", context, status=429)
