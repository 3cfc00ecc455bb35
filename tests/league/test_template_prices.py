"""Every price, target and count a page shows comes from the ruleset the board edits (issue 15): no
template types an amount ("10,000", "20 000") or a dice target ("2+") into its text, and a published
version with other numbers shows its own."""

import re
from pathlib import Path

import pytest

from league.models import Ruleset
from teams.models import Race

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
AMOUNT = re.compile(r"(?<![\d.])\d{1,3}(?:[,\u00a0 ]\d{3})+(?![\d])")  # 10,000 / 10 000
TARGET = re.compile(r"(?<![\w.+-])\d\+(?![\d\w])")  # 2+, "1+, 2+, 3+"
COUNTED = re.compile(r"""\{%\s*for\s+\w+\s+in\s+["']\d+["']""")  # {% for n in "123" %}


def shown_text(source: str) -> str:
    """A template's text outside comments (ids, classes and widths are not prices)."""
    source = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    source = re.sub(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", " ", source, flags=re.S)
    return source


def test_the_grep_finds_what_it_looks_for():
    text = shown_text('{% translate "Bandage Crew: 10,000 per attempt, 1+, 2+, 3+" %} 20\u00a0000 {% for n in "123" %}')
    assert AMOUNT.findall(text) == ["10,000", "20\u00a0000"] and TARGET.findall(text) == ["1+", "2+", "3+"]
    assert COUNTED.search(text)
    assert not AMOUNT.findall("+1 winner, D6, 2D6, R25, 390px") and not TARGET.findall("+1 winner, D6 {{ t }}+")


def test_no_template_types_a_price_or_a_target():
    found = {}
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = shown_text(path.read_text(encoding="utf-8"))
        hits = AMOUNT.findall(text) + TARGET.findall(text) + COUNTED.findall(text)
        if hits:
            found[str(path.relative_to(TEMPLATES))] = hits
    assert found == {}


@pytest.fixture
def changed_rules(db):
    """A newer published version with every staff price, the Bandage Crew and the winnings unit changed."""
    draft = Ruleset.objects.get(name="Torshov 2006").copy_as_draft("Torshov 2027")
    s = draft.data["settings"]
    s.update(
        fan_factor_price=15_000,
        assistant_coach_price=25_000,
        cheerleader_step=12_000,
        apothecary_price=55_000,
        bandage_crew_fee=11_000,
        bandage_crew_targets=[2, 3],
        winnings_unit=5_000,
    )
    draft.save()
    draft.publish()
    return Ruleset.default()


def test_team_creation_shows_the_published_prices(client, coach, changed_rules):
    assert changed_rules.name == "Torshov 2027"
    client.force_login(coach)
    client.cookies["django_language"] = "en"
    race = Race.objects.get(name="Human")
    text = client.get(f"/teams/new/?race={race.slug}").content.decode()
    assert "15,000 each" in text and "25,000 each" in text  # R5-R8 as the version sets them
    assert "12,000, 24,000, 36,000, …" in text  # the n-th cheerleader costs n × step (R6)
    assert "55,000" in text and "10,000 each" not in text


def test_the_rules_page_shows_the_published_targets(client, changed_rules):
    client.cookies["django_language"] = "en"
    text = client.get("/rules/").content.decode()
    assert "Bandage Crew: up to 2 players, 11,000 per attempt, 2+, 3+ (R25)." in text
    assert "× 5,000, never below 0 (R20)" in text
    client.cookies["django_language"] = "nb"
    text = client.get("/rules/").content.decode()
    assert "Bandage Crew: inntil 2 spillere, 11\u00a0000 per forsøk, 2+, 3+ (R25)." in text


def test_the_rules_page_writes_setting_amounts_the_readers_way(client, changed_rules):
    """ "55 000" on a Norwegian page, "55,000" on an English one, not "55000"; no "gp", as the book writes
    amounts."""
    client.cookies["django_language"] = "nb"
    settings = client.get("/rules/").content.decode().split('id="settings"')[1]
    assert "55\u00a0000<" in settings and "55000" not in settings and " gp" not in settings
    client.cookies["django_language"] = "en"
    settings = client.get("/rules/").content.decode().split('id="settings"')[1]
    assert "55,000<" in settings and " gp" not in settings
