"""{% match_lines matches %}: the lines of a match list ("Home 2–1 Away"), built in Python.

The front page lists sixteen, a season's fixtures hundreds; an included template a line cost more
than the page's reads of them (issue 16). The markup is the one `league/_match_line.html` wrote.
The matches are the board's rows (`league.selectors.season_board`): dicts with their teams' names.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django import template
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()

_PK = 2_147_483_647  # stands in for the match's id: one reverse() per list, not one per line


def _name(name: str | None) -> str:
    return escape(name) if name else "?"  # a cup match waits for the winner of another


@register.simple_tag
def match_lines(matches: list[dict[str, Any]]) -> SafeString:
    head, tail = escape(reverse("match", args=[_PK])).split(str(_PK))
    bye, cup = escape(gettext("bye")), escape(gettext("Cup"))  # outside f-strings, where makemessages finds them
    bye = f' <span class="muted">({bye})</span>'
    cup = f' <span class="badge">{cup}</span>'
    lines = []
    for m in matches:
        status = m["status"]
        score = f"<strong>{m['home_score']}–{m['away_score']}</strong>" if status == "confirmed" else "–"
        away = bye if status == "bye" else f" {_name(m['away_name'])}"
        date = f' <span class="muted">{escape(date_format(m["date"], "MONTH_DAY_FORMAT"))}</span>' if m["date"] else ""
        lines.append(
            f'<li class="match-line"><a href="{head}{m["id"]}{tail}">{_name(m["home_name"])} {score}{away}</a>'
            f"{cup if m['cup_id'] else ''}{date}</li>\n"
        )
    # Scores are ints from the rows; names and words are escaped.
    return mark_safe("".join(lines))
