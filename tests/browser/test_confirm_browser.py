"""A second thought before spending (issue 12): with JavaScript the browser's own dialog asks with the
price; without it, the confirm page does, and re-posts the same form."""

import pytest
from playwright.sync_api import expect

from teams.models import Position, Race, Team
from teams.services import create_team
from tests.browser.conftest import log_in


def human_team(coach):
    human = Race.objects.get(name="Human")
    linemen = Position.objects.get(race=human, name="Lineman")
    return create_team(coach=coach, name="Torshov Trolls", race=human, hires={linemen.pk: 11})  # 350 000 left


def facility_row(page, team):
    kiosk = next(f for f in team.ruleset.rules.tables.facilities if f.key == "kiosk")
    return kiosk, page.locator("tr", has=page.get_by_role("button", name="Kjøp")).filter(has_text=kiosk.name)


def test_with_javascript_the_dialog_asks_with_the_price_then_buys(page, coach):
    team = human_team(coach)
    log_in(page, coach)
    page.goto(f"/teams/{team.pk}/manage/")
    kiosk, row = facility_row(page, team)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    row.get_by_role("button", name="Kjøp").click()
    expect(page.locator(".messages")).to_contain_text("Kjøpt for 50\u00a0000.")
    assert asked == [f"Kjøpe {kiosk.name} for 50\u00a0000? Det kan ikke angres."]
    assert list(team.stadium.facilities.values_list("key", flat=True)) == ["kiosk"]
    expect(page.locator("h1")).to_contain_text("Administrer")  # straight back: no confirm page after the dialog


@pytest.mark.long  # plain forms: the confirm page is tested through Django's test client
def test_without_javascript_the_confirm_page_asks_then_buys(browser, live_server, coach):
    team = human_team(coach)
    context = browser.new_context(
        base_url=live_server.url,
        locale="nb-NO",
        java_script_enabled=False,
        viewport={"width": 390, "height": 844},  # on a phone, beside the pitch
    )
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        log_in(page, coach)
        page.goto(f"/teams/{team.pk}/manage/")
        kiosk, row = facility_row(page, team)
        row.get_by_role("button", name="Kjøp").click()
        expect(page.locator("h1")).to_have_text("Er du sikker?")
        expect(page.locator(".confirm-page")).to_contain_text(
            f"Kjøpe {kiosk.name} for 50\u00a0000? Det kan ikke angres."
        )
        assert not team.stadium.facilities.exists()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.get_by_role("button", name="Ja, kjøp").click()
        expect(page.locator(".messages")).to_contain_text("Kjøpt for 50\u00a0000.")
        assert list(team.stadium.facilities.values_list("key", flat=True)) == ["kiosk"]

        # Retiring a player: the cancel link goes back and changes nothing.
        player = team.players.order_by("number").first()
        page.get_by_role("button", name="Legg opp").first.click()
        expect(page.locator(".confirm-page")).to_contain_text(f"Legge opp {player}?")
        page.get_by_role("link", name="Avbryt").click()
        expect(page).to_have_url(f"{live_server.url}/teams/{team.pk}/manage/")
        assert Team.objects.get(pk=team.pk).players.on_roster().count() == 11
        page.get_by_role("button", name="Legg opp").first.click()
        page.get_by_role("button", name="Ja, legg opp").click()
        expect(page.locator(".messages")).to_contain_text("har lagt opp")
        assert Team.objects.get(pk=team.pk).players.on_roster().count() == 10
    finally:
        context.close()
