"""A second thought before spending what cannot be undone, asked the same way on every app's pages.

With JavaScript, static/js/app.js asks the form's `data-confirm` question and adds `confirmed=1`;
without it, the view answers a post lacking `confirmed=1` with a confirm page that posts the same
fields again (the one-time token included, so confirming still buys once) plus `confirmed=1`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

NOT_REPOSTED = {"csrfmiddlewaretoken", "confirmed"}


def is_confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirmed") == "1"


def confirm_page(request: HttpRequest, *, question: str, button: str, cancel_url: str) -> HttpResponse:
    """The page that asks once more; its form re-posts what was sent, to the same address."""
    fields = [(k, v) for k in request.POST for v in request.POST.getlist(k) if k not in NOT_REPOSTED]
    context = {"question": question, "button": button, "cancel_url": cancel_url, "fields": fields}
    return render(request, "confirm.html", context)
