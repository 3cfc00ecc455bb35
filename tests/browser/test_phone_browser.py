"""Phone first (issue 12): every page a coach reaches fits a 390 px screen; no box covers another on a desktop."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from matches.models import Match
from teams.models import Player, Team
from tests.browser.conftest import ARTIFACTS, log_in

PHONE = {"width": 390, "height": 844}
# Set SCREENSHOTS=docs/screenshots to refresh the README's pictures.
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS", ARTIFACTS))


def pages_of(season):
    played = Match.objects.filter(season=season, status=Match.Status.CONFIRMED).order_by("pk").first()
    coming = (  # a league fixture: its round is the board's number field (a cup round is fixed)
        Match.objects.filter(season=season, status=Match.Status.SCHEDULED, division__isnull=False)
        .order_by("pk")
        .first()
    )
    # the widest roster: the longest skill lists and names
    team = Team.objects.get(name="Alexander Kiellands Mummies")
    player = Player.objects.filter(team=team).order_by("number").first()
    return {
        "home": "/",
        "standings": "/standings/",
        "matches": "/matches/",
        "match-played": f"/matches/{played.pk}/",
        "match-coming": f"/matches/{coming.pk}/",
        "referee-sheet": f"/matches/{played.pk}/sheet/",
        "teams": "/teams/",
        "roster": f"/teams/{team.pk}/",
        "ledger": f"/teams/{team.pk}/ledger/",
        "history": f"/teams/{team.pk}/history/",
        "player": f"/players/{player.pk}/",
        "races": "/races/",
        "race": f"/races/{team.race.slug}/",
        "rules": "/rules/",
        "seasons": "/seasons/",
        "season": f"/seasons/{season.pk}/",
        "cup": f"/seasons/{season.pk}/cup/",
        "api": "/api/",
    }


def too_wide(page, width):
    return page.evaluate(
        """(width) => [...document.querySelectorAll('body *')]
            .filter(e => { const r = e.getBoundingClientRect(); return r.right > width + 0.5 && r.width > 0; })
            .filter(e => !e.closest('.table-wrap, .bracket'))
            .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""",
        width,
    )


def small_targets(page):
    """Buttons, fields and the navigation under 44 px high (touch targets), and number fields without a number pad."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
                '.site-nav a, .site-nav button, .language-switch button, .button, button, select, '
                + 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), .todo__link')]
            .filter(e => e.offsetParent !== null && !e.closest('.no-touch'))
            .filter(e => e.getBoundingClientRect().height < 43.5
                || (e.type === 'number' && e.getAttribute('inputmode') !== 'numeric'))
            .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || e.name).trim().slice(0, 30)
                + ' ' + Math.round(e.getBoundingClientRect().height))"""
    )


def test_every_page_fits_a_phone(new_page, demo_league):
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "astrid")  # a coach: his own page and the nav with "Mitt lag"
    mine = Team.objects.get(coach__username="astrid")
    urls = {"my": "/my/", "manage": f"/teams/{mine.pk}/manage/", **pages_of(demo_league)}  # manage: issue 26
    wide = {}
    small = {}
    unhinted = {}
    for name, url in urls.items():
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide[name] = (width, too_wide(page, PHONE["width"]))
        if targets := small_targets(page):
            small[name] = targets
        if boxes := scrolling_without_a_hint(page):
            unhinted[name] = boxes
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        wide["login"] = (width, too_wide(page, PHONE["width"]))
    # the board's forms on a phone: the fixture's round and the season page's round get a number pad
    log_in(page, "styret")
    for name in ("match-coming", "season"):
        page.goto(urls[name])
        assert page.locator("input[type=number]").count() > 0
        if targets := small_targets(page):
            small[f"board {name}"] = targets
    assert wide == {}
    assert small == {}
    assert unhinted == {}  # a box that scrolls sideways says so (issue 26)
    page.goto(urls["cup"])  # the bracket round by round on a phone: nothing to swipe, so no hint
    assert page.locator(".bracket").evaluate("b => b.scrollWidth <= b.clientWidth")
    expect(page.locator(".scroll-hint")).to_have_count(0)


def scrolling_without_a_hint(page) -> int:
    """Tables and brackets wider than their box with no "Sveip sideveis" above them (issue 26)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.table-wrap, .bracket')]
            .filter(b => b.scrollWidth > b.clientWidth + 2)
            .filter(b => !(b.previousElementSibling && b.previousElementSibling.classList.contains('scroll-hint')))
            .length"""
    )


@pytest.mark.long  # the README's pictures; every page's fit is checked above
def test_screenshots_on_a_phone(new_page, demo_league):
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "kari")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto("/my/")
    page.screenshot(path=str(SCREENSHOTS / "phone-my-team.png"), full_page=True)
    kari_team = Team.objects.get(coach__username="kari")
    page.goto(f"/teams/{kari_team.pk}/")
    page.screenshot(path=str(SCREENSHOTS / "phone-roster.png"), full_page=True)
    played = Match.objects.filter(status=Match.Status.CONFIRMED).order_by("pk").first()
    page.goto(f"/matches/{played.pk}/")
    page.screenshot(path=str(SCREENSHOTS / "phone-match.png"), full_page=True)
    coming = (
        Match.objects.for_team(kari_team)
        .filter(status=Match.Status.SCHEDULED, division__isnull=False)
        .order_by("round", "pk")
        .first()
    )
    page.goto(f"/matches/{coming.pk}/report/")  # the report form, one card a player (issue 26)
    page.screenshot(path=str(SCREENSHOTS / "phone-report-form.png"), full_page=True)


@pytest.mark.parametrize("width", [1280, pytest.param(1920, marks=pytest.mark.long)])
def test_no_box_covers_another_on_a_desktop_roster(new_page, make_teams, width):
    from teams.services import buy_apothecary

    [team] = make_teams(1)
    buy_apothecary(team, by=team.coach)  # the staff table's longest rows
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"/teams/{team.pk}/")
    overlaps = page.evaluate(
        """() => {
            const boxes = [...document.querySelectorAll('.sheet-panels > *')].map(e => e.getBoundingClientRect());
            const hits = [];
            for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
                const a = boxes[i], b = boxes[j];
                const apart = a.right - 0.5 <= b.left || b.right - 0.5 <= a.left
                    || a.bottom - 0.5 <= b.top || b.bottom - 0.5 <= a.top;
                if (!apart) hits.push([i, j]);
            }
            return hits;
        }"""
    )
    assert overlaps == []
    # every panel's cells lie inside its own panel: the staff table's "Verdi" is not under the stadium box
    spill = page.evaluate(
        """() => [...document.querySelectorAll('.sheet-panels > table')].filter(t => t.scrollWidth > t.clientWidth + 1
            || t.getBoundingClientRect().right > t.parentElement.getBoundingClientRect().right + 0.5).length"""
    )
    assert spill == 0


# A4 portrait less the print margins (print.css), in CSS pixels at 96 per inch: 190 mm.
A4_PORTRAIT = round(190 / 25.4 * 96)


@pytest.mark.long  # both sheets print on one A4 sheet, nothing cut, in tests/browser/test_print_browser.py
@pytest.mark.parametrize("sheet", ["referee", "roster"])
def test_the_printed_sheets_fit_a4(new_page, demo_league, sheet):
    page = new_page()
    width = A4_PORTRAIT
    page.set_viewport_size({"width": width, "height": 1000})
    page.emulate_media(media="print")
    team = Team.objects.get(name="Alexander Kiellands Mummies")
    coming = Match.objects.filter(status=Match.Status.SCHEDULED, home=team).first()
    page.goto(f"/matches/{coming.pk}/sheet/" if sheet == "referee" else f"/teams/{team.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    right = page.evaluate(
        "Math.max(...[...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right))"
    )
    assert right <= width
    if sheet == "referee":  # no online pre-match: both rosters to fill by hand
        assert page.locator("table.sheet tbody tr").count() == sum(
            Player.objects.on_roster().filter(team=t).count() for t in (coming.home, coming.away)
        )
    else:  # a row to write in for every place left on the roster, 16 in all (issue 26)
        rows = page.locator("table.roster-cards tbody tr")
        shown = rows.evaluate_all("rows => rows.filter(r => getComputedStyle(r).display !== 'none').length")
        assert shown == 16 and rows.count() == 16
    page.screenshot(path=str(ARTIFACTS / f"print-{sheet}.png"), full_page=True)


def test_the_paper_sheets_blank_lines_are_no_cards_on_a_phone(new_page, demo_league):
    """The team page on a phone shows a card a player and nothing after them: the blank lines to write in
    are the printed sheet's (issue 26), hidden on screen also where the roster's rows are cards."""
    page = new_page()
    page.set_viewport_size(PHONE)
    team = Team.objects.get(name="Alexander Kiellands Mummies")
    page.goto(f"/teams/{team.pk}/")
    rows = page.locator("table.roster-cards tbody tr")
    shown = rows.evaluate_all("rows => rows.filter(r => getComputedStyle(r).display !== 'none').length")
    assert 0 < shown == Player.objects.on_roster().filter(team=team).count() < rows.count() == 16
