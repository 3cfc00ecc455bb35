"""A walked pre-match's explanations in the reader's language (issue 12): stored as message ids with
parameters, the same row reads in Norwegian on a Norwegian page and in English on an English one."""

import html

import pytest
from django.urls import reverse

from league.rules.messages import Msg
from matches.models import PreMatch
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from teams.models import Team

pytestmark = pytest.mark.django_db
NBSP = "\u00a0"


def page(client, match, language):
    client.cookies["django_language"] = language
    response = client.get(reverse("match_prematch", args=[match.pk]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_gate_reads_in_both_languages(client, league_match):
    match = league_match
    Team.objects.filter(pk=match.home_id).update(fan_factor=8)
    Team.objects.filter(pk=match.away_id).update(fan_factor=6)
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.all()], by=team.coach)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    # EXAMPLES.md: home 8 D6 +1 each = 36,000; away 6 D6 -1 each = 13,000; FFM +5 (R12, R13, R15)
    roll_gate(match, home_dice=[3, 5, 1, 6, 2, 4, 6, 1], away_dice=[2, 2, 3, 1, 6, 5], by=None)
    stored = PreMatch.objects.get(match=match)
    home_line = stored.explanations["gate"][0]
    assert isinstance(home_line, Msg) and home_line.msgid == "%(team)s: FF %(ff)s × D%(die)s. %(steps)s"
    assert home_line == (
        f"{match.home.name}: FF 8 × D6. home +1 per die; "
        "dice [3, 5, 1, 6, 2, 4, 6, 1] → [4, 6, 2, 7, 3, 5, 7, 2] = 36 × 1,000 = 36,000"
    )

    client.force_login(match.home.coach)
    norwegian = page(client, match, "nb")
    assert (
        f"{match.home.name}: FF 8 × D6. hjemme +1 per terning; "
        f"terninger 3, 5, 1, 6, 2, 4, 6, 1 → 4, 6, 2, 7, 3, 5, 7, 2 = 36 × 1{NBSP}000 = 36{NBSP}000"
    ) in norwegian
    assert (
        f"borte -1 per terning; terninger 2, 2, 3, 1, 6, 5 → 1, 1, 2, 0, 5, 4 = 13 × 1{NBSP}000 = 13{NBSP}000"
        in norwegian
    )
    assert "Fan Factor-modifier: rad 40, kolonne 15: +5" in norwegian
    assert "Vær: 2D6 3+4 = 7" in norwegian and "Billetter: ordinære." in norwegian
    assert "per die" not in norwegian and "[3, 5" not in norwegian

    english = page(client, match, "en")
    assert "home +1 per die; dice 3, 5, 1, 6, 2, 4, 6, 1 → 4, 6, 2, 7, 3, 5, 7, 2 = 36 × 1,000 = 36,000" in english
    assert "Fan Factor-modifier: row 40, column 15: +5" in english
    assert "Weather: 2D6 3+4 = 7" in english and "Tickets: ordinary." in english
    assert "terning" not in english
