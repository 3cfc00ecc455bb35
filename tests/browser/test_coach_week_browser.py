"""The coach's week on a phone (issue 12): two coaches, each in his own 390×844 browser, walk from their
own home page through the pre-match, the report, its confirmation and the post-match; no page they visit
scrolls sideways."""

import re

import pytest
from playwright.sync_api import expect

from league.models import Ruleset
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season, start_season
from matches.models import Match, PostMatch
from teams.models import Position, Race
from teams.services import create_team
from tests.conftest import PASSWORD

PHONE = {"width": 390, "height": 844}


def phone(new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    return page


def fits(page, seen):
    """The page does not scroll sideways on the phone."""
    page.wait_for_load_state()
    width = page.evaluate("document.documentElement.scrollWidth")
    seen[page.url] = width
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


def log_in(page, user, seen):
    page.goto("/accounts/login/")
    fits(page, seen)
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Logg inn").click()
    page.wait_for_url("**/my/")
    fits(page, seen)


def todo(page, kind, seen):
    """From his home, the to-do of this kind, one tap away."""
    page.goto("/my/")
    fits(page, seen)
    page.locator(f".todo--{kind} .todo__link").first.click()
    fits(page, seen)


def step(page, section, button, seen):
    page.locator(section).get_by_role("button", name=button).click()
    expect(page.locator(section)).to_have_class(re.compile(r"\bdone\b"))
    fits(page, seen)


@pytest.mark.long  # a journey over pages each tested through Django's test client
def test_a_coachs_week_on_a_phone(new_page, make_user):
    human = Race.objects.get(name="Human")
    linemen = Position.objects.get(race=human, name="Lineman")
    home_coach, away_coach = make_user("kari"), make_user("ola")
    home = create_team(coach=home_coach, name="Torshov Trolls", race=human, hires={linemen.pk: 11})
    away = create_team(coach=away_coach, name="Sagene Saints", race=human, hires={linemen.pk: 11})
    season = create_season(
        name="Sesong 2027",
        ruleset=Ruleset.default(),
        divisions=[DivisionPlan(1, "1. divisjon", 6, [home, away])],
    )
    division = season.divisions.get()
    generate_fixtures(division)
    start_season(season)
    match = Match.objects.filter(division=division).order_by("round", "pk").first()  # the first of the season
    home_coach, away_coach = match.home.coach, match.away.coach  # kari plays at home, ola away
    seen: dict[str, int] = {}

    kari, ola = phone(new_page), phone(new_page)
    log_in(kari, home_coach, seen)
    # his home: the next match and what waits for him
    expect(kari.locator(".next-match").first).to_contain_text(match.away.name)
    expect(kari.locator(".todo--prematch")).to_have_count(1)

    # the pre-match, dice left empty: the server rolls
    todo(kari, "prematch", seen)
    assert kari.url.endswith(f"/matches/{match.pk}/prematch/")
    kari.locator("#step-squads form").get_by_role("button", name="Sett troppen").click()
    expect(kari.locator("#step-squads")).to_contain_text("11 spillere")
    fits(kari, seen)
    log_in(ola, away_coach, seen)
    todo(ola, "prematch", seen)
    ola.locator("#step-squads form").get_by_role("button", name="Sett troppen").click()
    expect(ola.locator("#step-squads")).to_have_class(re.compile(r"\bdone\b"))
    fits(ola, seen)
    kari.reload()
    step(kari, "#step-weather", "Kast / lagre", seen)
    step(kari, "#step-tickets", "Sett", seen)
    step(kari, "#step-gate", "Kast / lagre", seen)
    kari.locator("#step-handicap").get_by_role("button", name="Regn ut / kast").click()
    expect(kari.locator("#prematch-complete")).to_contain_text("Før-kamp-sekvensen er ferdig")
    fits(kari, seen)

    # the report, from his home's to-do
    todo(kari, "report", seen)
    kari.fill("#home_score", "1")
    kari.fill("#away_score", "0")
    kari.get_by_role("button", name="Lever rapporten").click()
    expect(kari.locator(".messages")).to_contain_text("Rapporten er levert")
    fits(kari, seen)

    # the other coach confirms from his own home
    todo(ola, "confirm", seen)
    ola.get_by_role("button", name="Bekreft rapporten").click()
    expect(ola.locator(".messages")).to_contain_text("Rapporten er bekreftet")
    fits(ola, seen)
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED

    # the post-match, server dice
    todo(kari, "postmatch", seen)
    for section, button in [
        ("#step-winnings", "Kast / lagre"),
        ("#step-injuries", "Kast / lagre"),
        ("#step-stadium", "Bruk"),
        ("#step-mvp", "Kast for MVP"),
        ("#step-development", "Fortsett"),  # nobody reached a new level with one MVP: nothing to roll
        ("#step-fan-factor", "Kast / lagre"),
        ("#step-purchases", "Ferdig med kjøp"),
        ("#step-team-rating", "Regn ut ny team rating"),
    ]:
        step(kari, section, button, seen)
    assert PostMatch.objects.get(match=match, team=match.home).team_rating is not None
    kari.goto("/my/")
    fits(kari, seen)
    paths = {re.sub(r"^https?://[^/]+", "", url) for url in seen}
    assert {
        "/accounts/login/",
        "/my/",
        f"/matches/{match.pk}/prematch/",
        f"/matches/{match.pk}/report/",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/after/{match.home.pk}/",
    } <= paths
