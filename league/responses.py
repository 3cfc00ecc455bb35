"""How a page shows the outcome of a write: a refusal's messages flashed or on the form, then a redirect."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from league.refusals import AlreadyDone, Refusal


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
