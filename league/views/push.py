"""A coach's devices for Web Push: the settings page's script turns this browser on or off (JSON), and the
page's list removes a device (a plain form)."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.lib.refusals import Refusal
from league.lib.responses import INVALID, success
from league.models import PushSubscription
from league.notices import devices, push


def _posted(request: HttpRequest) -> object:
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        return None


def _refused(messages: list[str]) -> JsonResponse:
    return JsonResponse({"errors": messages}, status=INVALID)


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """This browser's PushSubscription.toJSON(), kept for the coach: 201, or 422 with why not."""
    if not push.enabled():
        return _refused([_("Notifications on devices are not turned on for the league.")])
    try:
        device = devices.subscribe(
            user=request.user, data=_posted(request), user_agent=request.headers.get("User-Agent", "")
        )
    except Refusal as refusal:
        return _refused(refusal.messages)
    return JsonResponse({"label": device.label, "message": _("Notifications are on for this device.")}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    """This browser turned push off: its subscription (the coach's own) forgotten."""
    data = _posted(request)
    try:
        devices.unsubscribe(user=request.user, endpoint=data.get("endpoint") if isinstance(data, dict) else None)
    except Refusal as refusal:
        return _refused(refusal.messages)
    return JsonResponse({"message": _("Notifications are off for this device.")})


@login_required
@require_POST
def push_device_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """A device taken off the coach's list; another's is not found."""
    try:
        label = devices.remove(user=request.user, device_id=pk)
    except PushSubscription.DoesNotExist:
        raise Http404 from None
    return success(request, _("%(device)s gets no more notifications.") % {"device": label}, "notice_settings")
