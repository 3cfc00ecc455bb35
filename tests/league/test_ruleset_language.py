"""The ruleset speaks Norwegian (issue 26): its effect texts are Norwegian, with the English beside them,
and a page shows the reader's language, falling back to the Norwegian."""

import copy
from html import unescape
from importlib import import_module

import pytest
from django.apps import apps
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from league import rules
from league.models import Ruleset
from league.templatetags.rules_text import in_language, rule_effect
from matches import dice
from matches.models import HandicapDraw
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import roll_handicap
from tests import factories

pytestmark = pytest.mark.django_db

TABLES = rules.default_data()["tables"]
ROWS = [r for key in ("handicap_results", "weather", "facilities") for r in TABLES[key]]
ENGLISH = [r["effect_en"] for r in ROWS if r["effect_en"] != "None."]
NORWEGIAN = [r["effect"] for r in ROWS if r["effect"] != "Ingen."]


def page(client, url: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200
    return unescape(response.content.decode())


# --- the filter -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "value", "shown"),
    [
        ("nb", {"effect": "Norsk.", "effect_en": "English."}, "Norsk."),
        ("en", {"effect": "Norsk.", "effect_en": "English."}, "English."),
        ("en", {"effect": "Norsk.", "effect_en": ""}, "Norsk."),  # no English: the Norwegian
        ("en", {"effect": "Norsk."}, "Norsk."),
        ("en", rules.tables.Named("k", "Navn", "Norsk.", "English."), "English."),
        ("nb", rules.tables.Named("k", "Navn", "Norsk.", "English."), "Norsk."),
    ],
)
def test_in_language_shows_the_english_to_english_readers_else_the_norwegian(language, value, shown):
    with translation.override(language):
        assert in_language(value, "effect") == shown


def test_no_effect_is_said_in_the_readers_language_whichever_text_it_is():
    with translation.override("nb"):
        assert rule_effect("Ingen.") == rule_effect("None.") == "Ingen effekt"
    with translation.override("en"):
        assert rule_effect(in_language({"effect": "Ingen.", "effect_en": "None."}, "effect")) == "No effect"


def test_the_shipped_effects_are_norwegian_with_the_english_beside_them():
    assert len(TABLES["handicap_results"]) == 18 and all(r["effect"] and r["effect_en"] for r in ROWS)
    kiosk = next(f for f in TABLES["facilities"] if f["key"] == "kiosk")
    assert "10 000" in kiosk["effect"] and "10,000" not in kiosk["effect"]
    assert rules.default_data()["source"].endswith("med styrets kjennelser R1–R40")


# --- the pages --------------------------------------------------------------------------------------


def test_the_rules_page_in_norwegian_shows_no_english_effect(client):
    html = page(client, reverse("rules"), "nb")
    assert "Én ekstra Team Re-roll for denne kampen." in html
    assert "Alle pasninger får -1." in html and "Kast D6 etter hver hjemmekamp: på 3+ gir kiosken 10 000 (R19)." in html
    assert [e for e in NORWEGIAN if e not in html] == []
    assert [e for e in ENGLISH if e in html] == []
    assert "One extra team re-roll" not in html and "Ingen effekt" in html
    assert "Regelboka av 5/11-06 med styrets kjennelser R1–R40." in html  # the version's notes
    assert "Hjernerystelse" in html


def test_the_rules_page_in_english_shows_the_english(client):
    html = page(client, reverse("rules"), "en")
    assert "One extra team re-roll for this match." in html and "No effect" in html
    assert [e for e in ENGLISH if e not in html] == []
    assert "Én ekstra Team Re-roll" not in html
    assert "Concussion" in html and "Hjernerystelse" not in html  # the serious injury's English name


def test_the_facility_purchase_page_in_the_readers_language(client):
    coach = factories.user("trener")
    team = factories.human_team(coach)
    client.force_login(coach)
    url = reverse("team_manage", args=[team.pk])
    facilities = TABLES["facilities"]
    nb = page(client, url, "nb")
    assert [f["effect"] for f in facilities if f["effect"] not in nb] == []
    assert [f["effect_en"] for f in facilities if f["effect_en"] in nb] == []
    assert "Reparerer inntil 5 000 ødelagte seter gratis etter vandalisering (R18)." in nb
    en = page(client, url, "en")
    assert [f["effect_en"] for f in facilities if f["effect_en"] not in en] == []
    assert "Repairs up to 5,000 destroyed seats for free after vandalism (R18)." in en


def test_a_handicap_draw_reads_its_rulesets_text_in_the_readers_language(client):
    match = factories.league_match()
    for team, count in ((match.home, 11), (match.away, 7)):  # the away team is 25 TR lower: one roll
        pick_squad(match, team, [p.pk for p in team.players.order_by("number")[:count]], by=team.coach)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=[], away_dice=[], by=None)
    roll_handicap(match, entered=[11], by=None)  # Ekstra trening
    client.force_login(match.home.coach)
    url = reverse("match_prematch", args=[match.pk])
    page(client, url, "nb")  # the ruleset parsed, the session read: what follows counts only the draws
    with CaptureQueriesContext(connection) as one_draw:
        nb = page(client, url, "nb")
    assert "Én ekstra Team Re-roll for denne kampen." in nb and "One extra team re-roll" not in nb
    # a draw stored in English before issue 26, and one whose key the ruleset does not have
    for index, key, effect in (
        (2, "epo", "A chosen player gets +1 ST or +1 AG for this match."),
        (3, "gone", "Gammel"),
    ):
        d = dice.roll(match, f"handicap:{index}", step="handicap", d66=True, entered=[1, index], team=match.away)
        HandicapDraw.objects.create(match=match, team=match.away, index=index, key=key, name=key, effect=effect, dice=d)
    with CaptureQueriesContext(connection) as three_draws:
        nb = page(client, url, "nb")
    assert "En valgt spiller får +1 ST eller +1 AG for denne kampen." in nb and "A chosen player" not in nb
    assert "Gammel" in nb  # not in the ruleset: the text copied at the draw
    assert len(three_draws) == len(one_draw)  # no query per draw
    en = page(client, url, "en")
    assert "One extra team re-roll for this match." in en and "A chosen player gets +1 ST or +1 AG" in en
    assert "Én ekstra Team Re-roll" not in en and "Gammel" in en


# --- the migration of stored versions -----------------------------------------------------------------

MIGRATION = import_module("league.migrations.0009_ruleset_speaks_norwegian")
REWORDED = import_module("league.migrations.0018_facility_effects_in_norwegian_words")


def as_0009_left_it(data: dict) -> dict:
    """A version's data as 0009 left it, before 0018 reworded two facilities' effects."""
    return REWORDED._reworded(data, 1, 0)


def shipped_before(data: dict) -> dict:
    """A version's data as shipped before issue 26: the English in `effect`, no `effect_en`."""
    old = copy.deepcopy(data)
    for key in ("handicap_results", "weather", "facilities"):
        for row in old["tables"][key]:
            row["effect"] = row.pop("effect_en")
    old["source"] = MIGRATION.SOURCE_OLD
    del old["source_en"]
    return old


def test_the_migration_moves_the_shipped_english_aside_and_leaves_the_boards_texts_alone():
    shipped = as_0009_left_it(rules.default_data())
    old = shipped_before(shipped)
    assert MIGRATION.to_norwegian(old) == shipped
    assert MIGRATION.to_english(shipped) == old  # reversible
    assert MIGRATION.to_norwegian(shipped) == shipped  # twice is once
    edited = copy.deepcopy(old)
    edited["tables"]["handicap_results"][3]["effect"] = "Styrets egen tekst."
    edited["source"] = "Styrets kilde"
    migrated = MIGRATION.to_norwegian(edited)
    assert migrated["tables"]["handicap_results"][3] == edited["tables"]["handicap_results"][3]
    assert migrated["tables"]["handicap_results"][4] == shipped["tables"]["handicap_results"][4]
    assert (migrated["source"], "source_en" in migrated) == ("Styrets kilde", False)
    assert MIGRATION.to_english(migrated) == edited
    rules.parse_ruleset_data(migrated)  # still a valid ruleset


class _Editor:
    """What the migration uses of a schema editor (SQLite opens none inside a test's transaction)."""

    connection = connection

    def execute(self, sql: str, params: object = None) -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def test_the_migration_translates_every_stored_version_published_or_not_and_back():
    default = Ruleset.objects.get(name="Torshov 2006")
    shipped = as_0009_left_it(default.data)
    frozen = import_module("league.migrations.0003_default_ruleset")
    frozen.drop_trigger(apps, _Editor())  # the database as it was before issue 26
    Ruleset.objects.filter(pk=default.pk).update(data=shipped_before(shipped), notes=MIGRATION.NOTES_OLD)
    frozen.add_trigger(apps, _Editor())
    draft = Ruleset.objects.create(name="Utkast", data=shipped_before(shipped), notes="Styrets notat")
    MIGRATION.forward(apps, _Editor())
    default.refresh_from_db()
    assert (default.data, default.notes) == (shipped, "Regelboka av 5/11-06 med styrets kjennelser R1–R40.")
    assert Ruleset.objects.get(pk=draft.pk).data["tables"] == shipped["tables"]
    assert Ruleset.objects.get(pk=draft.pk).notes == "Styrets notat"
    with pytest.raises(DatabaseError), transaction.atomic():  # frozen again
        Ruleset.objects.filter(pk=default.pk).update(notes="rewrite history")
    MIGRATION.backward(apps, _Editor())
    default.refresh_from_db()
    assert (default.data, default.notes) == (shipped_before(shipped), MIGRATION.NOTES_OLD)


def test_the_facilities_effects_are_reworded_in_the_pages_words_and_back():
    shipped = rules.default_data()
    before = as_0009_left_it(shipped)
    effects = {row["key"]: row["effect"] for row in before["tables"]["facilities"]}
    assert "casualties/kills" in effects["vip_lounge"] and " gp " in effects["roof"]
    assert REWORDED._reworded(before, 0, 1) == shipped
    assert REWORDED._reworded(shipped, 0, 1) == shipped  # twice is once
    edited = copy.deepcopy(before)
    edited["tables"]["facilities"][0]["effect"] = "Styrets egen tekst."  # the board's own text stays
    assert REWORDED._reworded(edited, 0, 1)["tables"]["facilities"][0]["effect"] == "Styrets egen tekst."
