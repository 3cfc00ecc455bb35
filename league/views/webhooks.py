"""The board's webhooks: the league's chat (a Discord channel, or a receiver of plain JSON), what goes there,
each one's last posts, and a test post."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from league.lib.responses import act_and_redirect, post_form, success
from league.models import Webhook
from league.notices.forms import WebhookForm
from league.notices.webhooks import delete_webhook, save_webhook, send_test, webhooks_with_deliveries
from league.views.base import _require_board


def _list(request: HttpRequest, form: WebhookForm | None = None) -> HttpResponse:
    context = {"hooks": webhooks_with_deliveries(), "form": form or WebhookForm()}
    return render(request, "league/webhooks.html", context)


def _created(request: HttpRequest, webhook: Webhook) -> HttpResponse:
    said = _(
        "The webhook %(name)s is saved. Its secret, for checking the signature (shown only now and in the "
        "admin): %(secret)s"
    )
    return success(request, said % {"name": webhook.name, "secret": webhook.secret}, "webhooks")


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request: HttpRequest) -> HttpResponse:
    """The list, and the form that adds one."""
    _require_board(request)
    if request.method == "GET":
        return _list(request)
    form = WebhookForm(request.POST)
    return post_form(
        request,
        form,
        lambda: save_webhook(by=request.user, **form.cleaned_data),
        again=lambda: _list(request, form),
        done=lambda saved: _created(request, saved),
    )


@login_required
@require_http_methods(["GET", "POST"])
def webhook_edit(request: HttpRequest, pk: int) -> HttpResponse:
    _require_board(request)
    webhook = get_object_or_404(Webhook, pk=pk)
    # the form's own copy: an invalid form writes what was typed onto its instance, the heading keeps the saved name
    form = WebhookForm(request.POST or None, instance=Webhook.objects.get(pk=pk))

    def page() -> HttpResponse:
        changes = webhook.history.select_related("history_user").order_by("-history_date")[:10]
        return render(request, "league/webhook_edit.html", {"webhook": webhook, "form": form, "changes": changes})

    if request.method == "GET":
        return page()
    return post_form(
        request,
        form,
        lambda: save_webhook(by=request.user, webhook=webhook, **form.cleaned_data),
        again=page,
        done=lambda saved: success(request, _("The webhook %(name)s is saved.") % {"name": saved.name}, "webhooks"),
    )


@login_required
@require_POST
def webhook_delete(request: HttpRequest, pk: int) -> HttpResponse:
    _require_board(request)
    webhook = get_object_or_404(Webhook, pk=pk)

    def delete() -> str:
        delete_webhook(by=request.user, webhook=webhook)
        return _("The webhook %(name)s is removed.") % {"name": webhook.name}

    return act_and_redirect(request, delete, "webhooks")


@login_required
@require_POST
def webhook_test(request: HttpRequest, pk: int) -> HttpResponse:
    """A test message posted now; the page says what the chat answered."""
    _require_board(request)
    webhook = get_object_or_404(Webhook, pk=pk)

    row = send_test(by=request.user, webhook=webhook)
    if row.state == row.State.SENT:
        said = _("The test reached %(name)s: it answered %(status)s.")
        messages.success(request, said % {"name": webhook.name, "status": row.status_code})
    else:
        said = _("The test did not reach %(name)s: %(error)s")
        messages.error(request, said % {"name": webhook.name, "error": row.last_error})
    return redirect("webhooks")
