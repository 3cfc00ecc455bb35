"""A team's roster ("Ditt Lag") and its treasury ledger as CSV files, read by the selectors
their pages read: the file's numbers are the page's. The ledger's file is for whom its page is for."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_GET

from league.accounts import display_name, sees_private
from league.lib.csv_files import csv_response, file_name
from teams.models import Team, TreasuryEntry
from teams.selectors import choice_label, ledger_entries, roster_sheet

# The sheet's columns (templates/teams/team_detail.html): the game's abbreviations as the sheet prints
# them, words translated; the casualties by foul a column of their own (the sheet writes "2+1f").
ROSTER_HEADERS = (
    gettext_lazy("Number"),
    gettext_lazy("Player name"),
    gettext_lazy("Position"),
    "MA",
    "ST",
    "AG",
    "AV",
    gettext_lazy("Skills"),
    gettext_lazy("Injuries"),
    "COM",
    "TD",
    "INT",
    "CAS",
    gettext_lazy("Foul casualties"),
    "MVP",
    "SPP",
    gettext_lazy("Skill points"),
    gettext_lazy("Value"),
)


@require_GET
def team_roster_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The team page's roster, a line per player; public, as the page is."""
    sheet = roster_sheet(pk)
    rows = []
    for line in sheet.lines:
        p = line.player
        rows.append(
            [
                p.number,
                p.name,
                p.position.name,
                p.ma,
                p.st,
                p.ag,
                p.av,
                ", ".join(line.skills),
                ", ".join(line.injuries),
                p.completions,
                p.touchdowns,
                p.interceptions,
                p.casualties,
                p.foul_casualties,
                p.mvps,
                line.spp,
                line.skill_points,
                line.value,
            ]
        )
    name = file_name("torshov", pgettext("file name", "roster"), sheet.team.name)
    return csv_response(ROSTER_HEADERS, rows, name)


LEDGER_HEADERS = (
    "#",
    gettext_lazy("When"),
    gettext_lazy("What"),
    gettext_lazy("Kind"),
    gettext_lazy("Amount"),
    gettext_lazy("Balance"),
    gettext_lazy("By"),
)


@require_GET
def team_ledger_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Every entry of the team's ledger, the newest first as on its page; for members, as the page
    (league.accounts.sees_private: coaches and the board, everyone when the board publishes it)."""
    if not sees_private(request.user):
        return redirect_to_login(request.get_full_path())
    team = get_object_or_404(Team.objects.only("id", "name"), pk=pk)
    rows = [
        [
            e.seq,
            e.created_at,
            e.text,
            choice_label(TreasuryEntry.Kind, e.kind),
            e.amount,
            e.balance,
            display_name(e.created_by) or None,
        ]
        for e in ledger_entries(team)
    ]
    return csv_response(LEDGER_HEADERS, rows, file_name("torshov", pgettext("file name", "ledger"), team.name))
