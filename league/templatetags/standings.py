"""{% standings_table table %}: a division's table, built in Python.

A big league's standings page shows ten tables, 200 lines of 14 values; the template engine took
about 12 ms to render their lines and 1 ms more for the tables' headers, and this takes about 1 in
all. Django's admin builds its change list's cells the same way (`admin_list.items_for_result`).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop

if TYPE_CHECKING:
    from league.selectors import DivisionTable

register = template.Library()

_TABLE = """
<div class="table-wrap">
<table class="compact standings">
  <caption>{caption}</caption>
  <thead><tr>
    <th class="num" title="{position}">#</th><th>{team}</th>
    <th class="num" title="{played}">{p}</th><th class="num" title="{won}">{w}</th>
    <th class="num" title="{drawn}">{d}</th><th class="num" title="{lost}">{l}</th>
    <th class="num" title="{touchdowns}">TD</th><th class="num" title="{difference}">+/\u2212</th>
    <th class="num hide-narrow" title="{casualties}">CAS</th><th class="num">{pts}</th>
  </tr></thead>
  <tbody>{rows}</tbody>
</table>
</div>
"""
_HEADERS = {  # the header's words: the key in _TABLE, the message (marked for makemessages, translated per table)
    "position": gettext_noop("Position"),
    "team": gettext_noop("Team"),
    "played": gettext_noop("Played"),
    "p": gettext_noop("P"),
    "won": gettext_noop("Won"),
    "w": gettext_noop("W"),
    "drawn": gettext_noop("Drawn"),
    "d": gettext_noop("D"),
    "lost": gettext_noop("Lost"),
    "l": gettext_noop("L"),
    "touchdowns": gettext_noop("Touchdowns for and against"),
    "difference": gettext_noop("Touchdown difference"),
    "casualties": gettext_noop("Casualties caused and suffered"),
    "pts": gettext_noop("Pts"),
}
_NO_TEAMS = '\n    <tr><td colspan="10" class="muted">{}</td></tr>'
_ROW = (
    '<tr{tied_class}><td class="num">{position}{tie_mark}</td>'
    '<td><a href="{url}">{name}</a> <span class="muted hide-narrow">{race}</span></td>'
    '<td class="num">{played}</td><td class="num">{won}</td><td class="num">{drawn}</td><td class="num">{lost}</td>'
    '<td class="num">{touchdowns_for}–{touchdowns_against}</td><td class="num">{touchdown_difference:+d}</td>'
    '<td class="num hide-narrow">{casualties_for}–{casualties_against}</td>'
    '<td class="num"><strong>{points}</strong></td>'
    "</tr>"
)
_PK = 2_147_483_647  # stands in for the team's id: one reverse() per table, not one per line


@register.simple_tag
def standings_table(table: DivisionTable) -> SafeString:
    words = {key: escape(gettext(message)) for key, message in _HEADERS.items()}
    no_teams = gettext("No teams yet.")
    rows = standings_rows(table) if table.ranked else _NO_TEAMS.format(escape(no_teams))
    return mark_safe(_TABLE.format(caption=escape(table.division.name), rows=rows, **words))


def standings_rows(table: DivisionTable) -> str:
    head, tail = escape(reverse("team", args=[_PK])).split(str(_PK))
    rows = []
    for line, team in table.ranked:
        tied = line.tied
        rows.append(
            _ROW.format(
                position=line.position,
                played=line.played,
                won=line.won,
                drawn=line.drawn,
                lost=line.lost,
                touchdowns_for=line.touchdowns_for,
                touchdowns_against=line.touchdowns_against,
                touchdown_difference=line.touchdown_difference,
                casualties_for=line.casualties_for,
                casualties_against=line.casualties_against,
                points=line.points,
                tied_class=' class="tied"' if tied else "",
                tie_mark="=" if tied else "",
                url=f"{head}{team.pk}{tail}",
                name=escape(team.name),
                race=escape(team.race_name),
            )
        )
    # Numbers come from the kept rows as ints (format's {:+d} fails on anything else); names are escaped.
    return "".join(rows)
