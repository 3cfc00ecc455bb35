"""Paper at the table: the roster ("Ditt Lag") of the demo league's fullest team, with its blank rows up to a
full squad, and the referee sheet (Dommerskjema) of one of its matches, each printed by Chromium on one A4
portrait sheet, with nothing past the right edge of the page and no cell's text wider than its cell."""

import re

import pytest
from django.db.models import Q

from matches.models import Match
from teams.models import Player, Team

# A4 portrait less print.css's 10 mm margins, in CSS pixels (96 a inch): 190 mm by 277 mm.
PAGE_WIDTH, PAGE_HEIGHT = 190 / 25.4 * 96, 277 / 25.4 * 96

CUT = """(width) => [...document.querySelectorAll('main *')]
    .filter(e => e.getClientRects().length > 0)
    .filter(e => e.getBoundingClientRect().right > width + 0.5
              || (e.matches('td, th') && e.scrollWidth > e.clientWidth))
    .slice(0, 5).map(e => `${e.tagName}.${e.className} "${e.textContent.trim().slice(0, 20)}"`)"""


def sheets(pdf: bytes) -> int:
    """The PDF's pages: its /Page objects, not the /Pages tree that holds them."""
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def printed(page, url: str) -> dict:
    page.goto(url)
    pdf = page.pdf(format="A4")  # before any media emulation: page.pdf prints with the page's print styles
    page.set_viewport_size({"width": round(PAGE_WIDTH), "height": round(PAGE_HEIGHT)})
    page.emulate_media(media="print")
    return {"sheets": sheets(pdf), "cut": page.evaluate(CUT, PAGE_WIDTH)}


def fullest_team() -> Team:
    return max(Team.objects.order_by("name"), key=lambda t: Player.objects.on_roster().filter(team=t).count())


def fill_squad(team: Team) -> None:
    """The team hired up to a full squad, the newcomers with long names (two lines on the sheet) and the
    position of its last player: the most a sheet has to hold."""
    roster = list(Player.objects.on_roster().filter(team=team).order_by("number"))
    last, squad = roster[-1], team.ruleset.rules.settings.max_squad
    for n in range(len(roster), squad):
        number = last.number + 1 + n
        name = f"Bartholomew «Tordenbraket» {number}"
        Player.objects.create(team=team, position=last.position, name=name, number=number)


SQUADS = pytest.mark.parametrize("full", [False, True], ids=["as-the-demo-has-it", "full-squads"])
# The referee sheet of the demo's squads as they are: its full squads above are the most it has to hold
REFEREE_SQUADS = pytest.mark.parametrize(
    "full", [pytest.param(False, marks=pytest.mark.long), True], ids=["as-the-demo-has-it", "full-squads"]
)


@SQUADS
def test_the_roster_prints_on_one_a4_sheet_with_a_full_squad_of_rows(page, demo_league, full):
    team = fullest_team()
    if full:
        fill_squad(team)
    assert printed(page, f"/teams/{team.pk}/") == {"sheets": 1, "cut": []}
    squad = team.ruleset.rules.settings.max_squad
    rows = page.locator(".roster-cards tbody tr")
    blank = page.locator(".roster-cards tbody tr.blank-row").count()
    assert rows.count() == squad and (blank == 0 if full else 0 < blank < squad)
    assert all(rows.nth(n).is_visible() for n in range(squad))
    panels = page.locator(".sheet-panels > table")
    assert panels.count() == 3
    for n in range(3):  # the summary boxes whole, beside each other, on the sheet
        box = panels.nth(n).bounding_box()
        assert box["y"] + box["height"] <= PAGE_HEIGHT and box["x"] + box["width"] <= PAGE_WIDTH


@REFEREE_SQUADS
def test_the_referee_sheet_prints_on_one_a4_sheet(page, demo_league, full):
    team = fullest_team()
    both = Match.objects.filter(Q(home=team) | Q(away=team), home__isnull=False, away__isnull=False)
    match = both.filter(status=Match.Status.SCHEDULED).order_by("round", "pk").first()
    if full:
        fill_squad(match.home)
        fill_squad(match.away)
    assert printed(page, f"/matches/{match.pk}/sheet/") == {"sheets": 1, "cut": []}
    # no squad picked yet: the whole roster, its boxes filled in by hand at the table
    mine = page.locator(".sheet-squads table", has=page.locator("caption", has_text=team.name))
    assert mine.locator("tbody tr").count() == Player.objects.on_roster().filter(team=team).count()
