"""The board changes the rules through the editor's fields, with no JSON typed (issue 13)."""

import pytest
from playwright.sync_api import expect

from league.models import Ruleset, Season
from matches.models import Match
from tests.browser.conftest import ARTIFACTS, screenshot
from tests.conftest import PASSWORD

# EXAMPLES.md: a home win, TR 112, attendance 49,000 in 60,000 seats, D6 4 → row 40,001–60,000,
# column 100–125 (+2): 4 + 1 + 1 + 2 = 8 → 80,000 (R20, R21).
MATCH = dict(team_rating=112, attendance=49_000, capacity=60_000, won=True, home=True)


# plain forms: the copy, the invalid cell, the save, the diff, the preview and the publishing are tested through
# Django's test client (tests/league/test_rules_editor.py); the editor on a phone stays below
@pytest.mark.long
def test_board_copies_edits_previews_and_publishes_a_version_then_a_new_season_uses_it(
    page, new_page, board_member, season_with
):
    old_season, teams = season_with(first=2, second=2, name="Sesong 2026")
    Match.objects.create(
        season=old_season,
        division=old_season.divisions.get(level=1),
        round=1,
        home=teams[0],
        away=teams[1],
        status="confirmed",
        home_score=2,
        away_score=1,
    )
    page.goto("/accounts/login/?next=/rules/")
    page.fill("#id_username", board_member.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Logg inn").click()

    # From the public rules page to the version, and a copy of it.
    page.get_by_role("link", name="Denne versjonen og hva den endret").click()
    expect(page.locator("h1")).to_contain_text("Torshov 2006")
    page.get_by_role("button", name="Ny versjon fra denne").click()
    expect(page.locator("h1")).to_contain_text("Rediger Torshov 2006 (kopi)")

    # A typo first: marked in place, in Norwegian, naming the row and column; nothing saved.
    cell = page.get_by_label("Kampbonus, rad 40\u00a0001–60\u00a0000, kolonne 100–125", exact=True)
    expect(cell).to_have_value("2")
    cell.fill("åtte")
    page.get_by_role("button", name="Lagre utkastet").click()
    expect(page.locator("#table-winnings td.invalid .cell-error")).to_have_text(
        "Kampbonus, rad 40\u00a0001–60\u00a0000, kolonne 100–125: «åtte» er ikke et helt tall."
    )
    screenshot(page, "rules-editor-invalid-cell")

    # One winnings cell and one setting, through their fields.
    page.fill("#id_name", "Torshov 2027")
    page.fill("#id_notes", "Mer penger til hjemmelaget.")
    page.get_by_label("Kampbonus, rad 40\u00a0001–60\u00a0000, kolonne 100–125", exact=True).fill("+3")
    page.get_by_label("Kampbonus: hjemmelaget").fill("2")
    page.get_by_role("button", name="Lagre utkastet").click()

    # The diff, readable: label, old → new.
    expect(page.locator("h1")).to_contain_text("Torshov 2027")
    diff = page.locator("#changes")
    expect(diff.locator("tr", has_text="Kampbonus, rad 40\u00a0001–60\u00a0000, kolonne 100–125")).to_contain_text("2")
    expect(
        diff.locator("tr", has_text="Kampbonus, rad 40\u00a0001–60\u00a0000, kolonne 100–125").locator("ins")
    ).to_have_text("3")
    expect(diff.locator("tr", has_text="Kampbonus: hjemmelaget").locator("ins")).to_have_text("2")
    expect(diff.locator("tbody tr")).to_have_count(2)

    # The preview: the book's example under the draft beside the published version, and a team's match.
    page.get_by_role("link", name="Forhåndsvisning").click()
    row = page.locator("tr", has_text="Kampbonus: hjemmeseier, TR 112")
    expect(row.locator("td").nth(0)).to_contain_text("100\u00a0000")  # 4 + 1 + 2 + 3 = 10
    expect(row.locator("td").nth(1)).to_contain_text("80\u00a0000")
    expect(page.locator("tr", has_text="Stadion 60 000 → 70 000 seter")).to_contain_text("30\u00a0000")
    expect(page.locator("tr", has_text="Stadion 70 000 → 80 000 seter")).to_contain_text("35\u00a0000")
    expect(page.locator("tr", has_text="Fan Factor-modifier, gate 85 000 og 55 000")).to_contain_text("+2")
    page.get_by_label("Lag", exact=True).select_option(label=teams[0].name)
    page.get_by_label("Kamp", exact=True).select_option(index=1)
    page.get_by_label("Tilskuertall, om kampen ikke har gate ennå").fill("50000")
    page.get_by_role("button", name="Regn ut").click()
    # Team A: 11 Linemen → TR 55, column ≤99; attendance 50,000 → row 40,001–60,000 (+3 in both):
    # D6 4 + 1 (win) + home 1 → 90,000 now; home 2 under the draft → 100,000.
    team_row = page.locator("tr", has_text=f"Kampbonus for {teams[0].name}")
    expect(team_row.locator("td").nth(0)).to_contain_text("100\u00a0000")
    expect(team_row.locator("td").nth(1)).to_contain_text("90\u00a0000")
    screenshot(page, "rules-preview")

    # Publishing asks first and says what it means.
    page.get_by_role("link", name="Torshov 2027").first.click()
    page.get_by_role("link", name="Publiser …").click()
    expect(page.locator("main")).to_contain_text("en sesong som er i gang beholder sin versjon")
    expect(page.locator("main tr", has_text="Sesong 2026")).to_contain_text("Torshov 2006")
    page.get_by_role("button", name="Publiser").click()
    assert not Ruleset.objects.get(name="Torshov 2027").is_published  # not confirmed yet
    page.get_by_label("Jeg forstår").check()
    page.get_by_role("button", name="Publiser").click()
    expect(page.locator(".messages")).to_contain_text("Torshov 2027")
    assert Ruleset.objects.get(name="Torshov 2027").is_published

    # A new season under the new version.
    page.goto("/seasons/new/")
    page.fill("#id_name", "Sesong 2027")
    page.select_option("#id_ruleset", label="Torshov 2027")
    for team in teams[:2]:
        page.locator("#id_division_1").get_by_label(team.name).check()
    page.get_by_role("button", name="Opprett sesong").click()
    expect(page.locator("h1")).to_have_text("Sesong 2027")
    expect(page.get_by_role("link", name="Torshov 2027")).to_have_attribute(
        "href", f"/rules/versions/{Ruleset.objects.get(name='Torshov 2027').pk}/"
    )

    # A match of each season computes with its own season's version.
    new_season = Season.objects.get(name="Sesong 2027")
    old_season.refresh_from_db()
    assert old_season.ruleset.name == "Torshov 2006"
    assert new_season.ruleset.rules.winnings(4, **MATCH) == 100_000
    assert old_season.ruleset.rules.winnings(4, **MATCH) == 80_000


def test_the_editor_is_usable_on_a_phone(browser, live_server, board_member):
    context = browser.new_context(
        base_url=live_server.url, locale="nb-NO", viewport={"width": 390, "height": 844}, is_mobile=True
    )
    page = context.new_page()
    try:
        draft = Ruleset.objects.get(name="Torshov 2006").copy_as_draft("Torshov 2027")
        page.goto(f"/accounts/login/?next=/rules/versions/{draft.pk}/edit/")
        page.fill("#id_username", board_member.username)
        page.fill("#id_password", PASSWORD)
        page.get_by_role("button", name="Logg inn").click()
        expect(page.locator("h1")).to_contain_text("Rediger Torshov 2027")
        # The page itself does not scroll sideways; the tables scroll inside their box.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("#table-winnings .edit-wrap")
        assert box.evaluate("el => el.scrollWidth > el.clientWidth")
        assert box.bounding_box()["width"] <= 390
        cell = page.get_by_label("Kampbonus, rad 160\u00a0001+, kolonne 301+", exact=True)
        cell.scroll_into_view_if_needed()
        cell.fill("1")
        expect(cell).to_have_value("1")
        page.locator("#table-winnings").scroll_into_view_if_needed()
        screenshot(page, "rules-editor-390")
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#table-winnings h3").evaluate("el => el.scrollIntoView()")
        page.screenshot(path=str(ARTIFACTS / "rules-editor-390-screen.png"))
        page.goto(f"/rules/versions/{draft.pk}/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, "rules-version-390")
        # The public page's settings, in Norwegian words and numbers, on the same phone.
        page.goto("/rules/#settings")
        settings = page.locator("#settings")
        expect(settings).to_contain_text("60\u00a0000, 40\u00a0000, 20\u00a0000")
        expect(settings).to_contain_text("poeng i innbyrdes kamper")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        settings.screenshot(path=str(ARTIFACTS / "rules-settings-390.png"))
    finally:
        context.close()
