"""CSV downloads a spreadsheet opens as they are: UTF-8 with a byte order mark, ';' between
the fields, numbers as plain numbers, dates as ISO 8601, an attachment with an ASCII file name.

The pages build the rows from the selectors they show, and hand them here with their headers."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import date, datetime

from django.http import HttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _

# Excel reads a file as UTF-8 only when it starts with the byte order mark; without it æ, ø, å come out
# garbled. LibreOffice and Python's csv module (encoding "utf-8-sig") read it too.
BOM = "\ufeff"
# Norwegian Excel opens a double-clicked CSV file by the list separator of the Windows region
# settings, which in Norway is ';' (the decimal separator is ','); a file separated by ',' lands in
# one column. LibreOffice asks on opening and offers ';'. No "sep=;" first line: with it Excel
# ignores the byte order mark and garbles the letters.
DELIMITER = ";"
# Norwegian Excel reads a decimal number with a comma; with a point it reads text or a date.
DECIMAL_MARK = ","
# A text cell starting with one of these is a formula to a spreadsheet (a team named "=HYPERLINK(…)"):
# written after an apostrophe, so it stays text (OWASP's "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Norwegian letters a file name spells in ASCII (slugify drops what it cannot decompose, as ø and æ).
ASCII_LETTERS = str.maketrans({"æ": "ae", "ø": "o", "å": "a", "Æ": "Ae", "Ø": "O", "Å": "A"})

Cell = str | int | float | date | datetime | None


def cell(value: Cell) -> str | int:
    """A value as the file holds it: yes or no in words, whole numbers bare (no thousands separator, no "gp"), decimals
    with a comma, a date as 2026-03-14, a time as 2026-03-14 19:05:00 in the league's time zone (the
    space instead of ISO's "T": spreadsheets read that as a date and time), nothing as an empty cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(_("Yes") if value else _("No"))
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return f"{value:.1f}".replace(".", DECIMAL_MARK)
    if isinstance(value, datetime):
        return timezone.localtime(value).replace(tzinfo=None).isoformat(sep=" ", timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def file_name(*parts: str) -> str:
    """`torshov-tabell-2026.csv` from ("torshov", "tabell", "2026"): lower case ASCII, dashes."""
    slug = slugify("-".join(str(part) for part in parts).translate(ASCII_LETTERS))
    return f"{slug or 'eksport'}.csv"


def csv_response(headers: Sequence[str], rows: Iterable[Sequence[Cell]], name: str) -> HttpResponse:
    """The rows under their headers (translated in the request's language) as a CSV attachment."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=DELIMITER, lineterminator="\r\n")
    writer.writerow([str(header) for header in headers])
    writer.writerows([cell(value) for value in row] for row in rows)
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=name)
    return response


def refused(message: str, status: int = 400) -> HttpResponse:
    """A download asked for with parameters no page links to: the reason as plain text, in the
    visitor's language, instead of a file (a 400, or a 404 for what does not exist)."""
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
