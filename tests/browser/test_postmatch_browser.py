"""Both coaches walk the whole post-match sequence in the browser; the rosters are checked against
values worked out by hand from the rulebook's tables (issue 7)."""

import re

from playwright.sync_api import expect

from matches.models import PostMatch
from teams.ledger import treasury
from teams.models import Player, Team
from tests.browser.conftest import log_in, screenshot
from tests.matches.test_postmatch import played  # noqa: F401 - the fixture


def step(page, section, button, **fields):
    for name, value in fields.items():
        page.locator(f"{section} [name={name}]").fill(value)
    page.locator(section).get_by_role("button", name=button).click()
    expect(page.locator(section)).to_have_class("card step done")


def test_both_coaches_walk_the_post_match_sequence(new_page, played):  # noqa: F811
    match, home, away, h, a = played
    kari, ola = new_page(), new_page()
    log_in(kari, home.coach)
    log_in(ola, away.coach)

    # the home coach: winnings D6 4 and the kiosk 3 (R19, R20)
    kari.goto(f"/matches/{match.pk}/")
    kari.get_by_role("link", name="Etter kampen: Torshov Trolls").click()
    step(kari, "#step-winnings", "Kast / lagre", roll="4", kiosk="3")
    expect(kari.locator("#step-winnings")).to_contain_text(
        re.compile(r"Kampbonus: rad 0–20\s000, kolonne ≤99: \+1")
    )  # Norwegian numbers (issue 12)
    step(kari, "#step-injuries", "Kast / lagre")
    step(kari, "#step-stadium", "Bruk")
    step(kari, "#step-mvp", "Kast for MVP", roll="2")  # #2 of the two who earned SPP
    kari.locator(f"[name=dev_{h[0].pk}_1]").fill("3 3")  # a double
    kari.locator(f"[name=dev_{h[1].pk}_1]").fill("2 5")
    kari.locator("#step-development").get_by_role("button", name="Kast utviklingsterningene").click()
    kari.get_by_label(f"Valg for {Player.objects.get(pk=h[0].pk)}").select_option("Frenzy")  # a G trait on doubles
    kari.get_by_label(f"Valg for {Player.objects.get(pk=h[1].pk)}").select_option("Block")
    kari.locator("#step-development").get_by_role("button", name="Bruk valgene").click()
    expect(kari.locator("#step-development")).to_contain_text("Frenzy")
    step(kari, "#step-fan-factor", "Kast / lagre", roll="4")
    step(kari, "#step-purchases", "Ferdig med kjøp")
    step(kari, "#step-team-rating", "Regn ut ny team rating")
    screenshot(kari, "postmatch-home")

    # the away coach: winnings D6 2; the Bandage Crew's first attempt (1+) saves the dead Lineman,
    # who rolls 12 on the revival table (Blodtap, out 3 matches)
    ola.goto(f"/matches/{match.pk}/after/{away.pk}/")
    step(ola, "#step-winnings", "Kast / lagre", roll="2")
    ola.locator(f"[name=attempt_{a[1].pk}]").fill("1")
    ola.locator(f"[name=revival_{a[1].pk}]").fill("12")
    ola.locator("[name=healer_1]").fill("1")
    ola.locator("#step-injuries").get_by_role("button", name="Kast / lagre").click()
    expect(ola.locator("#step-injuries")).to_contain_text("Blodtap")
    step(ola, "#step-stadium", "Bruk")
    step(ola, "#step-mvp", "Kast for MVP", roll="1")
    ola.locator(f"[name=dev_{a[0].pk}_1]").fill("1 2")
    ola.locator("#step-development").get_by_role("button", name="Kast utviklingsterningene").click()
    ola.get_by_label(f"Valg for {Player.objects.get(pk=a[0].pk)}").select_option("Block")
    ola.locator("#step-development").get_by_role("button", name="Bruk valgene").click()
    step(ola, "#step-fan-factor", "Kast / lagre", roll="3")
    step(ola, "#step-purchases", "Ferdig med kjøp")
    step(ola, "#step-team-rating", "Regn ut ny team rating")
    screenshot(ola, "postmatch-away")

    # the rosters, by hand from the tables
    home_t, away_t = Team.objects.get(pk=home.pk), Team.objects.get(pk=away.pk)
    # winnings 70,000 (4 + 1 win + 1 home + 1 Kampbonus) and the kiosk 10,000 on 370,000
    assert treasury(home_t) == 450_000
    # winnings 30,000 (2 + 1) on 430,000 (1,000,000 - 550,000 - FF 20,000), less the Bandage Crew's 10,000
    assert treasury(away_t) == 450_000
    assert (home_t.fan_factor, away_t.fan_factor) == (4, 2)  # 4 + 1 + 1 = 6 → +1; 3 - 1 = 2 → 0 (R30)
    scorer, hitter, revived, away_mvp = (Player.objects.get(pk=p.pk) for p in (h[0], h[1], a[1], a[0]))
    assert (scorer.spp, scorer.gained_skills.get().skill.name) == (20, "Frenzy")  # 14 + 2 TD (R28)
    assert (hitter.spp, hitter.mvps, hitter.gained_skills.get().skill.name) == (7, 1, "Block")  # CAS 2 + MVP 5
    assert (revived.status, revived.miss_matches) == ("active", 3)
    assert (away_mvp.spp, away_mvp.gained_skills.get().skill.name) == (8, "Block")  # TD 3 + MVP 5
    # new TR: 11 Lineorcs 550,000 + FF 4 40,000 = 590,000 → 59, skill points 3 + 1 → 63 (R1-R4)
    assert PostMatch.objects.get(match=match, team=home).team_rating == 63
    # Humans: the revived Lineman misses the next 3 matches: 10 × 50,000 + FF 2 20,000 = 520,000 → 52,
    # skill points 1 (the MVP, 8 SPP) → 53 (R3: injured players do not count)
    assert PostMatch.objects.get(match=match, team=away).team_rating == 53
    kari.goto(f"/teams/{home.pk}/")
    expect(kari.locator(".panel").first).to_contain_text("63")
