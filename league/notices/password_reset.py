"""The e-mail of "Glemt passord?": a link to choose a new password, in its recipient's language. Sent by the
task queue, as the notices are, so the page answers as fast for an address the league knows as for one it
does not (a send in the request would tell them apart)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django_tasks import task

from league.notices.delivery import language_of

logger = logging.getLogger(__name__)


def enqueue_password_reset(user_id: int) -> None:
    """The link's task; a queue that fails sends it at once."""
    try:
        send_password_reset.enqueue(user_id)
    except Exception:
        logger.exception("user %s: the password link's task not queued; sent at once", user_id)
        send_password_reset.call(user_id)


@task()
def send_password_reset(user_id: int) -> bool:
    """The link to an active account with an address and a password (it may have changed since it was asked
    for). Django's token: it works once (it is made from the password) and for PASSWORD_RESET_TIMEOUT. A
    failed send is logged; the coach can ask again."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or not user.has_usable_password():
        return False
    token = default_token_generator.make_token(user)
    link = settings.SITE_URL + reverse(
        "password_reset_confirm", args=[urlsafe_base64_encode(force_bytes(user.pk)), token]
    )
    with translation.override(language_of(user.pk)):
        days = max(1, settings.PASSWORD_RESET_TIMEOUT // 86_400)
        body = render_to_string("registration/password_reset_email.txt", {"user": user, "link": link, "days": days})
        subject = translation.gettext("Torshov Touchdown: choose a new password")
    try:
        EmailMessage(subject, body, to=[user.email], headers={"Auto-Submitted": "auto-generated"}).send()
    except Exception:
        logger.exception("user %s: the password link was not sent", user_id)
        return False
    return True
