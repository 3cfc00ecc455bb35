"""Two coaches, two browsers: the pre-match sequence, the referee sheet, filing and confirming (issue 6)."""

import re

from playwright.sync_api import expect

from league.models import Ruleset
from league.seasons.selectors import division_lines
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season, start_season
from matches.models import DiceRoll, Match
from teams.models import Player, Position, Race, Team
from teams.services import create_team
from tests.browser.conftest import ARTIFACTS, log_in, screenshot


def test_two_coaches_walk_the_referee_sheet(new_page, make_user):
    orc = Race.objects.get(name="Orc")
    human = Race.objects.get(name="Human")
    home_coach, away_coach = make_user("kari"), make_user("ola")
    home = create_team(
        coach=home_coach,
        name="Torshov Trolls",
        race=orc,
        fan_factor=3,
        hires={Position.objects.get(race=orc, name="Lineorc").pk: 11},
    )
    away = create_team(
        coach=away_coach,
        name="Sagene Saints",
        race=human,
        fan_factor=2,
        hires={Position.objects.get(race=human, name="Lineman").pk: 11},
    )
    season = create_season(
        name="Sesong 2027",
        ruleset=Ruleset.default(),
        divisions=[DivisionPlan(1, "1. divisjon", 6, [home, away])],
    )
    division = season.divisions.get()
    generate_fixtures(division)
    start_season(season)
    match = Match.objects.get(division=division, home=home)

    kari, ola = new_page(), new_page()
    log_in(kari, home_coach)
    log_in(ola, away_coach)
    for page in (kari, ola):
        page.goto(f"/matches/{match.pk}/prematch/")

    # 1. squads, each coach his own
    kari.locator("#step-squads form").get_by_role("button", name="Sett troppen").click()
    expect(kari.locator("#step-squads")).to_contain_text("11 spillere")
    ola.reload()
    ola.locator("#step-squads form").get_by_role("button", name="Sett troppen").click()
    expect(ola.locator("#step-squads")).to_have_class(re.compile("done"))
    # 2. weather entered at the table; 3. tickets by the home coach
    ola.fill("input[name=weather]", "3 4")
    ola.locator("#step-weather").get_by_role("button", name="Kast / lagre").click()
    expect(ola.locator("#step-weather")).to_contain_text("Fint vær")
    expect(ola.locator("#step-tickets")).to_contain_text("Hjemmelagets trener setter billettprisen")
    kari.reload()
    kari.select_option("select[name=ticket]", "expensive")
    kari.locator("#step-tickets").get_by_role("button", name="Sett").click()
    # 4. gate: home dice entered, away rolled by the server
    kari.fill("input[name=home_gate]", "3 5 1")
    kari.locator("#step-gate").get_by_role("button", name="Kast / lagre").click()
    expect(kari.locator("#step-ffm")).to_contain_text("FFM")
    # home 3 D6, +1 -1 per die (expensive): 3 + 5 + 1 = 9,000
    expect(kari.locator("#step-gate")).to_contain_text("9\u00a0000")
    # 7. ratings and handicap, server dice
    kari.locator("#step-handicap").get_by_role("button", name="Regn ut / kast").click()
    expect(kari.locator("#prematch-complete")).to_contain_text("Før-kamp-sekvensen er ferdig")
    screenshot(kari, "prematch-done")

    kari.goto(f"/matches/{match.pk}/sheet/")
    expect(kari.locator("h1")).to_contain_text("Dommerskjema")
    pdf = kari.pdf(format="A4", print_background=True)
    (ARTIFACTS / "referee-sheet.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1

    # the report, filed by the home coach
    kari.goto(f"/matches/{match.pk}/report/")
    kari.fill("#home_score", "2")
    kari.fill("#away_score", "1")
    scorer = home.players.order_by("number").first()
    hitter = home.players.order_by("number")[1]
    kari.get_by_label(f"{scorer.name}: TD").fill("2")
    kari.get_by_label(f"{hitter.name}: CAS block").fill("1")
    victim = away.players.order_by("number").first()
    kari.get_by_label(f"{victim.name}: Skade påført").select_option("badly_hurt")
    kari.get_by_label(f"{away.players.order_by('number')[1].name}: TD").fill("1")
    kari.get_by_role("button", name="Lever rapporten").click()
    expect(kari.locator(".messages")).to_contain_text("Rapporten er levert")
    screenshot(kari, "report-filed")

    # confirmed by the away coach in the other browser
    ola.goto(f"/matches/{match.pk}/")
    ola.get_by_role("button", name="Bekreft rapporten").click()
    expect(ola.locator(".messages")).to_contain_text("Rapporten er bekreftet")
    expect(ola.get_by_role("button", name="Bekreft rapporten")).to_have_count(0)
    screenshot(ola, "match-confirmed")

    # the standings and rosters reflect it once
    lines = {line.team: line for line in division_lines(division)}
    assert (lines[home.pk].points, lines[home.pk].casualties_for) == (3, 1)
    assert Player.objects.get(pk=scorer.pk).touchdowns == 2
    assert Player.objects.get(pk=hitter.pk).casualties == 1
    ola.goto("/standings/")
    expect(ola.locator("table.standings")).to_contain_text("Torshov Trolls")
    # the dice records show which were entered and which the server rolled
    entered = set(DiceRoll.objects.filter(match=match, entered=True).values_list("purpose", flat=True))
    rolled = set(DiceRoll.objects.filter(match=match, entered=False).values_list("purpose", flat=True))
    assert {"weather", "gate:home"} <= entered and "gate:away" in rolled
    ola.goto(f"/matches/{match.pk}/")
    expect(ola.locator("text=lagt inn fra bordet").first).to_be_visible()
    expect(ola.locator("text=kastet av serveren").first).to_be_visible()
    assert Team.objects.get(pk=home.pk).name == "Torshov Trolls"
