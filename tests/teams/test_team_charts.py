"""The team page's form strip and its TR, treasury and fan factor match by match (issue 40): the numbers the
team had after each match, as the test saw them while the matches were played through the services; a
voided match leaves the strip and the lines; the page's reads stay few."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match
from matches.playthrough import walk_postmatch, walk_prematch
from matches.report.confirmation import confirm_report, reopen_report, settle_report, void_match
from matches.report.filing import LineInput, ReportInput, file_report
from teams.ledger import treasury
from teams.models import Team
from teams.selectors import roster_sheet
from tests import factories
from tests.html_tables import table_rows

pytestmark = pytest.mark.django_db

# The scores of the team's matches, its own first: a win, a draw and (the match left unfinished) a loss.
SCORES = [(2, 1), (1, 1), (0, 2)]


def play(match, team, scored, conceded, *, postmatch=True):
    """The match through its pre-match, a report with the touchdowns credited, its confirmation and, with
    `postmatch`, both post-match sequences."""
    walk_prematch(match)
    home = match.home_id == team.pk
    score = {match.home_id: scored if home else conceded, match.away_id: conceded if home else scored}
    lines = []
    for side in (match.home, match.away):
        if score[side.pk]:
            scorer = match.squad.filter(team=side).order_by("player__number").first().player
            lines.append(LineInput(scorer.pk, touchdowns=score[side.pk]))
    file_report(
        match,
        ReportInput(home_score=score[match.home_id], away_score=score[match.away_id], lines=lines),
        by=match.home.coach,
    )
    confirm_report(match, by=match.away.coach)
    if postmatch:
        walk_postmatch(match)


def strip(html: str) -> list[tuple[str, str]]:
    """The team page's form strip as it reads: each result's class and its letter."""
    found = re.search(
        r'<section class="card no-print team-charts".*?<ol class="form-strip"[^>]*>(.*?)</ol>', html, re.S
    )
    return re.findall(r'form-strip__result--(\w+)"><a [^>]*><span aria-hidden="true">(\w)</span>', found.group(1))


class TestATeamsSeason:
    """Three teams in a division; the first plays a win and a draw with both post-match sequences walked,
    then a loss confirmed whose sequences are not begun."""

    @classmethod
    def setUpTestData(cls):
        season, teams = factories.season_with(3, 2)
        division = season.divisions.get(level=1)
        generate_fixtures(division)
        cls.team = teams[0]
        cls.after = []  # (TR, treasury, fan factor) after each of its finished matches, as the team stood
        played = 0
        for match in Match.objects.filter(division=division).order_by("round", "pk"):
            if cls.team.pk not in (match.home_id, match.away_id):
                play(match, match.home, 1, 0)  # the others' match: the team's page knows nothing of it
                continue
            scored, conceded = SCORES[played]
            last = played == len(SCORES) - 1
            play(match, cls.team, scored, conceded, postmatch=not last)
            if last:
                cls.unfinished = match
                break
            team = Team.objects.get(pk=cls.team.pk)
            cls.after.append((roster_sheet(team.pk).team_rating.value, treasury(team), team.fan_factor))
            played += 1

    def page(self, client, language="nb"):
        client.cookies["django_language"] = language
        return client.get(reverse("team", args=[self.team.pk])).content.decode()

    def test_each_match_shows_the_team_as_it_stood_after_it(self, client):
        html = self.page(client)
        rows = table_rows(html, "team-progress")[1:]
        assert len(rows) == 3
        tr, _gold, ff = zip(*self.after, strict=True)
        assert [r.cells[3].text for r in rows] == [str(tr[0]), str(tr[1]), "–"]  # the last sequence not ended
        assert [r.cells[4].text for r in rows] == [str(ff[0]), str(ff[1]), "–"]
        assert len(rows[0].cells) == 5  # a visitor sees no treasury (issue 14)
        assert [r.cells[2].text for r in rows] == ["Seier 2–1", "Uavgjort 1–1", "Tap 0–2"]
        # a point on each line where the value is known: two TR and two fan factors, no treasury line
        assert html.count('class="chart__point chart__point--team_rating"') == 2
        assert html.count('class="chart__point chart__point--fan_factor"') == 2
        assert "chart__line--treasury" not in html

    def test_a_member_sees_the_treasury_after_each_match_too(self, client):
        client.force_login(self.team.coach)
        rows = table_rows(self.page(client), "team-progress")[1:]
        shown = [r.cells[4].text for r in rows]
        assert [int(re.sub(r"\D", "", gold)) for gold in shown[:2]] == [g for _tr, g, _ff in self.after]
        assert shown[0][-4] not in "0123456789" and shown[2] == "–"  # the thousands apart, as Norwegian writes them

    def test_the_form_strip_reads_the_results_in_the_order_played(self, client):
        confirmed = Match.objects.for_team(self.team).confirmed().order_by("confirmed_at", "pk")
        outcomes = []
        for m in confirmed:
            own, other = (m.home_score, m.away_score) if m.home_id == self.team.pk else (m.away_score, m.home_score)
            outcomes.append("win" if own > other else "loss" if own < other else "draw")
        assert outcomes == ["win", "draw", "loss"]
        assert strip(self.page(client)) == [("win", "S"), ("draw", "U"), ("loss", "T")]
        assert strip(self.page(client, "en")) == [("win", "W"), ("draw", "D"), ("loss", "L")]

    def test_the_strip_says_what_it_shows(self, client):
        """A newcomer sees S, U and T under "Form": the page says they are the last five, league and cup."""
        section = self.page(client).split('class="card no-print team-charts"')[1].split("</section>")[0]
        assert "De fem siste kampene i liga og cup, også fra forrige sesong, den eldste først" in section
        assert "S seier, U uavgjort, T tap" in section

    def test_a_voided_match_leaves_the_strip_and_the_lines(self, client, board_member):
        void_match(self.unfinished, by=board_member)
        html = self.page(client)
        assert strip(html) == [("win", "S"), ("draw", "U")]
        rows = table_rows(html, "team-progress")[1:]
        assert [r.cells[2].text for r in rows] == ["Seier 2–1", "Uavgjort 1–1"]
        assert [r.cells[3].text for r in rows] == [str(tr) for tr, _g, _ff in self.after]

    def test_a_corrected_report_moves_the_strip_and_the_lines(self, client, board_member):
        """The board reopens the 0–2 loss and settles it as a 3–2 win (R45, R47): the strip and the table
        read the board's result, as the kept statistics do."""
        match = self.unfinished
        reopen_report(match, by=board_member)
        home = match.home_id == self.team.pk
        score = {self.team.pk: 3, (match.away_id if home else match.home_id): 2}
        lines = []
        for side in (match.home, match.away):
            scorer = match.squad.filter(team=side).order_by("player__number").first().player
            lines.append(LineInput(scorer.pk, touchdowns=score[side.pk]))
        corrected = ReportInput(home_score=score[match.home_id], away_score=score[match.away_id], lines=lines)
        settle_report(match, corrected, by=board_member)
        html = self.page(client)
        assert strip(html) == [("win", "S"), ("draw", "U"), ("win", "S")]
        rows = table_rows(html, "team-progress")[1:]
        assert [r.cells[2].text for r in rows] == ["Seier 2–1", "Uavgjort 1–1", "Seier 3–2"]

    def test_the_page_reads_one_query_more_for_its_charts(self, client):
        """A visitor's page not kept: the seven reads of the roster sheet (tests/teams/test_roster_sheet.py:
        in a test's transaction no page is kept, so the league version is not read) and one for the charts,
        however many matches the team has played."""
        client.get(reverse("team", args=[self.team.pk]))  # warm: the parsed ruleset
        cache.clear()
        with CaptureQueriesContext(connection) as read:
            self.page(client)
        assert len(read) <= 8, [q["sql"][:80] for q in read]
