"""One-time form tokens: every rendered form that spends or pays carries one, and the service turns it
into the treasury ledger's idempotency key, so the same form sent twice (a double click, a phone
re-sending the request) acts once and the other sends are told it is already done.

A token is random and carries no authority: a client that invents one only gets what rendering the
form again would give it. A missing or malformed token is refused with a request to reload the page
(not replaced by a server-made one), so no path through a form can pay without its key.
"""

from __future__ import annotations

import secrets
import string

from django import forms
from django.utils.translation import gettext_lazy as _

TOKEN_BYTES = 16
TOKEN_LENGTH = 22  # len(secrets.token_urlsafe(16))
TOKEN_ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_token(value: object) -> bool:
    return isinstance(value, str) and len(value) == TOKEN_LENGTH and set(value) <= TOKEN_ALPHABET


FORM_KEY_PREFIX = "form:"


def form_key(token: str, *scope: object) -> str:
    """The ledger key of one rendered form: its token, then its scope (whose, which action); cut to the
    column's 100 characters, the token first so it is never what is cut."""
    return FORM_KEY_PREFIX + ":".join([token, *(str(s) for s in scope)])[:95]


def _validate_token(value: str) -> None:
    if not is_token(value):
        raise forms.ValidationError(TokenField.default_error_messages["invalid"], code="invalid")


class TokenField(forms.CharField):
    """A hidden field holding the form's one-time token, made when the form is rendered."""

    widget = forms.HiddenInput
    default_error_messages = {
        "required": _("This form is out of date: reload the page and try again."),
        "invalid": _("This form is out of date: reload the page and try again."),
    }

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("initial", new_token)
        kwargs.setdefault("max_length", 100)
        super().__init__(validators=[_validate_token], **kwargs)


class TokenForm(forms.Form):
    """For the forms that are a single button: only the token."""

    token = TokenField()
