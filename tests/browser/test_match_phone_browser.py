"""The match read at a glance on a phone (issue 26): a played match's page and the report form at 390 px,
with nothing wider than the screen, not even inside a box that scrolls, and report fields a thumb can hit."""

import re

from django.db.models import Q
from playwright.sync_api import expect

from matches.models import Match, PlayerMatch
from teams.models import Team
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_phone_browser import PHONE, log_in


def wider_than(page, width: int) -> list[str]:
    """Every element shown whose right edge passes the screen, a scrolling table's cells included (a closed
    <details>, the match's history, shows nothing)."""
    return page.evaluate(
        """(width) => [...document.querySelectorAll('body *')]
            .filter(e => !e.closest('details:not([open]) > :not(summary)'))
            .filter(e => { const r = e.getBoundingClientRect(); return r.right > width + 0.5 && r.width > 0; })
            .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""",
        width,
    )


def card_heights(page, selector: str) -> list[float]:
    return page.locator(selector).evaluate_all("rows => rows.map(r => r.getBoundingClientRect().height)")


def test_a_played_match_reads_on_a_phone(new_page, demo_league):
    played = Match.objects.filter(status=Match.Status.CONFIRMED).order_by("pk").first()
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto(f"/matches/{played.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert wider_than(page, PHONE["width"]) == []
    # each team under its own name, its players' cards below it, every one with its MVP
    expect(page.locator("h3.report-team")).to_have_text([played.home.name, played.away.name])
    for team in (played.home, played.away):
        cards = page.get_by_role("table", name=team.name).locator("tbody tr")
        expect(cards).to_have_count(PlayerMatch.objects.filter(match=played, team=team).count())
        expect(cards.first.locator("td[data-label=MVP]")).to_be_visible()
    # a player with an injury takes one line more than one without, not four times the room
    heights = card_heights(page, "table.report-lines tbody tr")
    hurt = card_heights(page, "table.report-lines tbody tr:has(td.card-injuries:not(:empty))")
    if hurt:
        assert max(hurt) < 1.5 * min(heights)
    # the weather die says what it gave
    weather = page.locator("table.dice-table tbody tr", has_text="Vær").first
    expect(weather.locator("td.dice-result")).not_to_be_empty()
    page.screenshot(path=str(ARTIFACTS / "phone-match-read.png"), full_page=True)


def test_the_report_form_takes_a_thumb(new_page, demo_league):
    team = Team.objects.get(coach__username="kari")
    coming = (
        Match.objects.filter(Q(home=team) | Q(away=team), status=Match.Status.SCHEDULED, division__isnull=False)
        .order_by("round", "pk")
        .first()
    )
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "kari")
    page.goto(f"/matches/{coming.pk}/report/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert wider_than(page, PHONE["width"]) == []
    expect(page.locator(".report-form h2")).to_have_text([coming.home.name, coming.away.name])
    sizes = page.locator(".report-cards input[type=number], .report-cards select").evaluate_all(
        "fields => fields.map(f => [f.name, f.getBoundingClientRect().width, f.getBoundingClientRect().height])"
    )
    assert sizes
    assert [s for s in sizes if s[1] < 32 or s[2] < 43.5] == []  # 44 px high (2.75rem), 32 px wide at least
    # one player a card: the cards stand one under the other
    tops = card_heights(page, ".report-cards tbody tr")
    lefts = page.locator(".report-cards tbody tr").evaluate_all("rows => rows.map(r => r.getBoundingClientRect().left)")
    assert len(set(round(x) for x in lefts)) == 1 and min(tops) > 0
    page.screenshot(path=str(ARTIFACTS / "phone-report-form-thumb.png"), full_page=True)


def test_the_post_match_steps_read_on_a_phone(new_page, demo_league):
    """A walked sequence of the demo league: the SPP step's players and the purchases fit the screen."""
    team = Team.objects.get(coach__username="kari")
    played = Match.objects.for_team(team).filter(status=Match.Status.CONFIRMED).order_by("pk").first()
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "kari")
    page.goto(f"/matches/{played.pk}/after/{team.pk}/")
    assert wider_than(page, PHONE["width"]) == []
    expect(page.locator("#step-injuries .healer-price")).to_contain_text("per forsøk")
    expect(page.locator("#step-development")).to_contain_text(re.compile("SPP i alt|Ingen spiller fikk SPP"))
    expect(page.locator("#step-purchases")).to_contain_text("Kassen etter kjøpene")
    page.screenshot(path=str(ARTIFACTS / "phone-postmatch.png"), full_page=True)
