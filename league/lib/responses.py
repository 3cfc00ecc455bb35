"""How a page shows the outcome of a write: a refusal's messages flashed or on the form, then a redirect."""

from __future__ import annotations

import sys
from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template import loader
from django.views import defaults

from league.lib.refusals import AlreadyDone, Refusal


def flash_refusal(request: HttpRequest, refusal: Refusal) -> None:
    """Every message of a refusal as an error on the next page."""
    for message in refusal.messages:
        messages.error(request, message)


def refusal_on_form(form: forms.Form, refusal: Refusal, field: str | None = None) -> None:
    """Every message of a refusal as an error of the form (of one field, or the whole form)."""
    for message in refusal.messages:
        form.add_error(field, message)


def act_and_redirect(request: HttpRequest, action: Callable[[], str], to: object) -> HttpResponse:
    """Run one write: its success message or every refusal becomes a message, then redirect."""
    try:
        done = action()
    except AlreadyDone as exc:
        messages.info(request, exc.messages[0])
    except Refusal as exc:
        flash_refusal(request, exc)
    else:
        messages.success(request, done)
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
