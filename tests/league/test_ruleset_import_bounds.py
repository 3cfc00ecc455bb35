"""The ruleset import (the board's, from a file) and the admin's structured text refuse what they cannot hold:
nesting the parser cannot follow, numbers Python or the database cannot keep, NaN, a NUL character, a
file too large. Each is a Norwegian message on the form, the draft unchanged; none is a server error."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league import rules
from league.admin import RulesetForm
from league.models import Ruleset

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft():
    return Ruleset.objects.get(name="Torshov 2006").copy_as_draft("Torshov 2027")


def with_mvp_limit(literal: str) -> bytes:
    """The default version as a file, its MVP limit written as `literal`."""
    data = rules.default_data()
    data["settings"]["mvp_limit"] = "MVP"
    return json.dumps(data).replace('"MVP"', literal).encode()


def with_extra(literal: str) -> bytes:
    """The default version as a file with a key of its own (kept as it is) holding `literal`."""
    return (json.dumps(rules.default_data())[:-1] + f', "extra": {literal}}}').encode()


NESTED = ("[" * 100_000 + "]" * 100_000).encode()  # a RecursionError in json.loads


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (NESTED, "Den strukturerte teksten har lister og objekter mer enn 10 nivåer inni hverandre."),
        (with_extra("[[[[[[[[[[1]]]]]]]]]]"), "mer enn 10 nivåer inni hverandre"),
        # Python refuses to read an integer of over 4,300 digits (a ValueError)
        (with_mvp_limit("9" * 5000), "har et tall som er for stort til å lagres: 99999999999999999999… (høyst"),
        # read, but no column holds it (and the rules took it as a whole number)
        (with_mvp_limit("9" * 400), "for stort til å lagres"),
        (with_mvp_limit("3000000000"), "for stort til å lagres: 3000000000 (høyst 2\u00a0147\u00a0483\u00a0647)."),
        (with_extra("-3000000000"), "for stort til å lagres"),
        (with_extra("1e999"), "for stort til å lagres: 1e999"),
        # PostgreSQL's jsonb holds neither: a DataError when saved
        (with_extra("NaN"), "har NaN, som ikke er et tall som kan lagres."),
        (with_extra("-Infinity"), "har -Infinity, som ikke er et tall som kan lagres."),
        (with_extra('"a\\u0000b"'), "har et NUL-tegn (kode 0), som ikke kan lagres."),
        (with_extra('{"a\\u0000": 1}'), "NUL-tegn"),
        (b" " * 1_000_001, "Fila er for stor til å være et regelsett."),
    ],
    ids=[
        "nested-100000",
        "nested-11",
        "5000-digits",
        "400-digits",
        "past-a-column",
        "past-a-column-negative",
        "infinite",
        "nan",
        "infinity",
        "nul",
        "nul-in-a-key",
        "too-large-a-file",
    ],
)
def test_the_import_refuses_on_the_form_and_changes_nothing(client, board_member, draft, body, message):
    client.force_login(board_member)
    before = Ruleset.objects.get(pk=draft.pk).data
    upload = SimpleUploadedFile("r.json", body, content_type="application/json")
    response = client.post(reverse("rules_version_import", args=[draft.pk]), {"file": upload})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Ruleset.objects.get(pk=draft.pk).data == before


def test_a_number_the_database_holds_is_still_read(client, board_member, draft):
    """The bound is the column's, not the rulebook's: the rules' own checks say the rest."""
    client.force_login(board_member)
    upload = SimpleUploadedFile("r.json", with_extra("2147483647"))
    response = client.post(reverse("rules_version_import", args=[draft.pk]), {"file": upload})
    assert response.status_code == 302
    assert Ruleset.objects.get(pk=draft.pk).data["extra"] == 2_147_483_647


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "mer enn 10 nivåer inni hverandre"),
        ('{"mvp_limit": ' + "9" * 5000 + "}", "for stort til å lagres"),
        ('{"mvp_limit": NaN}', "som ikke er et tall som kan lagres"),
    ],
    ids=["nested", "5000-digits", "nan"],
)
def test_the_admins_structured_text_refuses_the_same(draft, text, message):
    fields = RulesetForm(instance=draft).fields
    data = {name: field.initial for name, field in fields.items()}
    data.update(name=draft.name, notes="", settings=text)
    form = RulesetForm(data=data, instance=draft)
    assert not form.is_valid()
    assert any(message in error for error in form.errors["settings"])
