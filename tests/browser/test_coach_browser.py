"""A visitor follows a team of the demo league to its coach's page and his head-to-head, and the seasons
list to the league's champions and on to an ended season, at 390 and 1280 px in Norwegian: the record's
chart drawn and its numbers those of the matches (read again here), each champion linked to his team and
coach, no serious axe violation, nothing wider than the screen, no English sentence, and no coach's
username on either page."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.db.models import Q
from playwright.sync_api import expect

from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.season_end import commit_season_end
from matches.models import Match
from teams.models import Team
from tests import factories
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility_browser import WIDTHS, english_words, serious
from tests.results import record_result

# The desktop's width of each is `long`: the phone's runs in `make test` and reads the same page.
BOTH_WIDTHS = ["phone", pytest.param("desktop", marks=pytest.mark.long)]


def _record(team_ids: set[int], against=None) -> list[str]:
    """Played, S, U, T of these teams' confirmed matches (or of `against`, some of them), by the score (a
    drawn cup match by its tiebreak winner, R34)."""
    letters = []
    mine = Match.objects.filter(status=Match.Status.CONFIRMED).filter(Q(home_id__in=team_ids) | Q(away_id__in=team_ids))
    for m in mine if against is None else against:
        mine, theirs = (m.home_score, m.away_score) if m.home_id in team_ids else (m.away_score, m.home_score)
        if mine == theirs and m.tiebreak_winner_id:
            letters.append("S" if m.tiebreak_winner_id in team_ids else "T")
        else:
            letters.append("S" if mine > theirs else "T" if mine < theirs else "U")
    return [str(len(letters)), *(str(letters.count(x)) for x in "SUT")]


@pytest.mark.parametrize("width", BOTH_WIDTHS)
def test_a_visitor_reads_a_coachs_career_from_his_team(new_page, demo_league, width):
    team = Team.objects.get(name="Torshov Trolls")  # coached by "kari", a name no Norwegian sentence holds
    assert Match.objects.confirmed().filter(Q(home=team) | Q(away=team), season=demo_league).exists()
    page = new_page()
    page.set_viewport_size(WIDTHS[width])
    page.goto(team.get_absolute_url())
    page.get_by_role("link", name="trenerens side").click()
    teams = list(Team.objects.filter(coach=team.coach).order_by("name"))
    expect(page.locator("h1")).to_have_text(f"Treneren for {', '.join(t.name for t in teams)}")
    chart = page.locator("svg.record-chart")
    expect(chart).to_be_visible()
    assert chart.locator("rect").count() >= 1
    total = page.locator("table.coach-seasons tfoot tr").first.locator("td").all_inner_texts()
    assert total[:4] == _record({t.pk for t in teams})
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["width"]
    assert re.search(rf"\b{team.coach.username}\b", page.locator("main").inner_text(), re.I) is None
    assert english_words(page) == []
    assert serious(Axe(), page) == []
    screenshot(page, f"coach-{width}")

    # the head-to-head by its plain GET form, against the coach of a match's other team
    match = Match.objects.confirmed().filter(home=team).select_related("away").first()
    page.get_by_label("Mot").select_option(str(match.away.coach_id))
    page.get_by_role("button", name="Vis").click()
    expect(page.locator("h1")).to_have_text(f"Treneren for Torshov Trolls mot treneren for {match.away.name}")
    met = Match.objects.confirmed().filter(
        Q(home__coach=team.coach, away__coach=match.away.coach)
        | Q(home__coach=match.away.coach, away__coach=team.coach)
    )
    expect(page.locator("table.vs-match-list tbody tr")).to_have_count(met.count())
    summary = page.locator("table.vs-summary tbody td").all_inner_texts()
    assert summary[:4] == _record({t.pk for t in teams}, against=met)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["width"]
    assert serious(Axe(), page) == []
    screenshot(page, f"coach-vs-{width}")


@pytest.mark.parametrize("width", BOTH_WIDTHS)
def test_a_visitor_reads_the_leagues_champions(new_page, width):
    board = factories.user("styret", board=True, coach=False)
    season, _teams = factories.season_with(2, 2, name="Sesong 2025")
    for division in season.divisions.all():
        generate_fixtures(division)
    for match in Match.objects.filter(season=season):  # the team first made wins at home, draws away
        first_at_home = match.home_id < match.away_id
        record_result(match, home_score=2 if first_at_home else 1, away_score=0 if first_at_home else 1, by=board)
    commit_season_end(season, by=board, next_name="Sesong 2026")

    page = new_page()
    page.set_viewport_size(WIDTHS[width])
    page.goto("/seasons/")
    page.get_by_role("link", name="Ligaens mestere gjennom årene").click()
    expect(page.locator("h1")).to_have_text("Ligaens mestere")
    rows = page.locator("table.champions tbody tr")
    expect(rows).to_have_count(2)  # a champion of each division; no cup was drawn
    for n, division in enumerate(season.divisions.order_by("level")):
        # the champion read again: the team with the most league points of its division
        top = max(
            (e.team for e in division.entries.all()),
            key=lambda t: t.season_stats.get(season=season, competition="league").points,
        )
        row = rows.nth(n)
        assert row.locator("td").nth(0).inner_text() == f"Vinner, {division.name}"
        assert row.locator("td").nth(1).get_by_role("link").get_attribute("href") == top.get_absolute_url()
        assert row.locator("td").nth(2).get_by_role("link").get_attribute("href") == f"/coaches/{top.coach_id}/"
        assert top.coach.username not in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["width"]
    assert english_words(page) == []
    assert serious(Axe(), page) == []
    screenshot(page, f"champions-{width}")

    rows.nth(0).get_by_role("link", name=season.name).click()  # the archive: the ended season's own page
    expect(page.get_by_role("heading", name="Sesongslutten")).to_be_visible()
    expect(page.locator("table.season-prizes tbody tr")).to_have_count(4)  # 60,000/40,000 and 30,000/10,000 (R32)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["width"]
    assert serious(Axe(), page) == []
    screenshot(page, f"season-ended-{width}")


def test_a_visitor_finds_every_coach_from_the_footer_on_a_phone(new_page, demo_league):
    page = new_page()
    page.set_viewport_size(WIDTHS["phone"])
    page.goto("/")
    page.locator("footer").get_by_role("link", name="Trenere").click()
    expect(page.locator("h1")).to_have_text("Ligaens trenere")
    rows = page.locator("table.coaches tbody tr")
    coaches = {t.coach_id for t in Team.objects.all()}
    expect(rows).to_have_count(len(coaches))
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS["phone"]["width"]
    main = page.locator("main").inner_text()
    for team in Team.objects.select_related("coach"):
        assert re.search(rf"\b{team.coach.username}\b", main, re.I) is None  # a visitor reads no username
    assert english_words(page) == []
    assert serious(Axe(), page) == []
    screenshot(page, "coaches-phone")
    rows.first.get_by_role("link").click()
    expect(page.locator("svg.record-chart")).to_be_visible()  # the coach's page, his record drawn
