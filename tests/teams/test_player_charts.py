"""The player page's SPP match by match (issue 40): his SPP from matches summed as the kept statistics count
them (matches.stats), a match he only played counted too, his level-ups and injuries on the matches that
brought them, read from the rows the post-match wrote; the page's reads stay few."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from league.models import PlayerStats
from league.seasons.services.fixtures import generate_fixtures
from matches.models import DevelopmentRoll, Match, PlayerMatch
from matches.playthrough import walk_postmatch, walk_prematch
from matches.report.confirmation import confirm_report
from matches.report.filing import LineInput, ReportInput, file_report
from tests import factories
from tests.html_tables import table_rows

pytestmark = pytest.mark.django_db


class TestAPlayersMatches:
    """A two-team division's two matches: in the first the team's first player scores twice, in the second
    he plays, is badly hurt and scores nothing; both post-match sequences walked."""

    @classmethod
    def setUpTestData(cls):
        season, teams = factories.season_with(2, 2)
        division = season.divisions.get(level=1)
        generate_fixtures(division)
        team = teams[0]
        cls.player = team.players.order_by("number").first()
        for n, match in enumerate(Match.objects.filter(division=division).order_by("round", "pk")):
            walk_prematch(match)
            other = match.away if match.home_id == team.pk else match.home
            hitter = match.squad.filter(team=other).order_by("player__number").first().player
            if n == 0:
                lines, own, theirs = [LineInput(cls.player.pk, touchdowns=2)], 2, 0
            else:
                lines = [LineInput(cls.player.pk, injury="badly_hurt", injured_by_id=hitter.pk)]
                lines.append(LineInput(hitter.pk, casualties=1))
                own, theirs = 0, 0
            home = match.home_id == team.pk
            report = ReportInput(home_score=own if home else theirs, away_score=theirs if home else own, lines=lines)
            file_report(match, report, by=match.home.coach)
            confirm_report(match, by=match.away.coach)
            walk_postmatch(match)
        cls.matches = list(Match.objects.filter(division=division).order_by("confirmed_at", "pk"))

    def rows(self, client):
        client.cookies["django_language"] = "nb"
        return table_rows(client.get(reverse("player", args=[self.player.pk])).content.decode(), "spp-progress")[1:]

    def test_his_spp_add_up_to_his_kept_career_match_by_match(self, client):
        rows = self.rows(client)
        career = PlayerStats.objects.get(player=self.player, season__isnull=True)
        assert len(rows) == career.matches == 2
        earned = [int(r.cells[2].text) for r in rows]
        totals = [int(r.cells[3].text) for r in rows]
        assert totals == [earned[0], earned[0] + earned[1]] and totals[-1] == career.spp
        assert earned[0] >= 6  # two touchdowns, 3 SPP each (R28), and an MVP if he drew it
        season = PlayerStats.objects.get(player=self.player, season=self.matches[0].season_id)
        assert season.spp == career.spp

    def test_his_level_ups_and_his_injury_are_on_the_matches_that_brought_them(self, client):
        rows = self.rows(client)
        rolled = set(DevelopmentRoll.objects.filter(player=self.player).values_list("match_id", flat=True))
        assert rolled, "two touchdowns are a level-up (R4, R29)"
        levelled = [i for i, r in enumerate(rows) if r.cells[4].text]
        assert [self.matches[i].pk for i in levelled] == sorted(rolled, key=[m.pk for m in self.matches].index)
        hurt = PlayerMatch.objects.get(player=self.player, injury="badly_hurt").match_id
        with translation.override("nb"):
            said = str(PlayerMatch.Injury.BADLY_HURT.label)
        assert [r.cells[5].text for r in rows] == ["" if m.pk != hurt else said for m in self.matches]

    def test_the_chart_marks_each_level_up_and_injury_once(self, client):
        html = client.get(reverse("player", args=[self.player.pk])).content.decode()
        levelled = DevelopmentRoll.objects.filter(player=self.player).values("match_id").distinct().count()
        assert html.count('class="chart__level-up"') == levelled
        assert html.count('class="chart__injury"') == 1
        assert html.count('class="chart__point chart__point--spp"') == 2

    def test_the_page_reads_one_query_more_for_its_chart(self, client):
        """The seven reads of his page (he, his starting and gained skills, his stat changes, a page of his
        lines and their count, his history) and one for the chart: his lines and his squads together; the
        seasons' rulesets are his team's, already read."""
        url = reverse("player", args=[self.player.pk])
        client.get(url)
        cache.clear()
        with CaptureQueriesContext(connection) as read:
            client.get(url)
        assert len(read) <= 8, [q["sql"][:80] for q in read]
