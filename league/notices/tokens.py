"""The signed tokens of the e-mails' links (django.core.signing, with the SECRET_KEY: they cannot be forged
or pointed at another coach). An unsubscribe link's: whose, and which kind; it does not expire, as a
List-Unsubscribe link must keep working in an old e-mail. An address's confirmation link: whose, and which
address; it expires after CONFIRM_DAYS."""

from __future__ import annotations

from datetime import timedelta

from django.core import signing

from league.models import Notification

SALT = "league.notices.unsubscribe"


class BadToken(Exception):
    pass


def make(user_id: int, kind: str) -> str:
    return signing.dumps([user_id, kind], salt=SALT, compress=False)


def read(token: str) -> tuple[int, str]:
    try:
        user_id, kind = signing.loads(token, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise BadToken from exc
    if not isinstance(user_id, int) or kind not in Notification.Kind.values:
        raise BadToken
    return user_id, kind


CONFIRM_SALT = "league.notices.confirm-address"
CONFIRM_DAYS = 3


def make_confirmation(user_id: int, email: str) -> str:
    return signing.dumps([user_id, email], salt=CONFIRM_SALT, compress=False)


def read_confirmation(token: str) -> tuple[int, str]:
    """Whose and which address; BadToken if forged, malformed or older than CONFIRM_DAYS."""
    try:
        user_id, email = signing.loads(token, salt=CONFIRM_SALT, max_age=timedelta(days=CONFIRM_DAYS))
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise BadToken from exc
    if not isinstance(user_id, int) or not isinstance(email, str):
        raise BadToken
    return user_id, email
