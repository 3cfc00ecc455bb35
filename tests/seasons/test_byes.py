"""A cup with byes (R34): every page, list, preview, API and admin page that shows matches handles a
match with one team (issue 24).

A cup of five teams drawn in a set order has three byes (the first three drawn) and, in round two, a
match whose home team is known and whose away team waits for the winner of the one real first-round
match. Each page is read as a visitor, a coach whose team has a bye, another coach and the board, in
Norwegian: 200 and the bye shown as a bye ("frirunde": "walkover" is a forfeit's word, R46)."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Ruleset
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season, start_season
from matches.models import Match
from matches.report.confirmation import void_match
from matches.report.filing import ReportError
from tests import factories

pytestmark = pytest.mark.django_db

BYE_NB = "frirunde"


def norwegian(user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = "nb"
    if user is not None:
        client.force_login(user)
    return client


ROLES = ["anonymous", "bye_coach", "other_coach", "board"]


def _user(role: str, world: dict):
    if role == "anonymous":
        return None
    if role == "board":
        return world["board"]
    if role == "bye_coach":
        return world["teams"][0].coach
    return world["teams"][6].coach  # plays in the 2nd division, not in the cup


def _pages(world: dict) -> dict[str, tuple[str, bool]]:
    """Every page that shows matches: its address, and whether it shows the bye itself."""
    season, bye, waiting = world["season"], world["bye"], world["waiting"]
    bye_team, waiting_team = bye.home, waiting.home
    return {
        "front page": (reverse("home"), True),
        "standings": (reverse("standings"), False),
        "seasons": (reverse("seasons"), False),
        "season": (reverse("season", args=[season.pk]), True),
        "cup": (reverse("cup", args=[season.pk]), True),
        "matches": (reverse("matches"), True),
        "matches of the season": (reverse("matches") + f"?season={season.pk}", True),
        "matches of the bye's team": (reverse("matches") + f"?season={season.pk}&team={bye_team.pk}", True),
        "the bye": (reverse("match", args=[bye.pk]), True),
        "the waiting match": (reverse("match", args=[waiting.pk]), False),
        "bye team": (reverse("team", args=[bye_team.pk]), False),
        "bye team's history": (reverse("team_history", args=[bye_team.pk]), False),
        "waiting team": (reverse("team", args=[waiting_team.pk]), False),
        "waiting team's history": (reverse("team_history", args=[waiting_team.pk]), False),
        "api seasons": (reverse("api_seasons"), False),
        "api standings": (reverse("api_standings", args=[season.pk]), False),
        "api teams": (reverse("api_teams"), False),
        "api bye team": (reverse("api_team", args=[bye_team.pk]), False),
        "api waiting team": (reverse("api_team", args=[waiting_team.pk]), False),
    }


class TestACupWithByes:
    """The cup with byes, built once for the class (tests/conftest.py, set_up_test_data)."""

    @classmethod
    def setUpTestData(cls):
        """Two divisions with fixtures; a cup of five of the season's teams, drawn A, B, C, D, E: A, B and C
        have byes, D meets E; round two has A–B and C–(the winner of D–E)."""
        teams = factories.teams(7)
        board = factories.user("styret", board=True, coach=False)
        season = create_season(
            name="Sesong 1",
            ruleset=Ruleset.default(),
            divisions=[
                DivisionPlan(1, "1. divisjon", 6, teams[:4]),
                DivisionPlan(2, "2. divisjon", 5, teams[4:]),
            ],
        )
        for division in season.divisions.all():
            generate_fixtures(division)
        start_season(season)
        cup_teams = teams[:5]
        cup = draw_cup(
            season, teams=cup_teams, name="Torshov-cupen", prize=0, order=[t.pk for t in cup_teams], by=board
        )
        bye = Match.objects.get(cup=cup, round=1, home=teams[0])
        waiting = Match.objects.get(cup=cup, round=2, home=teams[2])
        assert bye.status == Match.Status.BYE and bye.away_id is None
        assert waiting.status == Match.Status.SCHEDULED and waiting.away_id is None
        cls.cup_with_byes = {
            "season": season,
            "cup": cup,
            "teams": teams,
            "board": board,
            "bye": bye,
            "waiting": waiting,
        }

    def test_a_bye_reads_as_a_bye_in_its_string(self):
        from django.utils import translation

        bye, waiting = self.cup_with_byes["bye"], self.cup_with_byes["waiting"]
        with translation.override("nb"):
            assert str(bye) == f"{bye.home.name} – {BYE_NB}"
            assert str(waiting) == f"{waiting.home.name} – ?"

    def test_the_rules_preview_lists_the_matches_of_a_league_whose_cup_has_byes(self):
        """The preview's match picker read the away team's name of a bye: a server error for the board."""
        ruleset = Ruleset.default()
        team = self.cup_with_byes["teams"][0]
        board = norwegian(self.cup_with_byes["board"])
        response = board.get(reverse("rules_version_preview", args=[ruleset.pk]))
        assert response.status_code == 200
        html = response.content.decode()
        assert f"{team.name} – {BYE_NB}" not in html  # a bye has no gate and no winnings: nothing to preview
        waiting = self.cup_with_byes["waiting"]
        assert f"{waiting.home.name} – ?" in html  # a cup match that waits for its away team is listed as such
        # A match picked with a team computes; a bye's id is not a choice.
        league_match = Match.objects.filter(division__isnull=False, home=team).first()
        ok = board.get(reverse("rules_version_preview", args=[ruleset.pk]), {"team": team.pk, "match": league_match.pk})
        assert ok.status_code == 200 and f"Kampbonus for {team.name}" in ok.content.decode()
        refused = board.get(
            reverse("rules_version_preview", args=[ruleset.pk]),
            {"team": team.pk, "match": self.cup_with_byes["bye"].pk},
        )
        assert refused.status_code == 200 and "errorlist" in refused.content.decode()

    def test_the_rules_preview_of_a_match_that_waits_for_its_away_team(self):
        ruleset = Ruleset.default()
        waiting = self.cup_with_byes["waiting"]
        board = norwegian(self.cup_with_byes["board"])
        response = board.get(
            reverse("rules_version_preview", args=[ruleset.pk]), {"team": waiting.home_id, "match": waiting.pk}
        )
        assert response.status_code == 200

    @pytest.mark.parametrize("role", ROLES)
    def test_every_page_that_shows_matches_handles_a_bye(self, role):
        client = norwegian(_user(role, self.cup_with_byes))
        for name, (url, shows_bye) in _pages(self.cup_with_byes).items():
            response = client.get(url)
            assert response.status_code == 200, (name, url, response.status_code)
            if shows_bye:
                assert BYE_NB in response.content.decode(), (name, url)

    def test_mitt_lag_of_a_coach_whose_team_has_a_bye(self):
        for team in (self.cup_with_byes["bye"].home, self.cup_with_byes["waiting"].home):
            response = norwegian(team.coach).get(reverse("coach_home"))
            assert response.status_code == 200, team

    @pytest.mark.parametrize("role", ROLES)
    def test_the_pages_of_a_bye_that_are_for_a_played_match_do_not_fail(self, role):
        """A bye is never played: its pre-match, live log, report and referee sheet are not a server error
        for anyone who types their address (a 404, a refusal or a redirect)."""
        client = norwegian(_user(role, self.cup_with_byes))
        for match in (self.cup_with_byes["bye"], self.cup_with_byes["waiting"]):
            for name in ("match_prematch", "match_live", "match_report", "referee_sheet"):
                response = client.get(reverse(name, args=[match.pk]))
                assert response.status_code in (200, 302, 403, 404), (name, match, response.status_code)
            for team in (match.home,):
                response = client.get(reverse("match_postmatch", args=[match.pk, team.pk]))
                assert response.status_code in (200, 302, 403, 404), ("match_postmatch", match, response.status_code)

    def test_the_admin_lists_and_opens_a_bye(self):
        board = self.cup_with_byes["board"]
        board.is_superuser = True  # the admin's match pages are for the board's staff accounts
        board.save(update_fields=["is_superuser"])
        client = norwegian(board)
        listing = client.get(reverse("admin:matches_match_changelist"))
        assert listing.status_code == 200 and BYE_NB in listing.content.decode()
        for match in (self.cup_with_byes["bye"], self.cup_with_byes["waiting"]):
            response = client.get(reverse("admin:matches_match_change", args=[match.pk]))
            assert response.status_code == 200, match

    @pytest.mark.parametrize("role", ["bye_coach", "board"])
    def test_the_page_of_a_bye_links_to_nothing_a_bye_does_not_have(self, role):
        """The match page offers only what the next page does: a bye has no pre-match, report or sheet."""
        bye = self.cup_with_byes["bye"]
        html = norwegian(_user(role, self.cup_with_byes)).get(reverse("match", args=[bye.pk])).content.decode()
        for name in ("match_prematch", "match_report", "referee_sheet", "match_live", "match_void"):
            assert reverse(name, args=[bye.pk]) not in html, name

    def test_the_board_cannot_void_a_bye(self):
        """A bye is no match to void (the draw gave it, R34): refused, in Norwegian, and its team stays in
        round two."""
        bye, board = self.cup_with_byes["bye"], self.cup_with_byes["board"]
        with pytest.raises(ReportError):
            void_match(bye, by=board)
        page = norwegian(board).post(reverse("match_void", args=[bye.pk]), {"confirmed": "1"}, follow=True)
        assert "En frirunde er ingen kamp å annullere" in page.content.decode()
        assert Match.objects.get(pk=bye.pk).status == Match.Status.BYE
        assert Match.objects.filter(cup=bye.cup_id, round=2, home=bye.home_id).exists()
