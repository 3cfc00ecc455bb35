"""Every input of the pre- and post-match steps gets an answer (issue 10): a die that cannot be is refused
beside its field with what was typed kept, for htmx (the fragment) and a plain post (the page), both 422;
nothing is written; every die can be typed; the Bandage Crew is offered exactly whom R25 allows."""

import re

import pytest
from django.urls import reverse

from league.models import Ruleset
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season
from matches.models import ApothecaryUse, DiceRoll, Match, PostMatch, PreMatch, SquadEntry
from matches.postmatch.base import PostMatchError
from matches.postmatch.injury_facts import healer_candidates, roll_injury_dice
from matches.postmatch.injury_step import injuries
from matches.postmatch.steps import stadium, winnings
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import roll_handicap
from matches.report.confirmation import confirm_report
from matches.report.filing import ApothecaryInput, LineInput, ReportInput, file_report
from teams.models import Player, Position, Race, Team
from teams.services import buy_apothecary, create_team
from tests import factories
from tests.matches.test_postmatch import _played_chaos, build_played
from tests.matches.test_prematch import advance_to
from tests.matches.test_report import user_for

pytestmark = pytest.mark.django_db


def prematch_url(match, step):
    return reverse("match_prematch_step", args=[match.pk, step])


def postmatch_url(match, team, step):
    return reverse("match_postmatch_step", args=[match.pk, team.pk, step])


def field_error(html, name):
    """The error list Django renders beside the input called `name` (its id is in aria-describedby)."""
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert tag, f"no input {name}"
    described = re.search(r'aria-describedby="([^"]+)"', tag.group(0))
    assert described, f"{name} has no error: {tag.group(0)}"
    errors = re.search(rf'<ul class="errorlist" id="{described.group(1)}">(.*?)</ul>', html, re.S)
    return tag.group(0), re.sub(r"<[^>]+>", " ", errors.group(1))


# --- pre-match -----------------------------------------------------------------------------------------


class TestWithALeagueMatch:
    """A scheduled league match, built once for the class (tests/conftest.py, set_up_test_data)."""

    @classmethod
    def setUpTestData(cls):
        cls.league_match = factories.league_match()

    @pytest.mark.parametrize(
        ("typed", "message"),
        [
            ("7 1", "A D6 shows 1–6, not 7"),
            ("0 3", "A D6 shows 1–6, not 0"),
            ("x", "Write the dice as numbers"),
            ("3", "2 dice of D6 are needed, not 1"),
            ("3 4 5", "2 dice of D6 are needed, not 3"),
            ("3\x004", "Write the dice as numbers"),
            ("9" * 5000, "Write the dice as numbers"),
        ],
    )
    @pytest.mark.parametrize("htmx", [True, False])
    def test_an_impossible_weather_die_is_refused_beside_the_field(self, client, typed, message, htmx):
        match = self.league_match
        advance_to(match, PreMatch.Step.WEATHER)
        client.force_login(match.home.coach)
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = client.post(prematch_url(match, "weather"), {"weather": typed}, **headers)
        html = response.content.decode()
        assert response.status_code == 422
        assert ("<html" in html) is not htmx  # htmx gets the fragment, a plain post the whole page
        tag, errors = field_error(html, "weather")
        assert message in errors
        if "\x00" not in typed and len(typed) < 100:
            assert f'value="{typed}"' in tag  # what was typed is kept
        assert not DiceRoll.objects.filter(match=match, purpose="weather").exists()
        assert PreMatch.objects.get(match=match).done == PreMatch.Step.SQUADS

    def test_a_valid_weather_die_moves_on(self, client):
        match = self.league_match
        advance_to(match, PreMatch.Step.WEATHER)
        client.force_login(match.home.coach)
        response = client.post(prematch_url(match, "weather"), {"weather": "6 6"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert "Snøstorm" in response.content.decode() or "Blizzard" in response.content.decode()  # 12
        assert DiceRoll.objects.get(match=match, purpose="weather").values == [6, 6]

    def test_a_d66_of_17_is_refused_for_the_handicap(self, client):
        match = self.league_match
        advance_to(match, PreMatch.Step.HANDICAP)
        client.force_login(match.home.coach)
        response = client.post(prematch_url(match, "handicap"), {"handicap": "15 17"}, HTTP_HX_REQUEST="true")
        tag, errors = field_error(response.content.decode(), "handicap")
        assert "A D66 is two dice of 1–6 (11–66), not 7" in errors and 'value="15 17"' in tag
        assert not DiceRoll.objects.filter(match=match, step="handicap").exists()

    def test_a_refusal_of_the_service_is_shown(self, client):
        match = self.league_match
        advance_to(match, PreMatch.Step.WEATHER)
        client.force_login(match.home.coach)
        client.post(prematch_url(match, "weather"), {"weather": "3 4"})
        response = client.post(prematch_url(match, "weather"), {"weather": "5 5"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 422 and "This step is already done." in response.content.decode()
        assert DiceRoll.objects.get(match=match, purpose="weather").values == [3, 4]

    def test_a_squad_of_players_not_on_the_roster_is_refused_beside_it(self, client):
        match = self.league_match
        client.force_login(match.home.coach)
        response = client.post(
            prematch_url(match, "squad"), {"team": match.home_id, "players": [match.away.players.first().pk, "x"]}
        )
        assert response.status_code == 422
        assert 'class="errorlist"' in response.content.decode()
        assert not SquadEntry.objects.filter(match=match).exists()


def test_a_six_on_the_2nd_divisions_d5_is_refused(client, season_with):
    season, _teams = season_with(2, 2)
    division = season.divisions.get(level=2)
    generate_fixtures(division)
    match = Match.objects.filter(division=division).order_by("round", "pk").first()
    Team.objects.filter(pk=match.home_id).update(fan_factor=2)
    match = Match.objects.get(pk=match.pk)
    advance_to(match, PreMatch.Step.GATE)
    client.force_login(match.home.coach)
    ff = match.home.fan_factor
    typed = " ".join(["6"] * ff)
    response = client.post(prematch_url(match, "gate"), {"home_gate": typed}, HTTP_HX_REQUEST="true")
    tag, errors = field_error(response.content.decode(), "home_gate")
    assert "A D5 shows 1–5, not 6" in errors and f'value="{typed}"' in tag
    assert f"FF {ff} × D5" in response.content.decode()  # the field says which dice it wants (R12)
    assert PreMatch.objects.get(match=match).done == PreMatch.Step.TICKETS


# --- post-match ----------------------------------------------------------------------------------------


def walk_to_mvp(match, team):
    winnings(match, team, roll=[3], by=None)
    injuries(match, team, by=None)
    stadium(match, team, by=None)


class TestAfterTheTrollsBeatTheSaints:
    """The match build_played() plays, built once for the class (tests/conftest.py, set_up_test_data)."""

    @classmethod
    def setUpTestData(cls):
        cls.played = build_played()

    @pytest.mark.parametrize("htmx", [True, False])
    def test_an_impossible_winnings_die_is_refused_then_a_good_one_pays(self, client, htmx):
        match, home, *_ = self.played
        client.force_login(home.coach)
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = client.post(postmatch_url(match, home, "winnings"), {"roll": "7", "kiosk": "x"}, **headers)
        html = response.content.decode()
        assert response.status_code == 422
        tag, errors = field_error(html, "roll")
        assert "A D6 shows 1–6, not 7" in errors and 'value="7"' in tag
        tag, errors = field_error(html, "kiosk")
        assert "Write the dice as numbers" in errors and 'value="x"' in tag
        assert PostMatch.objects.get(match=match, team=home).done == 0
        assert not DiceRoll.objects.filter(match=match, step="winnings").exists()
        response = client.post(postmatch_url(match, home, "winnings"), {"roll": "4", "kiosk": "3"}, **headers)
        assert response.status_code == (200 if htmx else 302)
        assert PostMatch.objects.get(match=match, team=home).winnings == 70_000  # 4 + win + home + 1 (R20)

    def test_the_away_team_has_no_kiosk_field(self, client):
        match, _home, away, *_ = self.played
        client.force_login(away.coach)
        html = client.get(reverse("match_postmatch", args=[match.pk, away.pk])).content.decode()
        assert 'name="roll"' in html and 'name="kiosk"' not in html

    def test_the_mvp_step_lists_its_candidates_and_asks_for_their_die(self, client):
        match, home, _away, h, _a = self.played
        walk_to_mvp(match, home)
        client.force_login(home.coach)
        html = client.get(reverse("match_postmatch", args=[match.pk, home.pk])).content.decode()
        # the two who earned SPP (R27): #1 (2 TD) and #2 (a casualty), faces 1 and 2 of a D2
        section = html[html.index('id="step-mvp"') :]
        assert re.search(rf"<li>#{h[0].number} [^<]*</li><li>#{h[1].number} ", section)
        assert "D2: the face is the candidate&#x27;s number (R27)" in section
        response = client.post(postmatch_url(match, home, "mvp"), {"roll": "3"}, HTTP_HX_REQUEST="true")
        _tag, errors = field_error(response.content.decode(), "roll")
        assert "A D2 shows 1–2, not 3" in errors
        client.post(postmatch_url(match, home, "mvp"), {"roll": "2"})
        assert PostMatch.objects.get(match=match, team=home).mvp_id == h[1].pk

    def test_no_mvp_die_for_a_team_that_gets_no_mvp_r27(self, client):
        match, home, *_ = self.played
        Team.objects.filter(pk=home.pk).update(mvps_received=5)
        walk_to_mvp(match, home)
        client.force_login(home.coach)
        html = client.get(reverse("match_postmatch", args=[match.pk, home.pk])).content.decode()
        section = html[html.index('id="step-mvp"') : html.index('id="step-development"')]
        assert 'name="roll"' not in section and "No MVP for this team" in section
        client.post(postmatch_url(match, home, "mvp"), {})
        assert PostMatch.objects.get(match=match, team=home).done == PostMatch.Step.MVP


def test_the_mutation_d4_and_its_re_roll_are_typed_r29(client, make_user):
    from teams.models import PlayerSkill, Skill

    match, home, _away, h, _a = _played_chaos(make_user)
    player = h[0]
    PlayerSkill.objects.create(player=player, skill=Skill.objects.get(name="Claw"), origin="registered")
    client.force_login(home.coach)
    client.post(postmatch_url(match, home, "roll-development"), {f"dev_{player.pk}_1": "2 2"})
    roll = match.developments.get(player=player)
    html = client.get(reverse("match_postmatch", args=[match.pk, home.pk])).content.decode()
    assert f'name="mutation_{player.pk}_1"' in html and "Mutation D4, if a mutation is chosen" in html
    data = {f"choice_{roll.pk}": "mutation:Bony Growth", f"mutation_{player.pk}_1": "5"}
    response = client.post(postmatch_url(match, home, "development"), data, HTTP_HX_REQUEST="true")
    _tag, errors = field_error(response.content.decode(), f"mutation_{player.pk}_1")
    assert "A D4 shows 1–4, not 5" in errors
    # D4 1 is Claw, which he has: re-rolled once, 3 is Thick Skull (R29)
    data.update({f"mutation_{player.pk}_1": "1", f"mutation_{player.pk}_1_reroll": "3"})
    client.post(postmatch_url(match, home, "development"), data)
    assert set(player.gained_skills.values_list("skill__name", flat=True)) == {"Claw", "Thick Skull"}
    rolled = DiceRoll.objects.get(match=match, purpose=f"mutation:{player.pk}:1:reroll")
    assert (rolled.values, rolled.entered) == ([3], True)


# --- the Bandage Crew and R25 --------------------------------------------------------------------------


def casualties():
    """Torshov Trolls (Orc) beat Sagene Saints (Human, with an apothecary) 2-1: the Saints' #2 and #3
    killed, #4 seriously injured, #5 killed and revived by the apothecary (1 AP, a 2 on the 2+), #6
    killed and the apothecary's revival failing (a 1)."""
    orc, human = Race.objects.get(name="Orc"), Race.objects.get(name="Human")
    home = create_team(
        coach=factories.user("kari"),
        name="Torshov Trolls",
        race=orc,
        hires={Position.objects.get(race=orc, name="Lineorc").pk: 11},
    )
    away = create_team(
        coach=factories.user("ola"),
        name="Sagene Saints",
        race=human,
        hires={Position.objects.get(race=human, name="Lineman").pk: 11},
    )
    buy_apothecary(away, by=away.coach)
    season = create_season(
        name="S", ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1. divisjon", 6, [home, away])]
    )
    division = season.divisions.get()
    generate_fixtures(division)
    match = Match.objects.get(division=division, home=home)
    h, a = list(home.players.order_by("number")), list(away.players.order_by("number"))
    pick_squad(match, home, [p.pk for p in h], by=None)
    pick_squad(match, away, [p.pk for p in a], by=None)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=[], away_dice=[], by=None)
    roll_handicap(match, by=None)
    dead = [a[1], a[2], a[4], a[5]]
    lines = [
        LineInput(h[0].pk, touchdowns=2),
        LineInput(h[1].pk, casualties=5),
        LineInput(a[0].pk, touchdowns=1),
        LineInput(a[3].pk, injury="serious_injury", injured_by_id=h[1].pk),
        *[LineInput(p.pk, injury="dead", injured_by_id=h[1].pk) for p in dead],
    ]
    apothecary = [
        ApothecaryInput(a[4].pk, "revive_dead", 1, roll=2),
        ApothecaryInput(a[5].pk, "revive_dead", 1, roll=1),
    ]
    file_report(match, ReportInput(home_score=2, away_score=1, lines=lines, apothecary=apothecary), by=home.coach)
    confirm_report(match, by=away.coach)
    match.refresh_from_db()
    away = Team.objects.get(pk=away.pk)
    winnings(match, away, roll=[2], by=None)
    return match, home, away, h, a


class TestWithCasualties:
    """The match casualties() plays, built once for the class (tests/conftest.py, set_up_test_data)."""

    @classmethod
    def setUpTestData(cls):
        cls.casualties = casualties()

    def test_two_dead_players_cannot_both_be_attempt_1(self, client):
        match, _home, away, _h, a = self.casualties
        client.force_login(away.coach)
        client.post(postmatch_url(match, away, "injury-dice"), {f"serious_injury_{a[3].pk}": "11"})
        data = {f"attempt_{a[1].pk}": "1", f"attempt_{a[2].pk}": "1"}
        response = client.post(postmatch_url(match, away, "injuries"), data, HTTP_HX_REQUEST="true")
        html = response.content.decode()
        for p in (a[1], a[2]):
            tag, errors = field_error(html, f"attempt_{p.pk}")
            assert "Attempt 1 is given to" in errors and 'value="1"' in tag
        assert PostMatch.objects.get(match=match, team=away).done == PostMatch.Step.WINNINGS
        response = client.post(
            postmatch_url(match, away, "injuries"), {f"attempt_{a[1].pk}": "2"}, HTTP_HX_REQUEST="true"
        )
        assert "without a gap" in response.content.decode()

    def test_the_bandage_crew_is_offered_whom_r25_allows(self, client):
        match, _home, away, _h, a = self.casualties
        client.force_login(away.coach)
        page = reverse("match_postmatch", args=[match.pk, away.pk])
        # first the serious injury table: a D66 of 66 kills #4 (Avkuttet sentralnerve)
        html = client.get(page).content.decode()
        assert f'name="serious_injury_{a[3].pk}"' in html and "attempt_" not in html
        client.post(postmatch_url(match, away, "injury-dice"), {f"serious_injury_{a[3].pk}": "66"})
        offered = {int(pk) for pk in re.findall(r'name="attempt_(\d+)"', client.get(page).content.decode())}
        # #2, #3 killed; #4 killed on the table and untreated; never #5 (revived) nor #6 (tried) (R25)
        assert offered == {a[1].pk, a[2].pk, a[3].pk}
        assert offered == {p.pk for p in healer_candidates(match, away)}
        # the service agrees: a player not offered is refused
        with pytest.raises(PostMatchError, match="not treated by the apothecary"):
            injuries(match, away, healer_targets=[a[5].pk], by=None)
        # #4 first (1+ always), #2 second: a 1 fails the 2+ (R25); #5's revival: 21 Knust albue, 1D4 + 3
        data = {
            f"attempt_{a[3].pk}": "1",
            f"attempt_{a[1].pk}": "2",
            "healer_1": "1",
            "healer_2": "1",
            f"revival_{a[3].pk}": "12",
            f"revival_{a[4].pk}": "21",
            f"revival_miss_{a[4].pk}": "5",
        }
        response = client.post(postmatch_url(match, away, "injuries"), data, HTTP_HX_REQUEST="true")
        _tag, errors = field_error(response.content.decode(), f"revival_miss_{a[4].pk}")
        assert "A D4 shows 1–4, not 5" in errors
        data[f"revival_miss_{a[4].pk}"] = "2"
        client.post(postmatch_url(match, away, "injuries"), data)
        players = {p.pk: p for p in Player.objects.filter(team=away)}
        assert (players[a[3].pk].status, players[a[3].pk].miss_matches) == ("active", 3)  # Blodtap: out 3
        assert players[a[1].pk].status == "dead"  # the 2+ failed
        assert players[a[2].pk].status == "dead"  # no attempt
        assert (players[a[4].pk].status, players[a[4].pk].miss_matches) == ("active", 5)  # 3 + D4 2
        assert players[a[5].pk].status == "dead"  # the apothecary failed: no one else may treat him
        assert ApothecaryUse.objects.filter(match=match).count() == 2
        typed = DiceRoll.objects.get(match=match, purpose=f"revival_miss:{a[4].pk}")
        assert (typed.sides, typed.values, typed.entered) == (4, [2], True)

    def test_a_serious_injury_the_apothecary_tried_is_never_offered_r25(self):
        match, _home, away, _h, a = self.casualties
        ApothecaryUse.objects.create(
            match=match, team=away, player=a[3], action="heal_serious_injury", ap=2, roll=1
        )  # failed: then 66 on the table kills him with no Bandage Crew after the apothecary
        roll_injury_dice(match, away, entered={f"serious_injury:{a[3].pk}": [6, 6]}, by=None)
        assert a[3].pk not in {p.pk for p in healer_candidates(match, away)}

    def test_revival_dice_without_the_revival_d66_are_refused(self, client):
        match, _home, away, _h, a = self.casualties
        client.force_login(away.coach)
        client.post(postmatch_url(match, away, "injury-dice"), {f"serious_injury_{a[3].pk}": "11"})
        response = client.post(
            postmatch_url(match, away, "injuries"), {f"revival_miss_{a[4].pk}": "2"}, HTTP_HX_REQUEST="true"
        )
        _tag, errors = field_error(response.content.decode(), f"revival_miss_{a[4].pk}")
        assert "Type the revival D66 too" in errors

    def test_the_bandage_crew_waits_for_the_serious_injury_table_r25(self, client):
        match, _home, away, _h, _a = self.casualties
        client.force_login(away.coach)
        response = client.post(postmatch_url(match, away, "injuries"), {}, HTTP_HX_REQUEST="true")
        assert "Roll Regeneration and the serious injury table first." in response.content.decode()
        assert PostMatch.objects.get(match=match, team=away).done == PostMatch.Step.WINNINGS
        assert not DiceRoll.objects.filter(match=match, step="injuries").exists()

    @pytest.mark.parametrize("role", ["anonymous", "other_coach", "home_coach", "away_coach", "board"])
    def test_permission_matrix_injury_dice(self, client, other_coach, board_member, role):
        match, _home, away, _h, a = self.casualties
        user = user_for(role, match, other_coach, board_member)
        if user:
            client.force_login(user)
        response = client.post(postmatch_url(match, away, "injury-dice"), {f"serious_injury_{a[3].pk}": "66"})
        rolled = DiceRoll.objects.filter(match=match, purpose=f"serious_injury:{a[3].pk}").exists()
        assert rolled == (role in {"away_coach", "board"})
        assert response.status_code == (302 if role in {"away_coach", "board"} else 403)


@pytest.mark.parametrize("season", ["²", "x", "1e3", "\x00", "-1", "99999999999999999999"])
def test_a_season_in_the_query_string_that_is_not_a_number_is_ignored(client, season):
    assert client.get(reverse("matches"), {"season": season}).status_code == 200


def test_a_season_that_does_not_exist_is_404(client):
    assert client.get(reverse("matches"), {"season": "12345"}).status_code == 404
