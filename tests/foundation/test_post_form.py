"""The one way of a form's POST (league.lib.responses.post_form, issue 25): invalid or refused, the form
again at 422 with nothing written; valid, the service's result answered; the same form sent twice, where
the first send led. And the one status is one htmx swaps, so a person sees the errors."""

import json
import re

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.http import HttpResponse
from django.test import RequestFactory

from league.lib.refusals import AlreadyDone, Refusal
from league.lib.responses import INVALID, post_form


class NameForm(forms.Form):
    name = forms.CharField(max_length=5)


def request(data):
    req = RequestFactory().post("/", data)
    req.session = {}
    req._messages = FallbackStorage(req)
    return req


def answer(req, form, write, **kwargs):
    return post_form(
        req,
        form,
        write,
        again=lambda: HttpResponse("again: " + " ".join(e for es in form.errors.values() for e in es)),
        done=lambda result: HttpResponse(f"done: {result}", status=302),
        **kwargs,
    )


def test_an_invalid_form_is_shown_again_at_422_and_nothing_is_called():
    called = []
    response = answer(request({"name": "far too long"}), NameForm({"name": "far too long"}), lambda: called.append(1))
    assert response.status_code == INVALID == 422
    assert "5 eller færre tegn" in response.content.decode()  # Norwegian first
    assert called == []


def test_a_refusal_goes_on_the_form_at_422():
    def refuse():
        raise Refusal(["No, says the rulebook."])

    form = NameForm({"name": "Ola"})
    response = answer(request({"name": "Ola"}), form, refuse)
    assert response.status_code == 422 and "No, says the rulebook." in response.content.decode()
    assert form.non_field_errors() == ["No, says the rulebook."]


def test_a_valid_form_calls_the_service_and_answers_its_result():
    form = NameForm({"name": "Ola"})
    response = answer(request({"name": "Ola"}), form, lambda: form.cleaned_data["name"].upper())
    assert (response.status_code, response.content.decode()) == (302, "done: OLA")


def sent_again():
    raise AlreadyDone("Hired Ny, -50,000", result="the first send's line")


def test_the_same_form_sent_twice_goes_where_the_first_send_led():
    req = request({"name": "Ola"})
    response = answer(req, NameForm({"name": "Ola"}), sent_again, already=lambda exc: HttpResponse(exc.result))
    assert (response.status_code, response.content.decode()) == (200, "the first send's line")
    said = "Dette er allerede gjort (Hired Ny, -50,000); ingenting mer ble betalt."
    assert [str(m) for m in get_messages(req)] == [said]


def test_without_a_way_back_already_done_is_a_refusal_like_another():
    response = answer(request({"name": "Ola"}), NameForm({"name": "Ola"}), sent_again)
    assert response.status_code == 422 and "Dette er allerede gjort" in response.content.decode()


@pytest.mark.django_db
def test_htmx_swaps_the_one_status_and_no_other_error(client):
    html = client.get("/").content.decode()
    config = json.loads(re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html).group(1))
    rules = config["responseHandling"]

    def swapped(status: int) -> bool:  # the first rule whose code matches, as htmx reads them
        return next(r for r in rules if re.search(r["code"], str(status)))["swap"]

    assert swapped(INVALID) and swapped(200) and swapped(302)
    assert not any(swapped(status) for status in (204, 400, 403, 404, 409, 429, 500, 503))
    assert config["allowEval"] is False  # the Content-Security-Policy's settings kept
