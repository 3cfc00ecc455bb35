"""The rules' explanations read in the interface's language (issue 12): league.rules writes each part as
a message id with parameters (league/rules/messages.py), stored as such (matches' explanations) and
shown with `gettext(msgid) % params` (league/templatetags/rules_text.py), no regular expressions."""

import importlib
import json

import pytest
from django.utils import translation

import league.rules as rules
from league.messages import MessageDecoder, MessageEncoder, translated
from league.rules.messages import Joined, Msg
from league.templatetags.rules_text import rules_text

NBSP = "\u00a0"


def winnings():
    """Kampbonus, R17/R20: D6 4, 50,000 attending a 30,000 stadium counts 45,000 (150%), expensive
    tickets move the row up one, TR 110 is column 100–125: +3; +1 winner, +1 home, +1 VIP lounge (R19)."""
    return rules.default_ruleset().explain_winnings(
        4, team_rating=110, attendance=50_000, capacity=30_000, won=True, home=True, ticket="expensive", vip=True
    )


def test_the_english_text_is_the_contract_and_the_parts_are_messages():
    e = winnings()
    assert e.value == 100_000  # (4 + 1 + 1 + 3 + 1) × 10,000
    assert e.lines() == [
        "Kampbonus: row 60,001–80,000, column 100–125: +3",
        "roll 4",
        "attendance 50,000 counted as 45,000 (150% of capacity, R17)",
        "winner +1",
        "home +1",
        "expensive tickets: row 40,001–60,000 → 60,001–80,000",
        "table +3",
        "VIP lounge +1",
        "10 × 10,000 = 100,000",
    ]
    assert all(isinstance(line, Msg) for line in e.lines())
    assert e.steps[0].msgid == "roll %(roll)s" and e.steps[0].params == {"roll": 4}


def test_norwegian():
    """Every part of the winnings explanation in Norwegian, its amounts as the tables write them."""
    with translation.override("nb"):
        assert [rules_text(line) for line in winnings().lines()] == [
            f"Kampbonus: rad 60{NBSP}001–80{NBSP}000, kolonne 100–125: +3",
            "kast 4",
            f"tilskuertall 50{NBSP}000 regnes som 45{NBSP}000 (150 % av kapasiteten, R17)",
            "vinner +1",
            "hjemme +1",
            f"dyre billetter: rad 40{NBSP}001–60{NBSP}000 → 60{NBSP}001–80{NBSP}000",
            "tabell +3",
            "VIP-lounge +1",
            f"10 × 10{NBSP}000 = 100{NBSP}000",
        ]
        gate = rules.default_ruleset().explain_gate([6, 5, 1], home=False, ticket="cheap")  # R12-R13
        line = Msg(
            "%(team)s: FF %(ff)s × D%(die)s. %(steps)s",
            team="Torshov Trolls",
            ff=3,
            die=6,
            steps=Joined("; ", gate.steps),
        )
        assert rules_text(line) == (
            "Torshov Trolls: FF 3 × D6. borte -1 per terning; billige billetter +1 per terning; "
            f"terninger 6, 5, 1 → 6, 5, 1 = 12 × 1{NBSP}000 = 12{NBSP}000"
        )
        assert rules_text("Vær: 2D6 3+4 = 7 → Fint vær") == "Vær: 2D6 3+4 = 7 → Fint vær"  # plain text as it is


def test_english():
    with translation.override("en"):
        assert rules_text(winnings().lines()[0]) == "Kampbonus: row 60,001–80,000, column 100–125: +3"
        assert rules_text(Msg("roll %(roll)s", roll=4)) == "roll 4"
        gate = rules.default_ruleset().explain_gate([6, 5], home=True)
        assert [rules_text(s) for s in gate.steps] == ["home +1 per die", "dice 6, 5 → 7, 6 = 13 × 1,000 = 13,000"]


def test_messages_survive_json_and_pickle():
    import pickle

    lines = [*winnings().lines(), Joined("; ", [Msg("roll %(roll)s", roll=2), "plain"]), "text", 3]
    stored = json.dumps({"winnings": lines}, cls=MessageEncoder)
    assert json.loads(stored)["winnings"][1] == {"msgid": "roll %(roll)s", "params": {"roll": 4}}
    back = json.loads(stored, cls=MessageDecoder)["winnings"]
    assert back == lines and [type(x) for x in back] == [type(x) for x in lines]
    assert back[0].params["row"].params == {"min": 60_001, "max": 80_000}
    again = pickle.loads(pickle.dumps(lines))
    assert again == lines and again[0].params == lines[0].params
    with translation.override("nb"):
        assert translated(back[1]) == "kast 4"


@pytest.mark.django_db
def test_messages_survive_dumpdata_and_loaddata():
    """A dump of the league (dumpdata, a backup, the browser tests' demo league) keeps each message as
    its id with parameters: Django's serializers wrote a `Msg`, a str, as its English text, and the league
    loaded from the dump showed English explanations on Norwegian pages."""
    from django.core import serializers

    from matches.models import PreMatch
    from tests.factories import league_match

    lines = [*winnings().lines(), Joined("; ", [Msg("roll %(roll)s", roll=2), "plain"])]
    match = league_match()
    prematch = PreMatch.objects.create(match=match, ruleset=match.season.ruleset, explanations={"winnings": lines})
    dumped = serializers.serialize("json", [prematch])
    assert json.loads(dumped)[0]["fields"]["explanations"]["winnings"][1] == {
        "msgid": "roll %(roll)s",
        "params": {"roll": 4},
    }
    PreMatch.objects.all().delete()
    for obj in serializers.deserialize("json", dumped):
        obj.save()
    back = PreMatch.objects.get().explanations["winnings"]
    assert back == lines and [type(x) for x in back] == [type(x) for x in lines]
    with translation.override("nb"):
        assert translated(back[1]) == "kast 4"


LEGACY = [
    (
        "Kampbonus: row 40,001–60,000, column 100–125: +2",
        f"Kampbonus: rad 40{NBSP}001–60{NBSP}000, kolonne 100–125: +2",
    ),
    ("roll 4", "kast 4"),
    (
        "Torshov Trolls: FF 3 × D6. home +1 per die; expensive tickets -1 per die; "
        "dice [3, 4] → [3, 4] = 7 × 1,000 = 7,000",
        "Torshov Trolls: FF 3 × D6. hjemme +1 per terning; dyre billetter -1 per terning; "
        f"terninger 3, 4 → 3, 4 = 7 × 1{NBSP}000 = 7{NBSP}000",
    ),
    ("Handicap tabell 1: row 26–50, column TR ≤149: 2", "Handicap tabell 1: rad 26–50, kolonne TR ≤149: 2"),
    ("fan factor 25: 2 × -1 -2", "fan factor 25: 2 × -1 -2"),
    ("Vær: 2D6 3+4 = 7 → Fint vær", "Vær: 2D6 3+4 = 7 → Fint vær"),  # not the rules' words: kept as text
]


@pytest.mark.parametrize(("stored", "norwegian"), LEGACY)
def test_lines_stored_as_english_text_become_messages(stored, norwegian):
    """The migration reads rows walked before explanations were messages into messages, faithfully: what it
    stores reads back, through the field's decoder, as the same English and the Norwegian."""
    migration = importlib.import_module("matches.migrations.0010_explanations_as_messages")
    line = migration.line(stored)
    assert line == stored
    kept = json.loads(json.dumps(migration.stored(line)), cls=MessageDecoder)
    assert kept == stored
    with translation.override("nb"):
        assert rules_text(kept) == norwegian
