"""One shape for "the rules say no": an exception carrying messages, shown to the person as they are."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect


class Refusal(Exception):
    """A write the rules or the league's state refuse; `messages` are ready to show, nothing changed."""

    def __init__(self, messages: Sequence[str]) -> None:
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


def act_and_redirect(request: HttpRequest, action: Callable[[], str], to: object) -> HttpResponse:
    """Run one write: its success message or every refusal becomes a message, then redirect."""
    try:
        done = action()
    except Refusal as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(request, done)
    return redirect(to)
