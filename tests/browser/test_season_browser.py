"""The board runs a whole season in the browser: create, fixtures, results, season end (issue 5)."""

import pytest
from playwright.sync_api import expect

from league.models import Season, TiebreakGame
from matches.models import Match
from teams.ledger import treasury
from teams.models import Position, Race
from teams.services import create_team
from tests.browser.conftest import log_in, screenshot
from tests.conftest import PASSWORD
from tests.results import record_result


@pytest.mark.long  # plain forms, each tested through Django's test client (tests/seasons)
def test_board_runs_a_whole_season(page, board_member, make_user):
    race = Race.objects.get(name="Orc")
    linemen = Position.objects.get(race=race, name="Lineorc")
    teams = [
        create_team(coach=make_user(f"c{i}"), name=name, race=race, hires={linemen.pk: 11})
        for i, name in enumerate(["Alna Axes", "Bryn Brutes", "Carl Berner Crushers", "Disen Dogs", "Ensjø Eels"])
    ]
    page.goto("/accounts/login/?next=/seasons/new/")
    page.fill("#id_username", board_member.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Logg inn").click()

    page.fill("#id_name", "Sesong 2027")
    for team in teams[:3]:
        page.locator("#id_division_1").get_by_label(team.name).check()
    for team in teams[3:]:
        page.locator("#id_division_2").get_by_label(team.name).check()
    page.get_by_role("button", name="Opprett sesong").click()
    expect(page.locator("h1")).to_have_text("Sesong 2027")
    season = Season.objects.get(name="Sesong 2027")

    for level in (1, 2):
        section = page.locator(f"#division-{level}")
        section.locator("summary").click()
        section.get_by_role("button", name="Generer").click()
        expect(page.locator(".messages")).to_contain_text("kamper")
    assert Match.objects.filter(season=season).count() == 6 + 2
    page.get_by_role("button", name="Start sesongen").click()
    expect(page.locator(".lead")).to_contain_text("I gang")

    rank = {t.pk: i for i, t in enumerate(teams)}  # the earlier team always wins: no ties in the table
    # Every played match goes through its report, and no page records a result directly (RULINGS,
    # issue 24): the results are built as the tests build them, the board's part here is the season.
    for match in Match.objects.filter(season=season).order_by("round", "pk"):
        home_wins = rank[match.home_id] < rank[match.away_id]
        record_result(match, home_score=2 if home_wins else 0, away_score=0 if home_wins else 1, by=board_member)
    page.goto(f"/seasons/{season.pk}/")
    screenshot(page, "season-played")

    page.get_by_role("link", name="Avslutt sesongen…").click()
    expect(page.locator("h1")).to_contain_text("Sesong 2027")
    screenshot(page, "season-end-preview")
    before = {t.pk: treasury(t) for t in teams}
    page.fill("#id_next_name", "Sesong 2028")
    page.get_by_role("button", name="Fullfør sesongavslutningen").click()
    expect(page.locator("h1")).to_have_text("Sesong 2028")
    season.refresh_from_db()
    assert season.status == "finished"
    paid = {t.pk: treasury(t) - before[t.pk] for t in teams}
    assert sorted(paid.values(), reverse=True)[:3] == [60_000, 40_000, 30_000]
    # the standings show the finished season when asked
    page.goto(f"/standings/?season={season.pk}")
    expect(page.locator("table.standings").first).to_contain_text("Alna Axes")


def test_the_board_records_a_tiebreak_game_on_a_phone_and_takes_it_back_r31(page, board_member, season_with):
    """A tie the table cannot split: the board records the tiebreak game on the season page, sees it
    listed under the division, and takes back the one recorded by mistake (R31), at 390 px in Norwegian."""
    season, _teams = season_with(2, 2)
    d1 = season.divisions.get(level=1)
    a, b = sorted((entry.team for entry in d1.entries.all()), key=lambda t: t.name)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, board_member)
    page.goto(f"/seasons/{season.pk}/")
    section = page.locator("#division-1")
    section.locator("summary").click()
    section.get_by_label("Vinner").select_option(label=a.name)
    section.get_by_label("Taper").select_option(label=a.name)  # one team twice: refused
    section.get_by_role("button", name="Registrer").click()
    # said where the phone shows the page, the top, with a link down to the form that says why
    alert = page.get_by_role("alert").filter(has_text="Ikke lagret")
    expect(alert).to_be_in_viewport()
    alert.get_by_role("link", name="Gå til skjemaet").click()
    expect(section.get_by_text("Vinner og taper må være to ulike lag.")).to_be_in_viewport()
    screenshot(page, "season-tiebreak-refused-phone")
    section.get_by_label("Taper").select_option(label=b.name)
    section.get_by_role("button", name="Registrer").click()
    expect(page.locator(".messages")).to_contain_text("Tiebreak-kampen er registrert.")
    section.locator("summary").click()
    listed = section.locator("li", has_text=f"{a.name} slo {b.name}")
    expect(listed).to_be_visible()
    screenshot(page, "season-tiebreak-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    listed.get_by_role("button", name="Trekk tilbake").click()
    expect(page.locator(".messages")).to_contain_text("Tiebreak-kampen er trukket tilbake.")
    expect(page.get_by_text(f"{a.name} slo {b.name}")).to_have_count(0)
    assert not TiebreakGame.objects.exists()
