"""Position names in the singular, as English Blood Bowl writes them ("Goblin", not "Goblins"), issue 26.

A league stored before gets the catalogue's new names, race by race (the Ogres' own Goblin is left as it
was: only the Orc and Goblin races had "Goblins"). A player whose name is the default a hire without a
name was given ("Goblins 3", teams.services) gets the singular too ("Goblin 3"); a name a coach typed is
left alone, and so are the treasury's lines, which record what was written then. Reversible: the plural
names come back, and so do the default player names.

The names are written out here, not read from teams/data/catalogue.json, which now holds the new ones.
"""

from django.db import migrations

# race: (plural, singular) for every position the catalogue named in the plural. Big Guys were singular.
RENAMED = {
    "Amazon": [("Linewomen", "Linewoman"), ("Catchers", "Catcher"), ("Throwers", "Thrower"), ("Blitzers", "Blitzer")],
    "Chaos": [("Chaos Beastmen", "Chaos Beastman"), ("Chaos Warriors", "Chaos Warrior")],
    "Chaos Dwarf": [("Hobgoblins", "Hobgoblin")],
    "Dark Elf": [
        ("Lineelves", "Lineelf"),
        ("Throwers", "Thrower"),
        ("Blitzers", "Blitzer"),
        ("Assassins", "Assassin"),
        ("Witch Elves", "Witch Elf"),
    ],
    "Dwarf": [
        ("Long Beards", "Long Beard"),
        ("Runners", "Runner"),
        ("Blitzers", "Blitzer"),
        ("Troll Slayers", "Troll Slayer"),
    ],
    "Elf": [("Lineelves", "Lineelf"), ("Throwers", "Thrower"), ("Catchers", "Catcher"), ("Blitzers", "Blitzer")],
    "Goblin": [("Goblins", "Goblin"), ("Throwers", "Thrower"), ("Runners", "Runner")],
    "Halfling": [
        ("Linehobbits", "Linehobbit"),
        ("Throwers", "Thrower"),
        ("Runners", "Runner"),
        ("Blockers", "Blocker"),
    ],
    "High Elf": [
        ("Lineelves", "Lineelf"),
        ("Phoenix Warriors", "Phoenix Warrior"),
        ("Lion Warriors", "Lion Warrior"),
        ("Dragon Warriors", "Dragon Warrior"),
    ],
    "Human": [("Linemen", "Lineman"), ("Catchers", "Catcher"), ("Throwers", "Thrower"), ("Blitzers", "Blitzer")],
    "Khemri": [("Skeletons", "Skeleton"), ("Mummies", "Mummy")],
    "Khorne": [
        ("Khorne Warriors", "Khorne Warrior"),
        ("Bloodletters", "Bloodletter"),
        ("Khorne Flesh Hounds", "Khorne Flesh Hound"),
    ],
    "Lizardmen": [("Skinks", "Skink")],
    "Necromatic": [("Zombies", "Zombie"), ("Ghouls", "Ghoul"), ("Wights", "Wight")],
    "Norse": [("Linemen", "Lineman"), ("Catchers", "Catcher"), ("Throwers", "Thrower"), ("Blitzers", "Blitzer")],
    "Nurgle": [("Nurgle Beastmen", "Nurgle Beastman"), ("Rotters", "Rotter")],
    "Orc": [
        ("Lineorcs", "Lineorc"),
        ("Goblins", "Goblin"),
        ("Throwers", "Thrower"),
        ("Black Orc Blockers", "Black Orc Blocker"),
        ("Blitzers", "Blitzer"),
    ],
    "Skaven": [("Linerats", "Linerat"), ("Throwers", "Thrower"), ("Gutter Runners", "Gutter Runner")],
    "Slaanesh": [("Slaanesh Warriors", "Slaanesh Warrior")],
    "Tzeentch": [("Screamers of Tzeentch", "Screamer of Tzeentch")],
    "Undead": [
        ("Skeletons", "Skeleton"),
        ("Zombies", "Zombie"),
        ("Ghouls", "Ghoul"),
        ("Wights", "Wight"),
        ("Mummies", "Mummy"),
    ],
    "Wood Elf": [
        ("Lineelves", "Lineelf"),
        ("Catchers", "Catcher"),
        ("Throwers", "Thrower"),
        ("Wardancers", "Wardancer"),
    ],
}


def default_number(name: str, position_name: str) -> str | None:
    """The number of a default player name ("Goblins 3" → "3"), None for any other name."""
    prefix = position_name + " "
    number = name[len(prefix) :] if name.startswith(prefix) else ""
    return number if number.isascii() and number.isdigit() else None


def rename(apps, *, singular: bool) -> None:
    Position = apps.get_model("teams", "Position")
    Player = apps.get_model("teams", "Player")
    for race, pairs in RENAMED.items():
        for plural, single in pairs:
            old, new = (plural, single) if singular else (single, plural)
            position = Position.objects.filter(race__name=race, name=old).first()
            if position is None:
                continue
            position.name = new
            position.save(update_fields=["name"])
            for player in Player.objects.filter(position=position, name__startswith=old + " "):
                number = default_number(player.name, old)
                if number is not None:
                    player.name = f"{new} {number}"
                    player.save(update_fields=["name"])


def to_singular(apps, schema_editor):
    rename(apps, singular=True)


def to_plural(apps, schema_editor):
    rename(apps, singular=False)


class Migration(migrations.Migration):
    dependencies = [("teams", "0006_memorial_index")]
    operations = [migrations.RunPython(to_singular, to_plural)]
