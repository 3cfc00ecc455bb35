"""The race catalogue (24 races, 8 Big Guys, every skill and trait) from teams/data/catalogue.json."""

import json
from pathlib import Path

from django.db import migrations
from django.utils.text import slugify

DATA = Path(__file__).resolve().parents[1] / "data" / "catalogue.json"


def position_fields(pos, order, *, big_guy):
    return {
        "max_count": pos.get("max", 1),
        "price": pos["price"],
        "ma": pos["ma"],
        "st": pos["st"],
        "ag": pos["ag"],
        "av": pos["av"],
        "normal_access": pos["normal"],
        "double_access": pos["double"],
        "random_mutation": pos.get("random_mutation", False),
        "big_guy": big_guy,
        "order": order,
    }


def load_catalogue(apps, schema_editor):
    Skill = apps.get_model("teams", "Skill")
    Race = apps.get_model("teams", "Race")
    Position = apps.get_model("teams", "Position")
    data = json.loads(DATA.read_text(encoding="utf-8"))
    skills = {}
    for entry in data["skills"]:
        skills[entry["name"]], _ = Skill.objects.update_or_create(
            name=entry["name"], defaults={"category": entry["category"], "kind": entry["kind"]}
        )
    races = {}
    for order, entry in enumerate(data["races"]):
        race, _ = Race.objects.update_or_create(
            name=entry["name"],
            defaults={
                "slug": slugify(entry["name"]),
                "reroll_price": entry["reroll_price"],
                "apothecary_allowed": entry["apothecary"],
                "head_coach": entry["head_coach"],
                "healer": entry["healer"],
                "order": order,
            },
        )
        races[race.name] = race
        for p_order, pos in enumerate(entry["positions"]):
            position, _ = Position.objects.update_or_create(
                race=race, name=pos["name"], defaults=position_fields(pos, p_order, big_guy=False)
            )
            position.skills.set([skills[name] for name in pos["skills"]])
    for order, entry in enumerate(data["big_guys"]):
        position, _ = Position.objects.update_or_create(
            race=None, name=entry["name"], big_guy=True, defaults=position_fields(entry, order, big_guy=True)
        )
        position.skills.set([skills[name] for name in entry["skills"]])
        position.allied_races.set([races[name] for name in entry["allied"]])


class Migration(migrations.Migration):
    dependencies = [("teams", "0001_catalogue_teams_players_treasury")]
    operations = [migrations.RunPython(load_catalogue, migrations.RunPython.noop)]
