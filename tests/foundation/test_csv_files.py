"""league.lib.csv_files (issue 27): what a cell becomes, the file name, the file itself. No database."""

import csv
import io
from datetime import UTC, date, datetime

import pytest
from django.utils import translation

from league.lib.csv_files import BOM, cell, csv_response, file_name, refused


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (None, ""),
        (0, 0),
        (-50000, -50000),  # money: a plain integer, its minus kept, no separators
        (1250000, 1250000),
        (66.666, "66,7"),  # Norwegian Excel reads a decimal comma
        (date(2026, 3, 14), "2026-03-14"),
        (datetime(2026, 3, 14, 18, 5, 7, 123, tzinfo=UTC), "2026-03-14 19:05:07"),  # Oslo, CET
        (datetime(2026, 7, 1, 10, 0, tzinfo=UTC), "2026-07-01 12:00:00"),  # CEST
        ("Torshov Trolls", "Torshov Trolls"),
        ("=1+1", "'=1+1"),
        ("+47 999", "'+47 999"),
        ("-1 MA", "'-1 MA"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("1 NI, -1 MA", "1 NI, -1 MA"),
    ],
)
def test_a_cell(value, written):
    assert cell(value) == written


def test_yes_and_no_in_the_visitors_language():
    assert (cell(True), cell(False)) == ("Ja", "Nei")
    with translation.override("en"):
        assert (cell(True), cell(False)) == ("Yes", "No")


@pytest.mark.parametrize(
    ("parts", "name"),
    [
        (("torshov", "tabell", "2026"), "torshov-tabell-2026.csv"),
        (("torshov", "stall", "Ærlige Østkant-Åsser"), "torshov-stall-aerlige-ostkant-asser.csv"),
        (("torshov", "toppliste", "", "spp"), "torshov-toppliste-spp.csv"),
        (('Ünïcödé 🏈 & "quotes"',), "unicode-quotes.csv"),
        (("🏈",), "eksport.csv"),
    ],
)
def test_a_file_name_is_lower_case_ascii(parts, name):
    assert file_name(*parts) == name


def test_the_file_has_a_bom_semicolons_and_quotes_where_a_field_needs_them():
    response = csv_response(["Lag", "Poeng"], [["Trolls; og venner", 3], ['Si "hei"', 0]], "torshov-tabell.csv")
    assert response["Content-Disposition"] == 'attachment; filename="torshov-tabell.csv"'
    raw = response.content.decode("utf-8")
    assert raw.startswith(BOM) and raw.endswith("\r\n")
    assert raw[1:].splitlines()[0] == "Lag;Poeng"
    assert list(csv.reader(io.StringIO(raw[1:]), delimiter=";")) == [
        ["Lag", "Poeng"],
        ["Trolls; og venner", "3"],
        ['Si "hei"', "0"],
    ]


def test_refused_is_plain_text():
    response = refused("Ukjent statistikk «x».", 400)
    assert response.status_code == 400 and response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == "Ukjent statistikk «x»."
