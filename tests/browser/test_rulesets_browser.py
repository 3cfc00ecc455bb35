"""The board changes the rules in the admin without touching code (issue 3)."""

import json
import re

import pytest
from playwright.sync_api import expect

from league.models import Ruleset
from tests.browser.conftest import screenshot
from tests.conftest import PASSWORD


@pytest.mark.long  # the admin's form, tested through Django's test client; the editor's flow stays
def test_board_creates_and_publishes_a_changed_ruleset(page, board_member):
    page.goto("/admin/login/?next=/admin/league/ruleset/add/")
    page.fill("#id_username", board_member.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Logg inn").click()

    page.fill("#id_name", "Torshov 2027")
    page.fill("#id_notes", "MVP-ordningen avsluttes.")
    settings = json.loads(page.input_value("#id_settings"))
    settings["mvp_limit"] = 0
    page.fill("#id_settings", json.dumps(settings, indent=1))
    # A typo in a table first: refused with the cell, nothing saved.
    vandalism = json.loads(page.input_value("#id_vandalism"))
    vandalism[1]["target"] = "to"
    page.fill("#id_vandalism", json.dumps(vandalism))
    page.locator("input[name=_save]").click()
    expect(page.locator(".errorlist").first).to_contain_text("row 2 target: 'to' is not a whole number")
    screenshot(page, "admin-ruleset-error")
    assert not Ruleset.objects.filter(name="Torshov 2027").exists()

    vandalism[1]["target"] = 2
    page.fill("#id_vandalism", json.dumps(vandalism))
    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist")).to_contain_text("Torshov 2027")

    row = page.locator("tr", has_text="Torshov 2027")
    row.locator("input[type=checkbox]").check()
    page.select_option("select[name=action]", "publish")
    page.locator("button[name=index]").click()
    expect(page.locator(".messagelist")).to_contain_text("Torshov 2027")

    published = Ruleset.objects.get(name="Torshov 2027")
    assert published.is_published and not published.rules.receives_mvp(0)

    page.goto("/rules/")
    expect(page.locator("#version")).to_have_value(str(published.pk))
    # the setting under its Norwegian label (no raw key on the page, issue 12), with the new value (R27)
    mvp_row = page.locator("#settings tr", has=page.locator("th", has_text="MVP-er et lag får"))
    expect(mvp_row.locator("td.num")).to_have_text(re.compile(r"^\s*0\b"))
    screenshot(page, "rules-page")
