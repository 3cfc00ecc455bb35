"""The printable referee sheet (issue 12): a match without an online pre-match lists both rosters to fill by hand."""

import re

import pytest
from django.urls import reverse

from matches.models import SquadEntry
from teams.models import Player
from tests.factories import position
from tests.match_classes import OneScheduledMatch

pytestmark = pytest.mark.django_db


class TestAScheduledMatch(OneScheduledMatch):
    """The scheduled league match, built once for the class (tests/conftest.py,
    set_up_test_data); each test changes it in a savepoint of its own."""

    def test_without_a_pre_match_both_rosters_are_listed_with_empty_boxes(self, client, league_match):
        assert not SquadEntry.objects.filter(match=league_match).exists()
        html = client.get(reverse("referee_sheet", args=[league_match.pk])).content.decode()
        for team in (league_match.home, league_match.away):
            for player in team.players.all():
                assert f'<td class="name">{player.name}' in html
        # 11 + 11 rows, 6 boxes each (COMP, TD, INT, CAS, Foul, Inj.)
        assert html.count('<td class="blank"></td>') == 22 * 6
        assert "The squad is not picked yet." not in html

    def test_no_comma_after_the_last_skill(self, client, league_match):
        player = league_match.home.players.order_by("number").first()
        Player.objects.filter(pk=player.pk).update(position=position("Human", "Catcher"))  # Catch, Dodge; none gained
        html = client.get(reverse("referee_sheet", args=[league_match.pk])).content.decode()
        cells = re.findall(r'<td class="skills">(.*?)</td>', html, re.S)
        assert "Catch, Dodge" in cells
        assert not any(cell.strip().endswith(",") for cell in cells)

    def test_the_home_team_takes_its_extra_team_reroll_onto_the_pitch(self, client, league_match):
        """R14: the designated home team keeps its +1 team re-roll (setting home_team_rerolls, default 1)."""
        client.cookies["django_language"] = "en"
        html = client.get(reverse("referee_sheet", args=[league_match.pk])).content.decode()
        home, away = league_match.home, league_match.away
        assert f"{home.name} · Re-rolls {home.rerolls + 1} (home team, R14)" in html
        assert f"{away.name} · Re-rolls {away.rerolls} ·" in html
