"""How a page answers a write: the one way of a form's POST (`post_form`), a button's (`act_and_redirect`),
and the status of a form shown again with its errors (`INVALID`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from django import forms
from django.contrib import messages
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template import loader
from django.views import defaults

from league.lib.refusals import AlreadyDone, Refusal

T = TypeVar("T")

INVALID = 422
"""The one status of a form shown again with its errors, its own or the service's refusal, nothing
written: 422 Unprocessable Content (RFC 9110: the request was understood, its content cannot be
carried out). htmx 2 swaps no 4xx by default; templates/base.html's htmx-config swaps this one."""


class Submitted(Protocol):
    """What post_form asks of a form: a Django form, or several as one (the match report's)."""

    def is_valid(self) -> bool: ...

    def add_error(self, field: str | None, error: Any) -> None: ...


def flash_refusal(request: HttpRequest, refusal: Refusal) -> None:
    """Every message of a refusal as an error on the next page."""
    for message in refusal.messages:
        messages.error(request, message)


def refusal_on_form(form: forms.Form | Submitted, refusal: Refusal, field: str | None = None) -> None:
    """Every message of a refusal as an error of the form (of one field, or the whole form)."""
    for message in refusal.messages:
        form.add_error(field, message)


def post_form(
    request: HttpRequest,
    form: Submitted,
    write: Callable[[], T],
    *,
    again: Callable[[], HttpResponse],
    done: Callable[[T], HttpResponse],
    already: Callable[[AlreadyDone], HttpResponse] | None = None,
) -> HttpResponse:
    """The one way of a form's POST: form → service → response (docs/architecture.md).

    Valid: `write()` calls the service with what the form read, and `done(result)` answers: a redirect
    with its message (`success`), or the next htmx fragment. Invalid, or refused by the service (its
    messages on the form): `again()` renders the page, or the htmx fragment, holding the form with its
    errors and what was typed, answered with status `INVALID`; nothing is written. A form with a
    one-time token sent twice (AlreadyDone) is no error when the view says where the first send led:
    `already(refusal)`, with the message that it is done."""
    if form.is_valid():
        try:
            result = write()
        except Refusal as exc:
            if already is not None and isinstance(exc, AlreadyDone):
                messages.info(request, exc.messages[0])
                return already(exc)
            refusal_on_form(form, exc)
        else:
            return done(result)
    response = again()
    response.status_code = INVALID
    return response


def success(request: HttpRequest, message: str, to: object) -> HttpResponse:
    """A write done: its message on the next page, and the redirect there."""
    messages.success(request, message)
    return redirect(to)


def act_and_redirect(request: HttpRequest, action: Callable[[], str], to: object) -> HttpResponse:
    """A button's POST (nothing typed: a purchase, a confirmation, the season's start): `action()` writes
    and returns its success message; a refusal's messages are flashed; then the redirect back."""
    try:
        done = action()
    except AlreadyDone as exc:
        messages.info(request, exc.messages[0])
    except Refusal as exc:
        flash_refusal(request, exc)
    else:
        return success(request, done, to)
    return redirect(to)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a database that does not answer is a 503 the visitor can wait out, in his language;
    any other error is Django's own 500 page. Rendered without the request's context, as Django's
    server_error is, so the page needs no session or user (they live in the database)."""
    error = sys.exc_info()[1]
    if isinstance(error, (OperationalError, InterfaceError)):
        body = loader.get_template("503.html").render()
        return HttpResponse(body, status=503, headers={"Retry-After": "30", "Cache-Control": "no-store"})
    return defaults.server_error(request)
