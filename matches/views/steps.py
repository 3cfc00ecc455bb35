"""What the pre-match and the post-match steps share: a step's form, service and who may take it
(`StepAction`), and the one way a step's POST is run (`run_step`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.shortcuts import redirect, render

from league.lib.responses import post_form
from matches.forms.fields import StepForm
from matches.views.base import HtmxHttpRequest


@dataclass(frozen=True)
class StepAction:
    """A step: its form, the service the valid form's `arguments()` are handed to, and who may take it:
    "any" coach of the match, the "home" coach, or the coach of the posted "team"; the board always."""

    form: type[StepForm]
    service: Callable[..., Any]
    who: str = "any"


def run_step(
    request: HtmxHttpRequest,
    action: StepAction,
    form: StepForm,
    *,
    context: Callable[[StepForm | None, Any], dict],
    page: str,
    to: str,
) -> HttpResponse:
    """A step of a sequence through the one way of a POST (league.lib.responses.post_form): the valid
    form's arguments handed to the step's service. htmx gets the page's `#steps` fragment, a plain post
    the whole page: the same step again with its errors, or after the step the next one (htmx) or the
    redirect to `to`. `context(invalid, result)` is the page's context."""
    template = f"{page}#steps" if request.htmx else page

    def done(result: Any) -> HttpResponse:
        return render(request, template, context(None, result)) if request.htmx else redirect(to)

    return post_form(
        request,
        form,
        lambda: action.service(form.match, by=request.user, **form.arguments()),
        again=lambda: render(request, template, context(form, None)),
        done=done,
    )
