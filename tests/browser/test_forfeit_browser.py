"""A forfeit on a match night (issue 24, R35, R42): the board records it on the match page, and the
forfeiting team's coach, on a 390 px phone in Norwegian, goes to Mitt lag, finishes what applies of
his post-match sequence and picks the squad of his next match."""

import pytest
from playwright.sync_api import expect

from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match, PostMatch, SquadEntry
from teams.models import Team
from tests.browser.test_phone_browser import PHONE, log_in, too_wide


@pytest.fixture
def fixture_pair(season_with):
    season, _teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    return Match.objects.filter(division=division).order_by("round", "pk").first()


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], too_wide(page, PHONE["width"])


@pytest.mark.long  # the forfeit's steps are tested through Django's test client
def test_the_forfeiter_walks_what_applies_and_plays_his_next_match_on_a_phone(new_page, fixture_pair, board_member):
    match = fixture_pair
    loser = match.home
    board = new_page()
    log_in(board, board_member.username)
    board.goto(f"/matches/{match.pk}/")
    expect(board.get_by_role("button", name="Bekreft resultatet")).to_have_count(0)  # RULINGS: no direct result
    board.get_by_label("Laget som gir walkover").select_option(str(loser.pk))
    board.get_by_role("button", name="Registrer walkover").click()
    expect(board.locator(".messages")).to_contain_text(f"{loser.name} gir walkover")
    assert Match.objects.get(pk=match.pk).forfeited_by_id == loser.pk

    coach = new_page()
    coach.set_viewport_size(PHONE)
    log_in(coach, loser.coach.username)
    coach.goto("/my/")
    todos = coach.locator(".todo-list .todo__link")
    expect(todos).to_have_count(1)  # the post-match first: the next pre-match waits for it
    expect(todos.first).to_contain_text(f"etter kampen for {loser.name}")
    todos.first.click()
    coach.wait_for_url(f"**/matches/{match.pk}/after/{loser.pk}/")
    fits(coach)
    # the six steps that do not apply say so, with their rulings (R35, R42); the 2 FF went once
    steps = coach.locator("#steps")
    expect(steps.get_by_text("Ikke aktuelt:")).to_have_count(6)
    expect(coach.locator("#step-winnings")).to_contain_text("ingen premiepenger (R35)")
    expect(coach.locator("#step-fan-factor")).to_contain_text("uten kast (R35, R42)")
    coach.locator("#step-purchases").get_by_role("button", name="Ferdig med kjøp").click()
    expect(coach.locator("#step-purchases")).to_have_class("card step done")
    coach.locator("#step-team-rating").get_by_role("button", name="Regn ut ny team rating").click()
    expect(coach.locator("#step-team-rating")).to_contain_text("Etter-kamp-sekvensen er ferdig.")
    fits(coach)
    assert PostMatch.objects.get(match=match, team=loser).done == PostMatch.Step.TEAM_RATING

    coach.goto("/my/")
    expect(todos).to_have_count(1)
    expect(todos.first).to_contain_text("før kampen, Tropper")
    todos.first.click()
    coach.wait_for_url("**/prematch/")
    squad_form = coach.locator("#step-squads form").filter(has=coach.locator("[name=players]")).first
    for box in squad_form.locator("input[name=players]:not([disabled])").all():
        box.check()
    squad_form.get_by_role("button", name="Sett troppen").click()
    expect(coach.locator("#step-squads")).to_contain_text("11 spillere")
    fits(coach)
    picked = SquadEntry.objects.filter(team=loser).select_related("match")
    assert picked.count() == 11 and {e.match.status for e in picked} == {Match.Status.SCHEDULED}
    assert Team.objects.get(pk=loser.pk).fan_factor == 0  # FF 0 loses nothing more: never below 0 (R35)
