"""The demo league's cup drawn as a bracket (R34), at 390 and 1280 px in Norwegian: the rounds side by side on
a desktop and one under the other on a phone, no serious axe violation, and each played tie's winner, read from
the database here, drawn bold and marked "videre" on the one side, a bye's team likewise beside "frirunde"."""

from itertools import pairwise

import pytest
from axe_playwright_python.sync_playwright import Axe

from matches.models import Match
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility_browser import WIDTHS, serious


def winner(m: Match):
    """The team through, by the rule as the rulebook says it (R34), not by the app's own helper."""
    if m.status == Match.Status.BYE:
        return m.home
    if m.home_score != m.away_score:
        return m.home if m.home_score > m.away_score else m.away
    return m.tiebreak_winner


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_the_cup_is_a_bracket_that_marks_who_went_through(new_page, demo_league, width):
    season = demo_league
    page = new_page()
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"/seasons/{season.pk}/cup/")
    screenshot(page, f"cup-bracket-{width}")

    rounds = page.locator(".bracket-round")
    names = rounds.locator("h3").all_inner_texts()
    assert names == ["Runde 1", "Kvartfinale", "Semifinale", "Finale"]
    boxes = [rounds.nth(n).bounding_box() for n in range(len(names))]
    if width == "desktop":  # left to right, side by side
        assert all(a["x"] + a["width"] <= b["x"] and a["y"] == b["y"] for a, b in pairwise(boxes))
    else:  # one under the other, none wider than the phone
        assert all(a["y"] + a["height"] <= b["y"] and a["x"] == b["x"] for a, b in pairwise(boxes))
        assert all(box["x"] + box["width"] <= WIDTHS["phone"]["width"] for box in boxes)
    assert rounds.nth(0).locator(".tie").count() == 8 and rounds.nth(3).locator(".tie").count() == 1

    decided = Match.objects.filter(cup=season.cup, status__in=[Match.Status.CONFIRMED, Match.Status.BYE])
    assert decided.filter(tiebreak_winner__isnull=False).exists() and decided.filter(status=Match.Status.BYE).exists()
    for m in decided.select_related("home", "away", "tiebreak_winner"):
        tie = page.locator(f'a.tie__box[href="/matches/{m.pk}/"]')
        assert tie.locator(".tie__team--winner").count() == 1, m
        marked = tie.locator(".tie__team--winner")
        assert marked.locator(".tie__name").inner_text() == winner(m).name
        assert marked.locator(".tie__mark").inner_text() == "videre"
        assert marked.locator(".tie__name").evaluate("e => getComputedStyle(e).fontWeight") == "700"
        if m.status == Match.Status.BYE:
            assert tie.locator(".tie__team").nth(1).inner_text() == "frirunde"
        elif m.tiebreak_winner_id:
            note = f"{m.home_score}–{m.away_score}, {winner(m).name} videre etter tiebreak"
            assert tie.locator(".tie__note").inner_text() == note
        else:
            assert tie.locator(".tie__score").all_inner_texts() == [str(m.home_score), str(m.away_score)]

    assert serious(Axe(), page) == []
