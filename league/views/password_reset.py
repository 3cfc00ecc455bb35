"""The password reset, "Glemt passord?": Django's views (the form, its answer, the link's page, the last page)
in the site's pages and language. The answer is the same whether or not the address is known; a few links
an hour per address and per network (league.accounts.password_reset_allowed); inactive accounts get none."""

from __future__ import annotations

from typing import Any

from axes.utils import reset as reset_lockouts
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.utils.translation import gettext as _

from league.accounts import RESET_PER_ADDRESS, RESET_PER_NETWORK, password_reset_allowed
from league.lib.responses import INVALID
from league.lib.writes import league_writes
from league.notices.password_reset import enqueue_password_reset

TOO_MANY = 429


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form (active accounts with a password, whose address is the one typed), each account's link
    sent by the task queue in the account's own language; Django's would send it in the request, in the
    language of whoever asked."""

    def save(self, **_options: Any) -> None:
        for user in self.get_users(self.cleaned_data["email"]):
            enqueue_password_reset(user.pk)


class PasswordResetView(auth_views.PasswordResetView):
    form_class = PasswordResetForm
    extra_context = {"per_address": RESET_PER_ADDRESS, "per_network": RESET_PER_NETWORK}

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        if not password_reset_allowed(self.request, form.cleaned_data["email"]):
            form.add_error(
                None, _("Too many links were asked for this address or from this network: try again in an hour.")
            )
            return self.render_to_response(self.get_context_data(form=form), status=TOO_MANY)
        return super().form_valid(form)

    def form_invalid(self, form: PasswordResetForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=INVALID)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form: auth_forms.SetPasswordForm) -> HttpResponse:
        with league_writes():  # the user's row, as every write of the league's rows
            response = super().form_valid(form)
        # He proved the account is his: the failed log-ins that may have locked him out no longer count.
        reset_lockouts(username=form.user.get_username())
        return response

    def form_invalid(self, form: auth_forms.SetPasswordForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=INVALID)
