"""Every one of the 24 races can be founded through the creation form (issue 4)."""

import pytest
from django.urls import reverse

from league.lib.once import new_token
from teams.ledger import treasury
from teams.models import Position, Race, Team

pytestmark = pytest.mark.django_db


def cheapest_eleven(race: Race) -> dict[str, int]:
    """The cheapest legal 11: fill the cheapest positions up to their limits."""
    hires, left = {}, 11
    for p in sorted(Position.objects.filter(race=race), key=lambda p: (p.price, p.pk)):
        take = min(left, p.max_count)
        if take:
            hires[f"pos_{p.pk}"] = take
            left -= take
    assert left == 0
    return hires


@pytest.mark.parametrize(
    "race_name",
    list(
        [
            "Amazon",
            "Chaos",
            "Chaos Dwarf",
            "Dark Elf",
            "Dwarf",
            "Elf",
            "Goblin",
            "Halfling",
            "High Elf",
            "Human",
            "Khemri",
            "Khorne",
            "Lizardmen",
            "Necromatic",
            "Norse",
            "Nurgle",
            "Ogre",
            "Orc",
            "Skaven",
            "Slaanesh",
            "Tzeentch",
            "Undead",
            "Vampire",
            "Wood Elf",
        ]
    ),
)
def test_every_race_can_be_founded(client, coach, race_name):
    race = Race.objects.get(name=race_name)
    client.force_login(coach)
    data = {
        "race": race.slug,
        "name": f"{race_name} Test",
        "rerolls": "1",
        "fan_factor": "1",
        "assistant_coaches": "0",
        "cheerleaders": "0",
        "token": new_token(),
        **cheapest_eleven(race),
    }
    response = client.post(reverse("team_create"), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    team = Team.objects.get(name=f"{race_name} Test")
    cost = sum(p.position.price for p in team.players.all()) + race.reroll_price + 10_000
    assert treasury(team) == 1_000_000 - cost
    assert team.players.count() == 11


def test_all_24_races_are_in_the_catalogue():
    assert Race.objects.count() == 24
    assert Position.objects.filter(big_guy=True).count() == 8


def test_the_quote_fragment_shows_cost_and_problems(client, coach):
    client.force_login(coach)
    race = Race.objects.get(name="Human")
    blitzers = Position.objects.get(race=race, name="Blitzer")
    response = client.post(
        reverse("team_create"),
        {
            "race": race.slug,
            "name": "Q",
            "rerolls": "0",
            "fan_factor": "0",
            "assistant_coaches": "0",
            "cheerleaders": "0",
            f"pos_{blitzers.pk}": "5",
            "quote": "1",
        },
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "<html" not in html  # the fragment alone
    assert "Blitzer: at most 4 (you have 5)" in html and "450,000" in html
    assert not Team.objects.exists()
