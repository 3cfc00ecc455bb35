"""A coach founds teams in the browser and reads the roster sheet (issue 4)."""

import re

import pytest
from playwright.sync_api import expect

from teams import services
from teams.ledger import treasury
from teams.models import Position, Team
from tests.browser.conftest import ARTIFACTS, log_in, screenshot


def count_field(page, race, position):
    pk = Position.objects.get(race__name=race, name=position).pk
    return page.locator(f"#id_pos_{pk}")


@pytest.mark.parametrize(
    ("race", "slug", "hires", "extra", "left"),
    [
        # 7 × 50,000 + 2 × 70,000 + 70,000 + 2 × 90,000 = 740,000; 2 re-rolls 100,000; FF 5 50,000;
        # apothecary 50,000 → 940,000
        (
            "Human",
            "human",
            {"Lineman": 7, "Catcher": 2, "Thrower": 1, "Blitzer": 2},
            {"rerolls": 2, "fan_factor": 5, "apothecary": True},
            60_000,
        ),
        # 12 × 30,000 + 2 × 60,000 = 480,000; 3 re-rolls 180,000; 3 cheerleaders 60,000 → 720,000
        # the other two races in `make test-long`: the quote's arithmetic is tested through the test client
        pytest.param(
            "Halfling",
            "halfling",
            {"Linehobbit": 12, "Thrower": 2},
            {"rerolls": 3, "cheerleaders": 3},
            280_000,
            marks=pytest.mark.long,
        ),
        # 6 × 30,000 + 5 × 30,000 + 2 × 90,000 = 510,000; 2 re-rolls 140,000; FF 6 60,000 → 710,000
        pytest.param(
            "Undead",
            "undead",
            {"Skeleton": 6, "Zombie": 5, "Wight": 2},
            {"rerolls": 2, "fan_factor": 6},
            290_000,
            marks=pytest.mark.long,
        ),
    ],
)
def test_a_coach_founds_a_team(page, coach, race, slug, hires, extra, left):
    log_in(page, coach)
    page.goto("/teams/")
    page.get_by_role("link", name="Grunnlegg et nytt lag").click()
    page.select_option("#race", slug)
    page.get_by_role("button", name="Neste").click()
    page.fill("#id_name", f"Torshov {race}s")
    for position, count in hires.items():
        count_field(page, race, position).fill(str(count))
    for field in ("rerolls", "fan_factor", "cheerleaders"):
        if field in extra:
            page.fill(f"#id_{field}", str(extra[field]))
    if extra.get("apothecary"):
        page.check("#id_apothecary")
    # The live quote (htmx) shows what is left before anything is saved.
    expect(page.locator("#quote")).to_contain_text(re.compile(r"\d"))
    assert not Team.objects.filter(name=f"Torshov {race}s").exists()
    screenshot(page, f"create-{slug}")
    page.get_by_role("button", name="Grunnlegg laget").click()
    expect(page.locator("h1")).to_contain_text(f"Torshov {race}s")
    team = Team.objects.get(name=f"Torshov {race}s")
    assert treasury(team) == left
    expect(page.locator(".panel").first).to_contain_text(f"{left:,}".replace(",", "\u00a0"))
    screenshot(page, f"roster-{slug}")


def test_refusal_is_shown_and_nothing_saved(page, coach):
    log_in(page, coach)
    page.goto("/teams/new/?race=elf")
    page.fill("#id_name", "Too Many Blitzers")
    count_field(page, "Elf", "Blitzer").fill("3")
    count_field(page, "Elf", "Lineelf").fill("8")
    page.get_by_role("button", name="Grunnlegg laget").click()
    expect(page.locator("#quote .errorlist")).to_contain_text("Blitzer")
    assert not Team.objects.exists()


@pytest.mark.long  # the roster prints on one A4 sheet in tests/browser/test_print_browser.py
def test_roster_prints_on_one_a4_portrait_page(page, coach):
    from tests.factories import human_team

    team = human_team(coach, rerolls=2)
    for n in range(5):
        services.hire_player(
            team, Position.objects.get(race__name="Human", name="Lineman"), name=f"Reserve {n}", number=None, by=coach
        )
    page.goto(f"/teams/{team.pk}/")
    pdf = page.pdf(format="A4", print_background=True)
    (ARTIFACTS / "roster-print.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == 1
