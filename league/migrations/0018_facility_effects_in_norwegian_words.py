"""Two facilities' effects in the words the pages use: the VIP lounge's "skader (CAS)" and "kampbonus", not
the English "casualties/kills" and "winnings"; the roof's amount as the book writes amounts, without "gp".
A published version is frozen by a database trigger (0003); this is a wording of its text, not a change of
its rules, so the trigger is lifted for the rewrite and put back. A text the board changed is left alone;
the texts are written out, not read from the data file."""

import copy
from importlib import import_module

from django.db import migrations

FROZEN = import_module("league.migrations.0003_default_ruleset")

# facility -> field -> (the text before, the text now)
TEXTS = {
    "vip_lounge": {
        "effect": (
            "+1 på winnings hvis laget har minst 4 casualties/kills eller minst 4 touchdowns (R19).",
            "+1 på kampbonus-kastet hvis laget har påført minst 4 skader (CAS) eller scoret minst 4 touchdowns (R19).",
        ),
    },
    "roof": {
        "effect": (
            "Opphever pøsregn og sterk sol i hjemmekamper (R39); hvert nytt sete koster 2 gp mer.",
            "Opphever pøsregn og sterk sol i hjemmekamper (R39); hvert nytt sete koster 2 mer.",
        ),
        "effect_en": (
            "Cancels pouring rain and very sunny in home matches (R39); each new seat costs 2 gp more.",
            "Cancels pouring rain and very sunny in home matches (R39); each new seat costs 2 more.",
        ),
    },
}


def _reworded(data, before, after):
    data = copy.deepcopy(data)
    facilities = data.get("tables", {}).get("facilities") if isinstance(data, dict) else None
    for row in facilities if isinstance(facilities, list) else ():
        for field, texts in TEXTS.get(row.get("key") if isinstance(row, dict) else None, {}).items():
            if row.get(field) == texts[before]:
                row[field] = texts[after]
    return data


def _rewrite(apps, schema_editor, before, after):
    Ruleset = apps.get_model("league", "Ruleset")
    FROZEN.drop_trigger(apps, schema_editor)
    for ruleset in Ruleset.objects.all():
        data = _reworded(ruleset.data, before, after)
        if data != ruleset.data:
            Ruleset.objects.filter(pk=ruleset.pk).update(data=data)
    FROZEN.add_trigger(apps, schema_editor)


def forward(apps, schema_editor):
    _rewrite(apps, schema_editor, 0, 1)


def backward(apps, schema_editor):
    _rewrite(apps, schema_editor, 1, 0)


class Migration(migrations.Migration):
    dependencies = [("league", "0017_board_desk")]
    operations = [migrations.RunPython(forward, backward)]
