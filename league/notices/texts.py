"""A notification's words, rendered from its kind and parameters in the reader's language: the
inbox in the page's language, an e-mail in its recipient's. Nothing here is stored as a sentence.

Parameters are the values the writing service knew (a match's teams, a score, a team's name); `date` and
`dates` (ISO 8601 dates or date-times, several separated by commas) are written the reader's way."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from league.models import Notification

Kind = Notification.Kind

SENTENCES = {
    Kind.REPORT_FILED: N_("%(team)s filed the report of %(match)s (%(score)s): confirm or dispute it."),
    Kind.REPORT_CONFIRMED: N_("Your report of %(match)s (%(score)s) is confirmed."),
    Kind.REPORT_DISPUTED: N_("Your report of %(match)s is disputed: %(comment)s"),
    Kind.FIXTURE_SCHEDULED: N_("New fixture: %(match)s, %(date)s."),
    Kind.DATE_PROPOSED: N_("%(by)s proposes dates for %(match)s: %(dates)s."),
    Kind.DATE_ACCEPTED: N_("%(by)s accepted %(date)s for %(match)s."),
    Kind.DATE_CHANGED: N_("%(match)s is now on %(date)s."),
    Kind.PREMATCH_REMINDER: N_("%(match)s is on %(date)s: walk the pre-match sequence."),
    Kind.POSTMATCH_REMINDER: N_("%(match)s: the post-match sequence of %(team)s is unfinished."),
    Kind.BOARD_MESSAGE: N_("The board: %(subject)s"),
    Kind.REPLAY_SCHEDULED: N_("%(match)s was voided and is played again, in round %(round)s."),
    Kind.DISPUTE_TO_SETTLE: N_("The report of %(match)s (%(score)s) is disputed: %(comment)s. The board settles it."),
    Kind.REOPENED_OVERDUE: N_(
        "The reopened report of %(match)s still waits for %(name)s to file it again: the board may file it itself."
    ),
}
# board_ruled: one sentence per ruling (params["ruling"]).
RULINGS = {
    "file": N_("The board filed the report of %(match)s (%(score)s): confirm or dispute it."),
    "confirm": N_("The board confirmed the report of %(match)s (%(score)s)."),
    "void": N_("The board voided %(match)s."),
    "reopen": N_("The board reopened your report of %(match)s: correct it and file it again."),
    "reopen_waits": N_("The board reopened the report of %(match)s: it waits for %(name)s to file it again."),
    "correct": N_("The board corrected the report of %(match)s (%(score)s)."),
    "settle": N_("The board settled the report of %(match)s: %(score)s counts. Walk your post-match sequence."),
    "forfeit": N_("The board recorded the forfeit of %(team)s in %(match)s (R35)."),
}


class _Params(dict):
    """A missing parameter reads "?" rather than failing a whole inbox."""

    def __missing__(self, key: str) -> str:
        return "?"


def _when(value: str) -> str:
    try:
        parsed: date | datetime = datetime.fromisoformat(value)
    except ValueError:
        return value
    if isinstance(parsed, datetime) and (parsed.hour or parsed.minute or "T" in value or " " in value):
        if timezone.is_aware(parsed):
            parsed = timezone.localtime(parsed)
        return formats.date_format(parsed, "DATETIME_FORMAT")
    return formats.date_format(parsed.date() if isinstance(parsed, datetime) else parsed, "DATE_FORMAT")


def _values(params: dict[str, Any]) -> _Params:
    values = _Params(params)
    if isinstance(params.get("date"), str):
        values["date"] = _when(params["date"])
    if isinstance(params.get("dates"), str):
        values["dates"] = ", ".join(_when(d.strip()) for d in params["dates"].split(",") if d.strip())
    for key, value in params.items():
        if isinstance(value, int) and not isinstance(value, bool):
            values[key] = formats.number_format(value, force_grouping=value >= 10000)
    return values


def sentence(kind: str, params: dict[str, Any]) -> str:
    """The notification in one sentence, in the active language."""
    msgid = RULINGS.get(params.get("ruling", ""), RULINGS["void"]) if kind == Kind.BOARD_RULED else SENTENCES.get(kind)
    if msgid is None:
        return str(Kind(kind).label) if kind in Kind.values else kind
    return _(msgid) % _values(params)


def details(kind: str, params: dict[str, Any]) -> str:
    """More than the sentence: the board's message itself."""
    return str(params.get("text", "")) if kind == Kind.BOARD_MESSAGE else ""
