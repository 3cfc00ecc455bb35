"""A coach's devices for Web Push: a browser's subscription checked and kept, turned off, or removed.

What a browser posts is checked as a push service would need it, so a forged one is refused before it is
kept: an https endpoint (RFC 8030) on a known push service's host (PUSH_SERVICE_HOSTS), a P-256 public
key on the curve (RFC 8291: 65 bytes, uncompressed) and a 16-byte auth secret. These rows are on no public
page: plain transactions."""

from __future__ import annotations

import base64
import binascii
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from league.lib.refusals import Refusal
from league.models import PushSubscription


class DeviceError(Refusal):
    pass


def b64url(value: object) -> bytes:
    """base64url with or without its padding, as browsers send the keys; ValueError when it is not."""
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ValueError
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ValueError from None


def _endpoint_problem(endpoint: object) -> str | None:
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > 1000:
        return _("This device's push address is missing or too long.")
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    local_http = settings.PUSH_LOCAL_HTTP and host == "127.0.0.1"
    if parts.scheme == "http" and (settings.DEBUG or local_http):
        return None
    if parts.scheme != "https" or not host:
        return _("This device's push address is not a secure (https) address.")
    if any(host == known or host.endswith("." + known) for known in settings.PUSH_SERVICE_HOSTS):
        return None
    return _("This device's push address is not a push service's.")


def _key_problems(keys: object) -> list[str]:
    keys = keys if isinstance(keys, dict) else {}
    problems = []
    try:
        point = b64url(keys.get("p256dh"))
        if len(point) != 65 or point[0] != 4:
            raise ValueError
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)  # on the curve, or ValueError
    except ValueError:
        problems.append(_("This device's encryption key is not valid."))
    try:
        if len(b64url(keys.get("auth"))) != 16:
            raise ValueError
    except ValueError:
        problems.append(_("This device's authentication secret is not valid."))
    return problems


def subscription_problems(data: object) -> list[str]:
    """What is wrong with a browser's PushSubscription.toJSON(), in the active language; [] when nothing."""
    if not isinstance(data, dict):
        return [_("The browser sent no push subscription.")]
    problems = [problem] if (problem := _endpoint_problem(data.get("endpoint"))) else []
    return problems + _key_problems(data.get("keys"))


def device_label(user_agent: str) -> str:
    """A name a coach recognises the device by, from the browser's User-Agent: "Firefox, Android"."""
    browsers = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"))
    systems = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"))
    systems += (("Mac OS X", "Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))
    browser = next((name for key, name in browsers if key in user_agent), "")
    if not browser and "Safari/" in user_agent:
        browser = "Safari"
    system = next((name for key, name in systems if key in user_agent), "")
    return ", ".join(part for part in (browser, system) if part) or _("A browser")


def subscribe(*, user: AbstractBaseUser, data: Any, user_agent: str = "") -> PushSubscription:
    """The browser's subscription kept for the user. The same endpoint again updates its keys; an endpoint
    kept for another user moves to this one: a browser has one subscription, and whoever turned it on last
    is the one using it (a shared tablet), so the other is not pushed to a device no longer theirs."""
    if problems := subscription_problems(data):
        raise DeviceError(problems)
    with transaction.atomic():
        device, _made = PushSubscription.objects.update_or_create(
            endpoint=data["endpoint"],
            defaults={
                "user": user,
                "p256dh": data["keys"]["p256dh"],
                "auth": data["keys"]["auth"],
                "user_agent": user_agent[:300],
                "label": device_label(user_agent)[:80],
                "failures": 0,
            },
        )
    return device


def unsubscribe(*, user: AbstractBaseUser, endpoint: object) -> bool:
    """The browser turned push off: its subscription forgotten (only the user's own). Whether one was."""
    if not isinstance(endpoint, str) or not endpoint:
        raise DeviceError([_("The browser sent no push subscription.")])
    with transaction.atomic():
        return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0] > 0


def remove(*, user: AbstractBaseUser, device_id: int) -> str:
    """A device taken off the user's list (only the user's own: another's is not found). Returns its label."""
    with transaction.atomic():
        device = PushSubscription.objects.select_for_update().filter(user=user, pk=device_id).first()
        if device is None:
            raise PushSubscription.DoesNotExist
        label = device.label
        device.delete()
    return label
