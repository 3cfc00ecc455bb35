"""A forfeit reads walkover wherever its result is shown (R46), in the words a visitor reads, and the board
is offered only what works on it: void, never reopen (there is no report)."""

import pytest
from django.test import Client
from django.urls import reverse

from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from matches.match_page import match_actions
from matches.models import Match
from matches.results import record_forfeit
from tests.html_tables import list_items

pytestmark = pytest.mark.django_db


def norwegian(user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = "nb"
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def forfeited(season_with, board_member):
    """Team A forfeits its first league match against Team B, and Team C its cup match against Team D."""
    season, teams = season_with(2, 2)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    match = Match.objects.filter(division=division).order_by("round", "pk").first()
    cup_teams = [teams[2], teams[3]]
    cup = draw_cup(
        season, teams=cup_teams, name="Torshov-cupen", prize=0, order=[t.pk for t in cup_teams], by=board_member
    )
    final = Match.objects.get(cup=cup, round=1)
    record_forfeit(match, match.home, by=board_member)
    record_forfeit(final, final.home, by=board_member)
    return Match.objects.get(pk=match.pk), Match.objects.get(pk=final.pk)


def line_of(html: str, match: Match) -> str:
    return next(text for text, href in list_items(html) if href == reverse("match", args=[match.pk]))


def test_the_match_page_says_walkover_not_confirmed_r46(forfeited):
    match, _final = forfeited
    html = norwegian().get(reverse("match", args=[match.pk])).content.decode()
    assert "Walkover (W.O.) · Team A gir walkover: motstanderen tildeles seieren (R35)." in html
    assert "0 – 2 <abbr" in html and ">W.O.</abbr>" in html
    assert "Bekreftet" not in html  # the status a played match's confirmed report has
    assert "<h2>Rapport</h2>" not in html  # a forfeit has no report


def test_every_list_marks_the_forfeits_score_w_o_r46(forfeited):
    match, final = forfeited
    client = norwegian()
    season = match.season_id
    pages = {
        "front page": reverse("home"),
        "matches": reverse("matches") + f"?season={season}",
        "season": reverse("season", args=[season]),
        "team's history": reverse("team_history", args=[match.home_id]),
    }
    for name, url in pages.items():
        assert line_of(client.get(url).content.decode(), match).startswith("Team A 0–2 W.O. Team B"), name
    # The cup page and the matches page draw the final in the cup's bracket: a box with a team a line, the
    # winner "videre", then W.O.
    for url in (reverse("cup", args=[season]), reverse("matches") + f"?season={season}"):
        assert line_of(client.get(url).content.decode(), final) == "Team C 0 Team D 2 videre W.O.", url


def test_the_results_file_calls_it_a_walkover_r46(forfeited):
    match, _final = forfeited
    text = norwegian().get(reverse("season_results_csv", args=[match.season_id])).content.decode("utf-8-sig")
    line = next(line for line in text.splitlines() if "Team A;Team B" in line)
    assert line.endswith(";0;2;0;0;Walkover (W.O.)")


def test_the_board_is_offered_void_not_reopen_on_a_forfeit_r46(forfeited, board_member):
    match, _final = forfeited
    actions = match_actions(board_member, match, board=True)
    assert (actions.reopen, actions.void) == (False, True)
    html = norwegian(board_member).get(reverse("match", args=[match.pk])).content.decode()
    assert "Annuller (styret)" in html and "Åpne igjen (styret)" not in html


def test_a_played_match_is_offered_both_and_a_void_one_neither(ready_match, board_member):
    from matches.report.confirmation import confirm_report, void_match
    from matches.report.filing import ReportInput, file_report

    def offered(match):
        actions = match_actions(board_member, match, board=True)
        return actions.reopen, actions.void

    assert offered(ready_match) == (False, True)  # scheduled: nothing to reopen
    file_report(ready_match, ReportInput(home_score=1, away_score=0, lines=[]), by=ready_match.home.coach)
    confirm_report(ready_match, by=ready_match.away.coach)
    ready_match.refresh_from_db()
    assert offered(ready_match) == (True, True)
    html = norwegian(board_member).get(reverse("match", args=[ready_match.pk])).content.decode()
    assert "Åpne igjen (styret)" in html and "Annuller (styret)" in html
    void_match(ready_match, by=board_member)
    ready_match.refresh_from_db()
    assert offered(ready_match) == (False, False)
