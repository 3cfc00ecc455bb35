"""A dispute, end to end (R45): coach A files, coach B disputes with JavaScript off; the board logs in and
lands on its desk, which lists the dispute; its inbox has the notice and its e-mail came; the board corrects
the report; then neither coach has a to-do or an unread notice for the match. The desk on a phone too."""

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from playwright.sync_api import expect

from league.models import Notification
from league.seasons import waiting
from matches.models import Match
from tests import factories
from tests.browser.conftest import log_in, screenshot
from tests.conftest import PASSWORD
from tests.smtp import smtp_server, subject


# plain forms (the dispute is sent with JavaScript off): the desk, the notice, the e-mail and the correction are
# tested through Django's test client in tests/seasons/test_waiting.py; the desk on a phone stays below
@pytest.mark.long
def test_a_dispute_reaches_the_board_which_settles_it_and_every_notice_closes(new_page, browser, live_server):
    match = factories.ready_match()
    home, away = match.home, match.away
    kari, ola = home.coach, away.coach
    board = factories.user("styreleder", board=True, coach=False, email="styret@example.org", first_name="Siri")
    scorer = home.players.order_by("number").first()

    with smtp_server() as server, override_settings(SITE_URL=live_server.url):
        a = new_page()
        log_in(a, kari)
        a.goto(f"/matches/{match.pk}/report/")
        a.fill("#home_score", "2")
        a.fill("#away_score", "0")
        a.locator(f"#id_p{scorer.pk}_touchdowns").fill("2")
        a.get_by_role("button", name="Lever rapporten").click()
        expect(a.locator(".messages")).to_contain_text("Rapporten er levert")

        # B disputes it, JavaScript off: a plain form.
        context = browser.new_context(base_url=live_server.url, locale="nb-NO", java_script_enabled=False)
        context.set_default_timeout(10_000)
        try:
            b = context.new_page()
            log_in(b, ola)
            b.goto("/my/")
            expect(b.locator(".todo-list")).to_contain_text("bekreft eller bestrid rapporten")
            b.goto(f"/matches/{match.pk}/")
            b.get_by_label("Hva er galt?").fill("Det ble 2–1: vi scoret i siste runde.")
            b.get_by_role("button", name="Bestrid").click()
            expect(b.locator(".messages")).to_contain_text("bestridt")
            b.goto("/my/")
            expect(b.locator(".wait-list")).to_contain_text("venter på at styret avgjør den")
        finally:
            context.close()

        # The board logs in through the form and lands on its desk.
        desk = new_page()
        desk.goto("/accounts/login/")
        desk.fill("#id_username", board.username)
        desk.fill("#id_password", PASSWORD)
        desk.get_by_role("button", name="Logg inn").click()
        expect(desk).to_have_url(f"{live_server.url}/board/")
        item = desk.locator(".desk-list .todo--dispute")
        expect(item).to_contain_text("Det ble 2–1")
        expect(desk.locator(".nav-desk .nav-count")).to_contain_text("1")
        expect(desk.locator(".nav-notices .nav-count")).to_contain_text("1")
        [message] = server.wait(1)
        assert message["To"] == "styret@example.org"
        assert "er bestridt" in subject(message)
        desk.locator(".nav-notices").click()
        expect(desk.locator(".notice--unread")).to_contain_text("Styret avgjør den.")

        # The board corrects the report from the match page.
        desk.goto("/board/")
        item.get_by_role("link").click()
        desk.get_by_role("link", name="Rett rapporten (styret)").click()
        desk.fill("#away_score", "1")
        desk.locator(f"#id_p{away.players.order_by('number').first().pk}_touchdowns").fill("1")
        desk.get_by_role("button", name="Lever rapporten").click()
        expect(desk.locator(".messages")).to_contain_text("Styrets rapport er levert og teller")
        match.refresh_from_db()
        assert (match.status, match.home_score, match.away_score) == (Match.Status.CONFIRMED, 2, 1)
        desk.goto("/board/")
        expect(desk.locator(".desk-list .todo--dispute")).to_have_count(0)
        expect(desk.locator(".nav-notices .nav-count")).to_have_count(0)

        # Neither coach has a to-do or an unread notice waiting for the match.
        for coach in (kari, ola):
            page = new_page()
            log_in(page, coach)
            page.goto("/my/")
            expect(page.locator(".todo-list .todo--confirm")).to_have_count(0)
            expect(page.locator(".wait-list li", has_text="rapport")).to_have_count(0)  # nothing of the report
            # Nothing of the report or the dispute is unread: the one notice left is the board's ruling, and it
            # asks for what the confirmed match opens, his post-match sequence (open until he walks it).
            open_keys = {t.key for t in waiting.coach_actions(coach)}
            unread = Notification.objects.filter(recipient=coach, match=match, read_at__isnull=True)
            still = [n for n in unread if not n.action or n.action in open_keys]  # a done action's notice is done
            team = home if coach == kari else away
            assert [(n.params.get("ruling"), n.action) for n in still] == [
                ("settle", f"postmatch:{match.pk}:{team.pk}")
            ]
            expect(page.locator(".nav-notices .nav-count")).to_contain_text("1")
            expect(page.locator(".todo-list .todo--postmatch")).to_have_count(1)
            page.locator(".nav-notices").click()
            expect(page.locator(".notice--unread")).to_have_count(1)
            expect(page.locator(".notice--unread")).to_contain_text("Styret har avgjort rapporten")
        assert get_user_model().objects.get(pk=board.pk).is_active


def test_the_desk_on_a_phone_shows_the_first_item_on_the_first_screen(new_page, live_server):
    match = factories.ready_match()
    from matches.report.confirmation import dispute_report
    from matches.report.filing import file_report
    from tests.matches.test_report import a_report

    file_report(match, a_report(match), by=match.home.coach)
    dispute_report(match, by=match.away.coach, comment="Feil resultat")
    board = factories.user("styreleder", board=True, coach=False)
    page = new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, board)
    page.goto("/board/")
    item = page.locator(".desk-list .todo--dispute")
    expect(item).to_be_in_viewport()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the desk is {width} px wide on a 390 px phone"
    screenshot(page, "board-desk-phone")


def test_mitt_lag_keeps_the_team_and_next_match_on_a_phones_first_screen(new_page, live_server):
    """Dead end: sixteen to twenty-one notices pushed the team and the next match two screens down. The
    to-dos come first, the team with its next match next, the news last."""
    from league.notices.services import notify

    season, teams = factories.season_with(2, 2)
    from league.seasons.services.fixtures import generate_fixtures
    from league.seasons.services.setup import start_season

    for division in season.divisions.all():
        generate_fixtures(division)
    start_season(season)
    coach = teams[0].coach
    for n in range(21):
        notify([coach], Notification.Kind.BOARD_MESSAGE, params={"subject": f"Melding {n}", "text": "Hei"})
    page = new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, coach)
    page.goto("/my/")
    expect(page.locator(f"#team-{teams[0].pk}")).to_be_in_viewport()
    expect(page.locator(".my-team .next-match").first).to_be_in_viewport()
    screenshot(page, "mitt-lag-phone")
