"""The Content-Security-Policy in the browser (issue 14). Every browser test fails on a policy violation
(tests/browser/conftest.py); the pre- and post-match walks (test_match_browser, test_postmatch_browser)
run under it. Here: the watcher sees a violation, and the replaced inline handlers still work."""

import re

from playwright.sync_api import expect

from tests.conftest import PASSWORD


def test_the_policy_is_on_and_the_watcher_sees_a_violation(page, csp_violations):
    response = page.goto("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    # an inline script, as an injection would add it: refused
    page.evaluate(
        """() => {
        const script = document.createElement("script");
        script.textContent = "document.body.dataset.injected = 'yes'";
        document.body.append(script);
    }"""
    )
    expect(page.locator("body")).not_to_have_attribute("data-injected", "yes")
    page.wait_for_timeout(200)
    assert any("script-src" in v for v in csp_violations)
    csp_violations.clear()


def test_auto_submitting_select_print_button_and_confirmation_work_without_inline_script(page, make_teams, coach):
    from league.models import Ruleset
    from league.seasons.services.setup import DivisionPlan, create_season

    for name in ("Season 1", "Season 2"):
        teams = make_teams(2, prefix=name.replace(" ", ""))
        create_season(
            name=name, ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1st division", 6, teams)]
        )
    page.goto("/standings/")
    page.select_option("#season", label="Season 1")
    expect(page).to_have_url(re.compile(rf"/standings/\?season={_season_pk('Season 1')}$"))

    from teams.models import Position, Race
    from teams.services import create_team

    human = Race.objects.get(name="Human")
    linemen = Position.objects.get(race=human, name="Lineman")
    team = create_team(coach=coach, name="Torshov Trolls", race=human, hires={linemen.pk: 11})
    page.goto("/accounts/login/")
    page.fill("#id_username", coach.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Logg inn").click()
    # logged in before the next address: a goto while the log-in's redirect is under way can be aborted
    expect(page.locator(".site-nav")).to_contain_text(coach.username)

    page.goto(f"/teams/{team.pk}/")
    page.evaluate("window.print = () => { document.body.dataset.printed = 'yes' }")
    page.get_by_role("button", name="Skriv ut").click()
    expect(page.locator("body")).to_have_attribute("data-printed", "yes")

    page.goto(f"/teams/{team.pk}/manage/")
    players = team.players.count()
    dialogs = []
    page.once("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.get_by_role("button", name="Spark").first.click()
    page.wait_for_timeout(300)
    assert dialogs == [f"Sparke {team.players.order_by('number').first()}? Det kan ikke angres."]
    assert team.players.count() == players  # dismissed: nothing happened
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Spark").first.click()
    expect(page.locator(".messages")).to_be_visible()


def _season_pk(name):
    from league.models import Season

    return Season.objects.get(name=name).pk
