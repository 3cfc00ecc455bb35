"""Words a coach reads in Norwegian, not keys or broken plurals (issue 26)."""

import re

import pytest
from django.utils import translation

from matches.forms.postmatch import choice_text
from matches.prematch.chef import _bought
from teams import services
from teams.models import TreasuryEntry
from tests.factories import human_team, user
from tests.match_classes import OneWalkedMatch


class TestAWalkedMatch(OneWalkedMatch):
    """The league match walked to its report, built once for the class (tests/conftest.py,
    set_up_test_data); each test changes it in a savepoint of its own."""

    @pytest.mark.django_db
    def test_a_disputed_report_is_bestridt_in_its_status_as_in_the_messages(self, client, ready_match):
        """One word for a disputed report, the action's own ("bestrid"): the status, the messages, the to-dos."""
        from django.urls import reverse

        from matches.report.confirmation import dispute_report
        from matches.report.filing import ReportInput, file_report

        file_report(ready_match, ReportInput(home_score=1, away_score=0), by=ready_match.home.coach)
        dispute_report(ready_match, by=ready_match.away.coach, comment="Det ble 1-1.")
        client.force_login(ready_match.home.coach)
        client.cookies["django_language"] = "nb"
        html = client.get(reverse("match", args=[ready_match.pk])).content.decode()
        assert "<p>Bestridt</p>" in html and "Bestridt: Det ble 1-1." in html
        assert "omstrid" not in html.lower()

    @pytest.mark.django_db
    def test_the_pre_match_of_teams_without_a_master_chef_says_nothing_of_him(self, client, ready_match):
        """The Master Chef is the Halflings' head coach (R9): two Human teams' pre-match has no step for him, and
        still says it is complete."""
        from django.urls import reverse

        from matches.models import PreMatch
        from matches.prematch.base import get_prematch

        client.force_login(ready_match.home.coach)
        client.cookies["django_language"] = "nb"
        html = client.get(reverse("match_prematch", args=[ready_match.pk])).content.decode()
        assert get_prematch(ready_match).done == PreMatch.Step.MASTER_CHEF
        assert "Mesterkokk" not in html and "halfling" not in html.lower()
        assert "Før-kamp-sekvensen er ferdig." in html

    @pytest.mark.django_db
    def test_one_touchdown_too_many_is_one_touchdown(self, ready_match):
        from matches.report.filing import LineInput, ReportInput, report_problems

        scorer = ready_match.home.players.order_by("number").first()
        report = ReportInput(home_score=0, away_score=0, lines=[LineInput(scorer.pk, touchdowns=1)])
        with translation.override("nb"):
            problems = report_problems(ready_match, report)
        assert f"1 touchdown er ført på spillere i {ready_match.home.name}, men laget scoret 0." in problems


def test_a_development_choice_reads_as_what_it_gives():
    with translation.override("nb"):
        assert choice_text("stat:MA") == "+1 MA"  # R29's stat increase, not "stat:MA"
        assert choice_text("mutation:Bony Growth") == "Mutasjon: Bony Growth"
        assert choice_text("Block") == "Block"  # skills keep the rulebook's English names


def test_one_master_chef_die_is_singular():
    with translation.override("nb"):
        assert translation.gettext(_bought(1)) % {"team": "Trolls", "cost": "20 000"} == (
            "Trolls: én ekstra terning for 20 000."
        )
        assert translation.gettext(_bought(2)) % {"team": "Trolls", "n": 2, "cost": "40 000"} == (
            "Trolls: 2 ekstra terninger for 40 000."
        )


@pytest.mark.django_db
def test_a_reroll_bought_between_seasons_says_which_price_in_words():
    coach = user("rerolls")
    team = human_team(coach)
    services.buy_reroll(team, by=coach)  # no running season: R7's off-season price
    with translation.override("nb"):
        assert TreasuryEntry.objects.filter(team=team).latest("seq").text == "Team re-roll (pris mellom sesongene)"


@pytest.mark.django_db
def test_a_treasury_line_written_in_english_reads_in_norwegian(client):
    """A ledger line is kept as a message: a coach who bought in English and the board who reads in Norwegian
    each read it in their own language, on the ledger page and in its file; a line older than that (its
    text only) reads as it was written."""
    from django.urls import reverse

    from league.lib.writes import league_writes
    from teams.ledger import lock_team, post_entry

    coach = user("english")
    team = human_team(coach, name="Oslo Ogres")  # hired in the writer's language, as every line below
    with translation.override("en"):
        services.buy_cheerleader(team, by=coach)
        services.expand_stadium(team, steps=1, by=coach)
    with league_writes():
        post_entry(lock_team(team), 1_000, kind=TreasuryEntry.Kind.WINNINGS, description="Gammel linje", by=coach)
    client.force_login(coach)
    client.cookies["django_language"] = "nb"
    html = client.get(reverse("team_ledger", args=[team.pk])).content.decode()
    assert "Duskedame nr. 1" in html and "Cheerleader no. 1" not in html
    assert re.search(r"Stadion \d+\u00a0000 → \d+\u00a0000 seter", html)  # the seats as the tables write them
    assert "Hyret " in html and "Startkapital" in html and "Gammel linje" in html
    assert "Duskedame nr. 1" in client.get(reverse("team_ledger_csv", args=[team.pk])).content.decode("utf-8-sig")
    client.cookies["django_language"] = "en"
    assert "Cheerleader no. 1" in client.get(reverse("team_ledger", args=[team.pk])).content.decode()


@pytest.mark.django_db
def test_the_ledger_names_a_line_once_when_its_text_is_its_kind(client):
    from django.urls import reverse

    from league.lib.writes import league_writes
    from teams.ledger import lock_team, post_entry

    coach = user("ledger")
    team = human_team(coach)
    with league_writes():
        post_entry(lock_team(team), 10_000, kind=TreasuryEntry.Kind.WINNINGS, description="Kampbonus", by=coach)
        post_entry(lock_team(team), -5_000, kind=TreasuryEntry.Kind.PURCHASE, description="Stadionutvidelse", by=coach)
    client.force_login(coach)
    client.cookies["django_language"] = "nb"
    html = client.get(reverse("team_ledger", args=[team.pk])).content.decode()
    assert "Kampbonus" in html and "Kampbonus (Kampbonus)" not in html and "(Kampbonus)" not in html
    assert 'Stadionutvidelse <span class="muted">(Kjøp)</span>' in html  # other lines keep their kind


@pytest.mark.django_db
def test_a_healers_fee_names_the_healer_in_the_readers_language():
    """The healer's fee line (R9's Apprentice) keeps the healer as a message, not the writer's word for it."""
    from league.messages import as_message, translated
    from league.rules.messages import Msg
    from teams.models import Race

    undead = Race.objects.get(name="Undead")
    with translation.override("en"):  # as matches.postmatch.injury_step names the team's healer
        line = Msg("%(healer)s: %(player)s", healer=as_message(Race.Healer(undead.healer).label), player="Grim")
    assert str(line) == "The Apprentice: Grim"
    with translation.override("nb"):
        assert translated(line) == "Åndemanerens læregutt: Grim"


def test_the_catalogue_says_bestridt_and_bekreft_for_a_report():
    import json
    from pathlib import Path

    norwegian = json.loads((Path(__file__).parents[2] / "locale/nb/translations.json").read_text(encoding="utf-8"))
    texts = [t for v in norwegian.values() for t in (v if isinstance(v, list) else [v])]
    assert not [t for t in texts if "omstrid" in t.lower()]  # the status once said "Omstridt", the messages "bestridt"
    assert not [t for t in texts if "godkjenn eller bestrid" in t]  # the action is "Bekreft", as its button


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("race", "said"),
    [
        (
            "Undead",
            "Åndemanerens læregutt: 10\xa0000 per forsøk, høyst 1 død spiller; 2+ gjenoppliver, 1 er død for godt",
        ),
        ("Nurgle", "Nurgle Familiar: 10\xa0000 per forsøk, høyst 2 døde spillere; 2+ gjenoppliver"),
        ("Dwarf", "Bandage Crew: 10\xa0000 per forsøk, høyst 3 døde spillere, forsøkene trenger 1+, 2+, 3+ (R25)."),
    ],
)
def test_the_healer_is_the_teams_own_and_its_count_reads_in_the_singular_too_r9(race, said):
    """R9: the Apprentice for Undead and Necromatic, the Familiar for Nurgle, the Bandage Crew for the rest;
    "høyst 1 døde spillere" was a plural without its singular."""
    from league.models import Ruleset
    from matches.postmatch.injury_facts import healer_price
    from teams.models import Race, Team

    with translation.override("nb"):
        text = healer_price(Team(race=Race.objects.get(name=race)), Ruleset.default().rules)
    assert said in text
    others = {"Åndemanerens læregutt", "Nurgle Familiar", "Bandage Crew"} - {said.split(":")[0]}
    assert not [name for name in others if name in text]


@pytest.mark.django_db
def test_a_halfling_match_has_its_master_chef_step(client, make_user):
    from django.urls import reverse

    from tests.factories import halflings_against_humans

    match = halflings_against_humans(make_user("kari"), make_user("ola"))
    client.force_login(match.home.coach)
    client.cookies["django_language"] = "nb"
    html = client.get(reverse("match_prematch", args=[match.pk])).content.decode()
    assert "<h2>8. Mesterkokk</h2>" in html


def test_a_count_of_one_reads_in_the_singular():
    from matches.dice import DiceError, check_entered

    with translation.override("nb"), pytest.raises(DiceError) as refused:
        check_entered([3, 4], sides=6, count=1)
    assert list(refused.value.messages) == ["1 terning av typen D6 trengs, ikke 2."]


@pytest.mark.django_db
def test_a_team_founded_with_one_of_each_pays_for_them_in_the_singular():
    from tests.factories import position

    coach = user("singular")
    lineman = position("Human", "Lineman")
    team = services.create_team(
        coach=coach,
        name="Ensomme Ulver",
        race=lineman.race,
        hires={lineman.pk: 11},
        rerolls=1,
        assistant_coaches=1,
        cheerleaders=1,
    )
    with translation.override("nb"):
        texts = {e.text for e in TreasuryEntry.objects.filter(team=team)}
    assert {"1 team re-roll", "1 assistenttrener", "1 duskedame"} <= texts


def test_no_text_calls_a_player_or_a_coach_he():
    """The league keeps no one's gender: a sentence names the player (or says "the player"), never "han"."""
    import json
    import re
    from pathlib import Path

    catalogue = json.loads((Path(__file__).parents[2] / "locale/nb/translations.json").read_text(encoding="utf-8"))
    english = [k for k in catalogue if re.search(r"\b(he|him|his)\b", k, re.I)]
    norwegian = [
        t
        for v in catalogue.values()
        for t in (v if isinstance(v, list) else [v])
        if re.search(r"\b(han|ham|hans)\b", t, re.I)
    ]
    assert english == [] and norwegian == []
