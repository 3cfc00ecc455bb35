"""The signed token of an e-mail's unsubscribe link: whose, and which kind. Signed with the SECRET_KEY
(django.core.signing), so it cannot be forged or pointed at another coach; it does not expire, as a
List-Unsubscribe link must keep working in an old e-mail."""

from __future__ import annotations

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
