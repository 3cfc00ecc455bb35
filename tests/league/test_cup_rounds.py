"""A cup round has one name wherever it is named (R34): the final is "finale" on the cup page, the match page,
Mitt lag, the team page, the referee sheet and the board's dates, never "runde 3" in one place and "Finale" in
another; and a drawn cup match names the team that went on after the tiebreak."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import round_name
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from matches.models import Match
from matches.playthrough import walk_prematch
from matches.report.confirmation import confirm_report
from matches.report.filing import ReportInput, file_report
from tests import factories


@pytest.mark.parametrize(
    ("teams", "names"),
    [
        (2, ["finale"]),
        (4, ["semifinale", "finale"]),
        (5, ["kvartfinale", "semifinale", "finale"]),  # byes in the first round: three rounds all the same
        (8, ["kvartfinale", "semifinale", "finale"]),
        (9, ["runde 1", "kvartfinale", "semifinale", "finale"]),
        (16, ["runde 1", "kvartfinale", "semifinale", "finale"]),
    ],
)
def test_a_cup_round_is_named_back_from_the_final(teams, names):
    with translation.override("nb"):
        assert [round_name(n, cup_teams=teams) for n in range(1, len(names) + 1)] == names


def test_a_division_round_is_its_number():
    with translation.override("nb"):
        assert round_name(3) == "runde 3"
    with translation.override("en"):
        assert round_name(3, cup_teams=8) == "final"


def norwegian(user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = "nb"
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_final_is_the_final_on_every_page_that_names_it(board_member):
    season, teams = factories.season_with(2, 2)
    generate_fixtures(season.divisions.get(level=1))
    cup = draw_cup(
        season, teams=teams[2:], name="Torshov-cupen", prize=0, order=[t.pk for t in teams[2:]], by=board_member
    )
    final = Match.objects.get(cup=cup)
    coach = final.home.coach
    pages = {
        "cup": (reverse("cup", args=[season.pk]), "<h3>Finale</h3>"),
        "match": (reverse("match", args=[final.pk]), "Torshov-cupen, finale"),
        "Mitt lag": (reverse("coach_home"), "Torshov-cupen, finale"),
        "team": (reverse("team", args=[final.home_id]), "Torshov-cupen, finale"),
        "referee sheet": (reverse("referee_sheet", args=[final.pk]), "Torshov-cupen, finale"),
    }
    for name, (url, shown) in pages.items():
        html = norwegian(coach).get(url).content.decode()
        assert shown in html, name
        assert "runde 1" not in html.lower(), name
    schedule = norwegian(board_member).get(reverse("season_schedule", args=[season.pk])).content.decode()
    assert "Cupen, finale" in schedule


@pytest.mark.django_db
def test_a_drawn_cup_match_names_who_went_on_after_the_tiebreak_r34(board_member):
    season, teams = factories.season_with(2, 2)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board_member)
    match = cup.matches.get(round=1, cup_slot=0)
    walk_prematch(match)
    file_report(match, ReportInput(home_score=1, away_score=1, tiebreak_winner_id=match.away_id), by=board_member)
    confirm_report(match, by=board_member)
    html = norwegian().get(reverse("cup", args=[season.pk])).content.decode()
    line = html[html.index(reverse("match", args=[match.pk])) :].split("</li>")[0]
    assert f"1–1, {match.away.name} videre etter tiebreak" in line
    assert "<h3>Semifinale</h3>" in html and "<h3>Finale</h3>" in html
