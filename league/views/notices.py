"""A coach's notifications: the inbox ("Varsler"), opening one, his choices, the e-mails'
unsubscribe link, and the board's message to all coaches."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league.accounts import is_board
from league.lib.refusals import Refusal
from league.lib.responses import INVALID, act_and_redirect, post_form, success
from league.models import NoticeSettings, Notification
from league.notices import push, selectors, services, tokens
from league.notices.forms import BoardMessageForm, ChoicesForm
from league.seasons import waiting
from league.views.base import _require_board


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    keys = {t.key for t in waiting.for_request(request)}
    return render(request, "notices/inbox.html", {"notices": selectors.inbox(request.user, keys)})


@login_required
@require_GET
def notice_open(request: HttpRequest, pk: int) -> HttpResponse:
    """A notification opened (from the inbox or its e-mail's link): read, and on to the page to act on."""
    try:
        notification = services.mark_read(user=request.user, notification_id=pk)
    except Notification.DoesNotExist:
        raise Http404 from None
    return redirect(notification.url or "notices")


@login_required
@require_POST
def notice_read_all(request: HttpRequest) -> HttpResponse:
    services.mark_all_read(user=request.user)
    return success(request, _("All your notifications are marked read."), "notices")


@login_required
@require_http_methods(["GET", "POST"])
def notice_settings(request: HttpRequest) -> HttpResponse:
    """A coach's address, the language of the e-mails and pushes, per kind the inbox only or e-mail and push
    too, the quiet hours, and this device's push turned on or off (league.views.push, the page's script)."""
    fields = ("language", "pending_email", "quiet_from", "quiet_to")
    choices = NoticeSettings.objects.filter(user=request.user).values(*fields).first() or {}
    kinds = sorted(selectors.email_kinds(request.user))
    # a new address waiting is shown in the field: saving other choices keeps it waiting
    email = choices.get("pending_email") or request.user.email
    initial = {"email": email, "language": choices.get("language", "nb"), "email_kinds": kinds}
    kept = {"push_kinds": sorted(selectors.push_kinds(request.user)), **{f: choices.get(f) for f in fields[2:]}}
    form = ChoicesForm(request.POST or None, initial=initial | kept, board=is_board(request.user), push=push.enabled())

    def page() -> HttpResponse:
        context = {
            "form": form,
            "pending": choices.get("pending_email"),
            "current": request.user.email,
            "push_enabled": push.enabled(),
            "vapid_public_key": settings.VAPID_PUBLIC_KEY,
            "devices": selectors.devices(request.user),
        }
        return render(request, "notices/settings.html", context)

    def saved(pending: str) -> HttpResponse:
        if pending:
            text = _("Saved. We have sent a link to %(email)s: open it to make it your address.") % {"email": pending}
        else:
            text = _("Your notification choices are saved.")
        return success(request, text, "notice_settings")

    if request.method == "GET":
        return page()
    # without push the form has no push fields: what was chosen before is kept
    save = lambda: services.save_choices(user=request.user, **(kept | form.cleaned_data))  # noqa: E731
    return post_form(request, form, save, again=page, done=saved)


@login_required
@require_POST
def notice_confirm_again(request: HttpRequest) -> HttpResponse:
    """The link for the address waiting, sent again."""

    def send() -> str:
        pending = services.resend_confirmation(user=request.user)
        return _("We have sent the link to %(email)s again.") % {"email": pending}

    return act_and_redirect(request, send, "notice_settings")


@require_http_methods(["GET", "POST"])
def notice_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link sent to a new address: GET asks (a link scanner must not confirm anything), POST makes it the
    coach's address, logged in or not (the signed token is the authority)."""
    if request.method == "GET":
        try:
            _user_id, email = tokens.read_confirmation(token)
        except tokens.BadToken:
            email = ""  # the POST says why it confirms nothing
        return render(request, "notices/confirm.html", {"token": token, "email": email})
    try:
        user = services.confirm_email(token=token)
    except Refusal as refusal:
        return render(request, "notices/confirm.html", {"token": token, "errors": refusal.messages}, status=INVALID)
    return render(request, "notices/confirm.html", {"done": user.email})


@csrf_exempt  # the signed token is the authority, and a mail client's one-click POST (RFC 8058) carries no CSRF token
@require_http_methods(["GET", "POST"])
def notice_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """An e-mail's unsubscribe link: GET asks (a link scanner must not unsubscribe anyone), POST does it,
    logged in or not."""
    if request.method == "GET":
        return render(request, "notices/unsubscribe.html", {"token": token})
    try:
        _user, kind = services.unsubscribe(token=token)
    except Refusal as refusal:
        return render(request, "notices/unsubscribe.html", {"token": token, "errors": refusal.messages}, status=INVALID)
    return render(request, "notices/unsubscribe.html", {"done": Notification.Kind(kind).label})


@login_required
@require_http_methods(["GET", "POST"])
def board_message(request: HttpRequest) -> HttpResponse:
    """The board writes to every active coach: in each inbox, and by e-mail to those who want it."""
    _require_board(request)
    form = BoardMessageForm(request.POST or None)

    def page() -> HttpResponse:
        return render(request, "notices/board_message.html", {"form": form})

    def went_to(count: int) -> HttpResponse:
        went = ngettext("The message went to %(n)s coach.", "The message went to %(n)s coaches.", count)
        return success(request, went % {"n": count}, "board_message")

    if request.method == "GET":
        return page()
    return post_form(
        request,
        form,
        lambda: services.message_coaches(by=request.user, **form.cleaned_data),
        again=page,
        done=went_to,
        already=lambda sent: went_to(sent.result),  # the same form again: where the first send led
    )
