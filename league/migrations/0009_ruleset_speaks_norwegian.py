"""The ruleset speaks Norwegian (issue 26): every stored version's handicap table 2, weather and facility
effects become the Norwegian text, the English shipped before kept beside it in `effect_en`; the source
and the default version's notes likewise.

A text the board changed (not the shipped English) is left alone. A published version is frozen by a
database trigger (0003); this is its translation, not a change of its rules, so the trigger is lifted
for the rewrite and put back. The texts are written out here, not read from the data file, so the
migration means the same whatever that file says later.
"""

import copy
from importlib import import_module

from django.db import migrations

FROZEN = import_module("league.migrations.0003_default_ruleset")

# table -> key -> (the English shipped before issue 26, the Norwegian)
EFFECTS = {
    "handicap_results": {
        "extra_training": (
            "One extra team re-roll for this match.",
            "Én ekstra Team Re-roll for denne kampen.",
        ),
        "intensive_training": (
            "A chosen player takes one extra skill from his normal categories for this match.",
            "En valgt spiller får én ekstra skill for denne kampen, fra kategoriene han vanligvis kan velge.",
        ),
        "inspiration": (
            "A chosen player gets an extra MVP (5 SPP) before the match; a level-up is rolled at once (R23).",
            "En valgt spiller får en ekstra MVP (5 SPP) før kampen; gir den et nytt skill, kastes det med en gang (R23).",
        ),
        "i_am_the_beast": (
            "Two random opposing players refuse to be on the pitch together: only one of them per drive.",
            "To tilfeldige spillere hos motstanderen nekter å være på banen samtidig: bare én av dem i hver drive.",
        ),
        "bad_glasses": (
            "At one kick-off you may set up 12 players.",
            "Ved én kick-off kan du sette opp 12 spillere.",
        ),
        "epo": (
            "A chosen player gets +1 ST or +1 AG for this match.",
            "En valgt spiller får +1 ST eller +1 AG for denne kampen.",
        ),
        "hex_lax": (
            "D3 random opposing players roll a D6 before each kick-off: on 1-3 they cannot play that drive.",
            "D3 tilfeldige spillere hos motstanderen kaster D6 før hver kick-off: på 1-3 kan de ikke spille den driven.",
        ),
        "smelling_salts": (
            "Your KO'd players recover on 2+ instead of 4+ all match.",
            "Spillerne dine i KO-boksen blir klare igjen på 2+ i stedet for 4+ hele kampen.",
        ),
        "big_brother": (
            "The referee is on the opponent's side all match.",
            "Dommeren står på motstanderens side hele kampen.",
        ),
        "doom_and_gloom": (
            "The opponent's team re-rolls are halved for the first half.",
            "Motstanderens Team Re-rolls halveres i første omgang.",
        ),
        "i_didnt_do_it": (
            "A random opposing player misses the whole match.",
            "En tilfeldig spiller hos motstanderen står over hele kampen.",
        ),
        "super_talent": (
            "You may add a 17th player of any position for this match only.",
            "Du kan legge til en 17. spiller, uansett posisjon, for denne kampen.",
        ),
        "hangover": (
            "A random opposing player has Bone Head for this match.",
            "En tilfeldig spiller hos motstanderen har Bone Head for denne kampen.",
        ),
        "bought_referee": (
            "Ignore the first sending-off of your team in this match.",
            "Ignorer den første utvisningen laget ditt får i kampen.",
        ),
        "knuckledusters": (
            "A chosen player has Mighty Blow for this match.",
            "En valgt spiller har Mighty Blow for denne kampen.",
        ),
        "virus": (
            "No opposing player with a niggling injury may play (R23).",
            "Ingen motspillere med NI kan stille i kampen (R23).",
        ),
        "iron_man": (
            "A random player of yours is only ever Stunned when his armour is broken: no injury rolls.",
            "En tilfeldig spiller på laget ditt blir bare Stunned når AR brytes: ingen IR-kast.",
        ),
        "xtc": (
            "A chosen player has Jump Up and Frenzy for this match but always fails to handle the ball.",
            "En valgt spiller har Jump Up og Frenzy for denne kampen, men mislykkes alltid i å behandle ballen.",
        ),
    },
    "weather": {
        "heatwave": (
            "Roll a D6 for each player on the pitch after each touchdown or at half time: on 1 he collapses and misses the next kick-off.",
            "Kast D6 for hver spiller på banen etter hver TD eller ved halv tid: på 1 kollapser han og kan ikke stille til neste kick-off.",
        ),
        "very_sunny": (
            "All passes -1.",
            "Alle pasninger får -1.",
        ),
        "nice": (
            "None.",
            "Ingen.",
        ),
        "pouring_rain": (
            "-1 to catch, intercept and pick up the ball.",
            "-1 på å ta imot, intercepte og plukke opp ballen.",
        ),
        "blizzard": (
            "-1 to going for it; only quick and short passes.",
            "-1 på GFI; bare Quick og Short passes.",
        ),
    },
    "facilities": {
        "roof": (
            "Cancels pouring rain and very sunny in home matches (R39); each new seat costs 2 gp more.",
            "Opphever pøsregn og sterk sol i hjemmekamper (R39); hvert nytt sete koster 2 gp mer.",
        ),
        "pa_system": (
            "+1 for the home team on cheering fans and on the roll for whose fans catch a player pushed out.",
            "+1 for hjemmelaget på cheering fans og på kastet om hvem sine fans som tar imot en spiller som dyttes ut.",
        ),
        "kiosk": (
            "After each home match a D6 of 3+ gives 10,000 (R19).",
            "Kast D6 etter hver hjemmekamp: på 3+ gir kiosken 10 000 (R19).",
        ),
        "caretakers": (
            "Repairs up to 5,000 destroyed seats for free after vandalism (R18).",
            "Reparerer inntil 5 000 ødelagte seter gratis etter vandalisering (R18).",
        ),
        "tv_station": (
            "Both teams +1 on the fan factor roll after home matches (R19).",
            "Begge lag får +1 på Fan Factor-kastet etter hjemmekamper (R19).",
        ),
        "vip_lounge": (
            "+1 on winnings if the team caused 4+ casualties or scored 4+ touchdowns (R19).",
            "+1 på winnings hvis laget har minst 4 casualties/kills eller minst 4 touchdowns (R19).",
        ),
        "away_supporters": (
            "Re-roll the roll for whose fans catch a player pushed out, after seeing the opponent's roll.",
            "Rorolle kastet om hvem sitt publikum en spiller som dyttes ut havner hos, etter å ha sett motstanderens kast.",
        ),
    },
}
SOURCE_OLD = "Regelbok for Torshov Touchdown avdeling, oppdatert 5/11-06, with the board's rulings R1-R40"
SOURCE_NB = "Regelbok for Torshov Touchdown avdeling, oppdatert 5/11-06, med styrets kjennelser R1–R40"
SOURCE_EN = "Regelbok for Torshov Touchdown avdeling, updated 5/11-06, with the board's rulings R1-R40"
NOTES_OLD = "The rulebook of 5/11-06 with the board's rulings R1-R40."
NOTES_NB = "Regelboka av 5/11-06 med styrets kjennelser R1–R40."


def _rows(data):
    """Each (table, row) of the tables with effects, skipping whatever is not shaped as shipped."""
    tables = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(tables, dict):
        return
    for table, texts in EFFECTS.items():
        rows = tables.get(table)
        for row in rows if isinstance(rows, list) else ():
            if isinstance(row, dict) and row.get("key") in texts:
                yield texts[row["key"]], row


def to_norwegian(data):
    """A version's data with the shipped English effects in Norwegian, the English beside them."""
    data = copy.deepcopy(data)
    for (english, norwegian), row in _rows(data):
        if row.get("effect") == english and not row.get("effect_en"):
            row["effect"], row["effect_en"] = norwegian, english
    if isinstance(data, dict) and data.get("source") == SOURCE_OLD:
        data["source"], data["source_en"] = SOURCE_NB, SOURCE_EN
    return data


def to_english(data):
    """The reverse: the data as it was shipped before issue 26."""
    data = copy.deepcopy(data)
    for (english, norwegian), row in _rows(data):
        if row.get("effect") == norwegian and row.get("effect_en") == english:
            row["effect"] = english
            del row["effect_en"]
    if isinstance(data, dict) and (data.get("source"), data.get("source_en")) == (SOURCE_NB, SOURCE_EN):
        data["source"] = SOURCE_OLD
        del data["source_en"]
    return data


def _rewrite(apps, schema_editor, convert, notes):
    Ruleset = apps.get_model("league", "Ruleset")
    FROZEN.drop_trigger(apps, schema_editor)
    for ruleset in Ruleset.objects.all():
        data = convert(ruleset.data)
        new_notes = notes.get(ruleset.notes, ruleset.notes)
        if data != ruleset.data or new_notes != ruleset.notes:
            Ruleset.objects.filter(pk=ruleset.pk).update(data=data, notes=new_notes)
    FROZEN.add_trigger(apps, schema_editor)


def forward(apps, schema_editor):
    _rewrite(apps, schema_editor, to_norwegian, {NOTES_OLD: NOTES_NB})


def backward(apps, schema_editor):
    _rewrite(apps, schema_editor, to_english, {NOTES_NB: NOTES_OLD})


class Migration(migrations.Migration):
    dependencies = [("league", "0008_career_leader_indexes")]
    operations = [migrations.RunPython(forward, backward)]
