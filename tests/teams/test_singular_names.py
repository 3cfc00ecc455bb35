"""Position names in the singular (issue 26): the catalogue, a league stored before, and the plural a
paper roster writes."""

import json
from importlib import import_module
from pathlib import Path

import pytest
from django.apps import apps as global_apps

from teams import services
from teams.models import Player, Position, Race
from teams.rosters import plural_name

migration = import_module("teams.migrations.0007_singular_position_names")
CATALOGUE = Path(__file__).resolve().parents[2] / "teams" / "data" / "catalogue.json"
PAIRS = [(race, plural, singular) for race, pairs in migration.RENAMED.items() for plural, singular in pairs]


def test_the_catalogue_names_no_position_in_the_plural():
    data = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    names = {(race["name"], p["name"]) for race in data["races"] for p in race["positions"]}
    assert not names & {(race, plural) for race, plural, _singular in PAIRS}
    assert {(race, singular) for race, _plural, singular in PAIRS} <= names


@pytest.mark.parametrize(("race", "plural", "singular"), PAIRS)
def test_the_plural_is_the_one_the_catalogue_had(race, plural, singular):
    assert plural_name(singular) == plural


@pytest.mark.django_db
def test_a_stored_league_gets_the_singular_names_and_back(coach):
    orc, ogre = Race.objects.get(name="Orc"), Race.objects.get(name="Ogre")
    lineorc, goblin = (Position.objects.get(race=orc, name=name) for name in ("Lineorc", "Goblin"))
    team = services.create_team(coach=coach, name="Grorud Grunts", race=orc, hires={lineorc.pk: 10, goblin.pk: 1})
    named = Player.objects.filter(team=team, position=lineorc).order_by("number")
    Player.objects.filter(pk=named[0].pk).update(name="Lineorc Jr")  # typed by a coach: kept as it is
    ogres_goblin = Position.objects.get(race=ogre, name="Goblin")

    migration.to_plural(global_apps, None)  # the league as it was stored before
    assert Position.objects.get(pk=lineorc.pk).name == "Lineorcs"
    assert Position.objects.get(pk=goblin.pk).name == "Goblins"
    assert Position.objects.get(pk=ogres_goblin.pk).name == "Goblin"  # the Ogres' Goblin was singular
    assert Position.objects.get(race__name="Human", name="Linemen")
    names = list(Player.objects.filter(team=team).order_by("number").values_list("name", flat=True))
    assert names[:3] == ["Lineorc Jr", "Lineorcs 2", "Lineorcs 3"] and names[-1] == "Goblins 1"

    migration.to_singular(global_apps, None)
    assert Position.objects.get(pk=lineorc.pk).name == "Lineorc"
    assert Position.objects.get(pk=goblin.pk).name == "Goblin"
    assert Position.objects.get(pk=ogres_goblin.pk).name == "Goblin"
    names = list(Player.objects.filter(team=team).order_by("number").values_list("name", flat=True))
    assert names[:3] == ["Lineorc Jr", "Lineorc 2", "Lineorc 3"] and names[-1] == "Goblin 1"
    data = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    catalogue = {(race["name"], p["name"]) for race in data["races"] for p in race["positions"]}
    assert set(Position.objects.filter(big_guy=False).values_list("race__name", "name")) == catalogue


@pytest.mark.parametrize(
    ("name", "number"),
    [("Goblins 3", "3"), ("Goblins 12", "12"), ("Goblins", None), ("Goblins x", None), ("Goblins 3a", None)],
)
def test_only_a_default_name_is_renamed(name, number):
    assert migration.default_number(name, "Goblins") == number
