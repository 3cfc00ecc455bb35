"""The live match log (issue 17): who may write, a retried send recorded once, undo by a compensating
entry, the half-time rules (Re-Roll (RR), Master Chef's), the Kick-Off table's effects, the query
budget of an entry, and the report filled from the log. Issue 26: an entry is timed when it was made,
not when it arrived; undo and the end of the match ask first."""

import re
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.live.entries import ASKS_FIRST, made_at, record
from matches.live.reads import report_prefill
from matches.live.state import EventInput, TurnAlreadyEnded, derive
from matches.models import DiceRoll, LiveEvent, Match
from teams.models import Player, Team
from tests import factories
from tests.factories import halflings_against_humans

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def send(client, match, kind, **fields):
    data = {"kind": kind, "client_id": str(fields.pop("client_id", uuid.uuid4())), **fields}
    if kind in ASKS_FIRST:
        data.setdefault("confirmed", "1")  # what app.js adds once the coach said yes (issue 26)
    return client.post(reverse("match_live_event", args=[match.pk]), data, **JSON)


def state(match):
    match = Match.objects.select_related("season__ruleset", "home", "away", "prematch").get(pk=match.pk)
    return derive(match, match.prematch, list(LiveEvent.objects.filter(match=match)))


def squad(match, team):
    return list(Player.objects.filter(team=team).order_by("number"))


def test_the_live_page_waits_for_the_pre_match_sequence(client, league_match):
    client.force_login(league_match.home.coach)
    response = client.get(reverse("match_live", args=[league_match.pk]))
    assert response.status_code == 302
    assert send(client, league_match, "start").status_code == 422


# --- out of play: dead, seriously injured or sent off earlier in the match (issue 24) -------------------
def _put_out(client, match, how):
    """Puts the away team's #1 out of play the way `how` says; returns him."""
    home, away = squad(match, match.home), squad(match, match.away)
    victim = away[0]
    fields = {
        "dead": ("casualty", {"player": home[0].pk, "victim": victim.pk, "how": "block", "injury": "dead"}),
        "serious_injury": ("crowd", {"victim": victim.pk, "injury": "serious_injury"}),
        "injury": ("injury", {"victim": victim.pk, "injury": "dead"}),
        "sent_off": ("sent_off", {"player": victim.pk}),
    }[how]
    assert send(client, match, fields[0], **fields[1]).status_code == 200
    return victim


# --- the Master Chef's rolls before each half, stored as dice ---------------------------------------------
@pytest.fixture
def halfling_match(make_user):
    return halflings_against_humans(make_user("hobbit"), make_user("menneske"), chef_dice=1)


def test_the_master_chef_rolls_before_each_half(client, halfling_match):
    match = halfling_match
    if match.prematch.done < 8:
        pytest.skip("an Inspiration drawn in the handicap waits for its player")
    client.force_login(match.home.coach)
    wrong = send(client, match, "start", chef_home="4")  # two dice: one, and one bought
    assert wrong.status_code == 422
    assert send(client, match, "start", chef_home="1 5").status_code == 200
    s = state(match)
    assert s.rerolls["home"].extra == 1 and s.rerolls["away"].lost == 1  # Master Chef's: 5 is 2+, 1 is not
    assert send(client, match, "half_time", chef_home="3 6").status_code == 200
    s = state(match)
    assert s.rerolls["home"].extra == 2 and s.rerolls["away"].lost == 2
    assert s.rerolls_left("away") == 0  # 2 team re-rolls, 2 lost for the half
    rolls = DiceRoll.objects.filter(match=match, purpose__startswith="chef:").order_by("pk")
    assert [(d.purpose, d.values, d.entered) for d in rolls] == [
        (f"chef:1:{match.home_id}", [1, 5], True),
        (f"chef:2:{match.home_id}", [3, 6], True),
    ]


class TestAReadyMatch:
    """factories.ready_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.ready_match = factories.ready_match()

    @pytest.fixture
    def started(self, client):
        Team.objects.filter(pk=self.ready_match.home_id).update(rerolls=2)  # + 1 at home (R14) = 3
        Team.objects.filter(pk=self.ready_match.away_id).update(rerolls=1)
        client.force_login(self.ready_match.home.coach)
        assert send(client, self.ready_match, "start").status_code == 200
        return self.ready_match

    # --- who may write: the two coaches and the board; everyone may look -----------------------------------
    @pytest.mark.parametrize(
        ("who", "status"), [("anonymous", 403), ("other", 403), ("home", 200), ("away", 200), ("board", 200)]
    )
    def test_permission_matrix_on_adding(self, client, started, make_user, board_member, who, status):
        users = {
            "other": make_user("fremmed"),
            "home": started.home.coach,
            "away": started.away.coach,
            "board": board_member,
        }
        client.logout()
        if who != "anonymous":
            client.force_login(users[who])
        before = LiveEvent.objects.count()
        response = send(client, started, "reroll", team=started.away_id)
        assert response.status_code == status
        assert LiveEvent.objects.count() == before + (status == 200)

    @pytest.mark.parametrize(
        ("who", "status"), [("anonymous", 403), ("other", 403), ("home", 200), ("away", 403), ("board", 200)]
    )
    def test_permission_matrix_on_undoing(self, client, started, make_user, board_member, who, status):
        """Issue 24: an entry is undone by the coach who made it (here the home coach) or by the board; the
        other coach of the match is refused, in Norwegian, and nothing changes."""
        target = LiveEvent.objects.get(match=started, kind="start")
        users = {"other": make_user("fremmed"), "home": started.home.coach, "away": started.away.coach}
        users["board"] = board_member
        client.logout()
        if who != "anonymous":
            client.force_login(users[who])
        client.cookies["django_language"] = "nb"
        before = LiveEvent.objects.count()
        response = send(client, started, "undo", undoes=target.pk)
        assert response.status_code == status
        assert LiveEvent.objects.filter(undoes=target).exists() == (status == 200)
        assert LiveEvent.objects.count() == before + (status == 200)
        if who == "away":
            assert response.json()["errors"] == ["Bare treneren som førte hendelsen, eller styret, kan angre den."]

    def test_the_other_coachs_entries_have_no_undo_button(self, client, started):
        td = send(client, started, "touchdown", player=squad(started, started.home)[0].pk).json()["id"]
        for coach, shown in ((started.home.coach, True), (started.away.coach, False)):
            client.force_login(coach)
            html = client.get(reverse("match_live_board", args=[started.pk])).content.decode()
            assert (f'name="undoes" value="{td}"' in html) is shown

    @pytest.mark.parametrize("who", ["anonymous", "other", "board"])
    def test_anyone_follows_the_log_read_only(self, client, started, make_user, board_member, who):
        client.logout()
        if who == "other":
            client.force_login(make_user("fremmed"))
        elif who == "board":
            client.force_login(board_member)
        html = client.get(reverse("match_live", args=[started.pk])).content.decode()
        assert 'id="board"' in html and 'data-kind="start"' in html
        assert ('id="live-turn"' in html) == (who == "board")  # only writers get the buttons
        assert (started.home.coach.username in html) == (who != "anonymous")  # who entered it: for members (issue 14)

    # --- a flaky connection: an id made on the phone, recorded once ----------------------------------------
    def test_a_retried_send_is_recorded_once(self, client, started):
        cid = uuid.uuid4()
        first = send(client, started, "reroll", team=started.home_id, client_id=cid)
        second = send(client, started, "reroll", team=started.home_id, client_id=cid)
        assert first.status_code == second.status_code == 200
        assert first.json()["id"] == second.json()["id"]
        assert LiveEvent.objects.filter(match=started, kind="reroll").count() == 1
        assert state(started).rerolls_left("home") == 2

    def test_a_plain_post_without_javascript_goes_back_to_the_page(self, client, started):
        response = client.post(
            reverse("match_live_event", args=[started.pk]),
            {"kind": "reroll", "team": started.home_id, "client_id": str(uuid.uuid4())},
        )
        assert response.status_code == 302 and response.url == reverse("match_live", args=[started.pk])
        response = client.post(
            reverse("match_live_event", args=[started.pk]),
            {"kind": "turn", "team": started.home_id, "client_id": str(uuid.uuid4())},
            follow=True,
        )
        assert "It is not that team" in response.content.decode()  # the away team receives first (R14)

    # --- an end of turn pressed a poll late: done, not refused; the page catches up at once -------------------
    def test_ending_a_turn_the_other_phone_ended_is_already_done(self, client, started):
        away_turn_1 = {"team": started.away_id, "half": 1, "turn": 1}
        assert send(client, started, "turn", **away_turn_1).status_code == 200  # the home coach's phone
        client.force_login(started.away.coach)  # the away coach's phone, a few seconds behind
        client.cookies["django_language"] = "nb"
        response = send(client, started, "turn", **away_turn_1)
        assert response.status_code == 200
        body = response.json()
        assert body["already"] is True
        assert body["messages"] == [f"Runde 1 for {started.away.name} er allerede avsluttet: siden er oppdatert."]
        assert body["state"]["active"] == "home" and body["state"]["turns"] == {"home": 0, "away": 1}
        assert f"Slutt på runden: {started.home.name}" in body["board"]  # the button the phone now shows
        assert LiveEvent.objects.filter(match=started, kind="turn").count() == 1

    def test_a_phone_two_turns_behind_ends_no_later_turn(self, client, started):
        send(client, started, "turn", team=started.away_id, half=1, turn=1)
        send(client, started, "turn", team=started.home_id, half=1, turn=1)
        late = send(client, started, "turn", team=started.away_id, half=1, turn=1)  # away's turn 2 is on now
        assert late.status_code == 200 and late.json()["already"] is True
        assert state(started).turns == {"home": 1, "away": 1} and state(started).active == "away"
        assert send(client, started, "turn", team=started.away_id, half=1, turn=2).json()["id"]
        assert state(started).turns == {"home": 1, "away": 2}

    def test_the_service_answers_an_ended_turn_as_done(self, started):
        done = EventInput(kind="turn", client_id=uuid.uuid4(), team_id=started.away_id, half=1, turn=1)
        record(started.pk, done, by=started.home.coach)
        again = EventInput(kind="turn", client_id=uuid.uuid4(), team_id=started.away_id, half=1, turn=1)
        with pytest.raises(TurnAlreadyEnded):
            record(started.pk, again, by=started.away.coach)
        assert LiveEvent.objects.filter(match=started, kind="turn").count() == 1

    def test_a_plain_post_of_an_ended_turn_says_so_on_the_page(self, client, started):
        url = reverse("match_live_event", args=[started.pk])
        fields = {"kind": "turn", "team": started.away_id, "half": 1, "turn": 1}
        client.post(url, {**fields, "client_id": str(uuid.uuid4())})
        client.cookies["django_language"] = "nb"
        page = client.post(url, {**fields, "client_id": str(uuid.uuid4())}, follow=True).content.decode()
        assert "er allerede avsluttet: siden er oppdatert." in page
        assert "siden var ikke oppdatert" not in page  # the refusal it was

    # --- undo: a compensating entry; nothing deleted ------------------------------------------------------
    def test_undo_takes_an_entry_back_and_keeps_it(self, client, started):
        home = squad(started, started.home)
        td = send(client, started, "touchdown", player=home[0].pk).json()["id"]
        assert state(started).score == {"home": 1, "away": 0}
        client.force_login(started.away.coach)  # the other coach may not undo it (issue 24) ...
        assert send(client, started, "undo", undoes=td).status_code == 403
        assert state(started).score == {"home": 1, "away": 0}
        client.force_login(started.home.coach)  # ... the coach who made it may
        assert send(client, started, "undo", undoes=td).status_code == 200
        assert state(started).score == {"home": 0, "away": 0}
        assert LiveEvent.objects.filter(pk=td).exists()
        again = send(client, started, "undo", undoes=td)
        assert again.status_code == 422 and "undone already" in again.json()["errors"][0]

    # --- issue 26: timed when made; a resend keeps the first --------------------------------------------------
    def _began_earlier(self, match, minutes=10):
        """The log began `minutes` ago (the start entry moved back), so an entry may claim a time since."""
        then = timezone.now() - timedelta(minutes=minutes)
        LiveEvent.objects.filter(match=match, kind="start").update(made_at=then, created_at=then)

    def test_an_entry_sent_late_is_stored_and_shown_with_the_time_it_was_made(self, client, started):
        self._began_earlier(started)
        # a second more: replacing the microseconds may move the time up to 0.9 s later
        made = (timezone.now() - timedelta(minutes=3, seconds=1)).replace(microsecond=123000)
        scorer = squad(started, started.home)[0]
        response = send(client, started, "touchdown", player=scorer.pk, made_at=made.isoformat())
        assert response.status_code == 200
        event = LiveEvent.objects.get(pk=response.json()["id"])
        assert event.made_at == made
        assert event.created_at - made >= timedelta(minutes=3) and event.arrived_late
        client.cookies["django_language"] = "nb"
        html = client.get(reverse("match_live_board", args=[started.pk])).content.decode()
        shown = timezone.localtime(made).strftime("%H:%M:%S")
        sent = timezone.localtime(event.created_at).strftime("%H:%M:%S")
        assert f">{shown}</time> · sendt kl. {sent}" in html

    @pytest.mark.parametrize(
        "made_at",
        [
            timezone.now() + timedelta(hours=1),  # the future
            timezone.now() - timedelta(hours=1),  # before the log began
            "not a time",
            "2026-11-26T12:00:00",  # no offset: whose clock?
        ],
        ids=["future", "before-the-start", "garbage", "naive"],
    )
    def test_a_time_out_of_reason_is_replaced_by_the_arrival(self, client, started, made_at):
        self._began_earlier(started)
        before = timezone.now()
        text = made_at.isoformat() if not isinstance(made_at, str) else made_at
        response = send(client, started, "reroll", team=started.home_id, made_at=text)
        assert response.status_code == 200  # recorded all the same
        event = LiveEvent.objects.get(pk=response.json()["id"])
        assert before <= event.made_at == event.created_at <= timezone.now()

    def test_a_resend_with_another_time_is_not_doubled_and_keeps_the_first(self, client, started):
        self._began_earlier(started)
        cid = uuid.uuid4()
        first = timezone.now() - timedelta(minutes=2)
        for made in (first, first + timedelta(minutes=1)):
            response = send(client, started, "reroll", team=started.home_id, client_id=cid, made_at=made.isoformat())
            assert response.status_code == 200
        assert LiveEvent.objects.filter(match=started, kind="reroll").count() == 1
        assert LiveEvent.objects.get(match=started, kind="reroll").made_at == first

    # --- issue 26: undo and the end of the match ask first ----------------------------------------------------
    def _post(self, client, match, **fields):
        data = {"client_id": str(uuid.uuid4()), **fields}
        return client.post(reverse("match_live_event", args=[match.pk]), data)

    def test_undo_without_javascript_asks_first_and_changes_nothing(self, client, started):
        scorer = squad(started, started.home)[0]
        td = send(client, started, "touchdown", player=scorer.pk).json()["id"]
        client.cookies["django_language"] = "nb"
        before = LiveEvent.objects.count()
        asked = self._post(client, started, kind="undo", undoes=td)
        assert asked.status_code == 200
        html = asked.content.decode()
        assert f"Angre «Touchdown: {scorer}»? Den blir stående i loggen, overstreket." in html
        assert 'name="confirmed" value="1"' in html and f'name="undoes" value="{td}"' in html
        assert LiveEvent.objects.count() == before and state(started).score == {"home": 1, "away": 0}
        cid = re.search(r'name="client_id" value="([^"]+)"', html).group(1)  # the confirm page posts it again
        done = self._post(client, started, kind="undo", undoes=td, client_id=cid, confirmed="1")
        assert done.status_code == 302 and state(started).score == {"home": 0, "away": 0}

    def test_the_end_without_javascript_asks_first_and_changes_nothing(self, client, started):
        send(client, started, "half_time")
        client.cookies["django_language"] = "nb"
        asked = self._post(client, started, kind="end")
        assert asked.status_code == 200 and "Avslutte kampen?" in asked.content.decode()
        assert not LiveEvent.objects.filter(match=started, kind="end").exists()
        done = self._post(client, started, kind="end", confirmed="1")
        assert done.status_code == 302 and done.url == reverse("match_report", args=[started.pk])
        assert state(started).ended

    def test_the_script_unasked_is_refused_and_who_may_not_write_is_not_asked(self, client, started, make_user):
        target = LiveEvent.objects.get(match=started, kind="start")
        unasked = send(client, started, "undo", undoes=target.pk, confirmed="")
        assert unasked.status_code == 422 and not LiveEvent.objects.filter(undoes=target).exists()
        client.force_login(make_user("fremmed"))
        assert self._post(client, started, kind="undo", undoes=target.pk).status_code == 403

    def test_the_undo_and_end_forms_carry_their_question(self, client, started):
        send(client, started, "half_time")
        client.cookies["django_language"] = "nb"
        html = client.get(reverse("match_live", args=[started.pk])).content.decode()
        assert 'data-confirm="Angre «Kampstart»? Den blir stående i loggen, overstreket."' in html
        assert 'data-confirm="Avslutte kampen? Rapporten fylles ut fra loggen."' in html

    # --- the half-time rules ------------------------------------------------------------------------------
    def test_half_time_gives_back_half_the_rerolls_used_rounded_up(self, client, started):
        for _ in range(3):
            assert send(client, started, "reroll", team=started.home_id).status_code == 200
        refused = send(client, started, "reroll", team=started.home_id)
        assert refused.status_code == 422  # 3 (2 + 1 at home, R14) used: none left this half
        assert send(client, started, "half_time").status_code == 200
        s = state(started)
        # Re-Roll (RR): 3 used → 2 back; the second half starts with 3 - 3 + 2
        assert s.half == 2 and s.recovered["home"] == 2 and s.rerolls_left("home") == 2
        assert s.rerolls_left("away") == 1
        assert s.kicking == "away"  # the away team kicks off after half-time

    def test_the_match_ends_only_after_the_second_half(self, client, started):
        assert send(client, started, "end").status_code == 422
        send(client, started, "half_time")
        assert send(client, started, "end").json()["then"] == reverse("match_report", args=[started.pk])
        assert send(client, started, "reroll", team=started.home_id).status_code == 422

    # --- the Kick-Off table --------------------------------------------------------------------------------
    def test_kickoff_7_rolls_the_weather_again(self, client, started):
        response = send(client, started, "kickoff", dice="3 4", weather_dice="6 6")
        assert response.status_code == 200
        event = LiveEvent.objects.get(pk=response.json()["id"])
        assert event.data["result"] == "changing_weather" and event.team_id == started.home_id
        assert state(started).weather == "blizzard"  # 12: Snøstorm
        assert DiceRoll.objects.filter(match=started, purpose__startswith="kickoff").count() == 2

    def test_kickoff_9_gives_the_roll_off_winner_an_extra_reroll(self, client, started):
        ffm = started.prematch.fan_factor_modifier
        response = send(client, started, "kickoff", dice="4 5", contest_home="1 1", contest_away="6 6")
        data = response.json()
        assert response.status_code == 200, data
        event = LiveEvent.objects.get(pk=data["id"])
        assert event.data["contest"] == [2 + ffm, 12] and event.data["extra_reroll"] == "away"
        assert state(started).rerolls_left("away") == 2

    def test_a_typed_tie_in_the_roll_off_is_rolled_again(self, client, started):
        ffm = started.prematch.fan_factor_modifier  # the home team's (R15): the tie counts it
        home, away = 3, 3 + ffm
        if not 1 <= away <= 6:
            pytest.skip("no tie possible with this FFM")
        response = send(client, started, "kickoff", dice="2 3", contest_home=str(home), contest_away=str(away))
        assert response.status_code == 422 and "roll again" in response.json()["errors"][0]
        assert not LiveEvent.objects.filter(match=started, kind="kickoff").exists()

    def test_a_riot_moves_the_turns(self, client, started):
        send(client, started, "kickoff", dice="1 1", riot_die="5")
        assert state(started).turns == {"home": 5, "away": 5}

    # --- players: of the match squads, the victim an opponent -------------------------------------------
    def test_a_casualty_names_players_of_the_squads(self, client, started):
        home, away = squad(started, started.home), squad(started, started.away)
        ok = send(client, started, "casualty", player=home[1].pk, victim=away[2].pk, how="foul", injury="dead")
        assert ok.status_code == 200
        mate = send(client, started, "casualty", player=home[1].pk, victim=home[2].pk, how="block", injury="dead")
        assert mate.status_code == 422
        stranger = Player.objects.exclude(team__in=[started.home_id, started.away_id]).first()
        assert send(client, started, "touchdown", player=stranger.pk).status_code == 422

    @pytest.mark.parametrize("how", ["dead", "serious_injury", "injury", "sent_off"])
    def test_a_player_out_of_play_scores_no_touchdown(self, client, started, how):
        victim = _put_out(client, started, how)
        before = LiveEvent.objects.count()
        response = send(client, started, "touchdown", player=victim.pk)
        assert response.status_code == 422
        assert "out of this match" in response.json()["errors"][0]
        assert LiveEvent.objects.count() == before and state(started).score == {"home": 0, "away": 0}

    @pytest.mark.parametrize(
        ("kind", "fields"),
        [
            ("completion", {"player": "him"}),
            ("interception", {"player": "him"}),
            ("sent_off", {"player": "him"}),
            ("casualty", {"player": "him", "victim": "opponent", "how": "block", "injury": "badly_hurt"}),
            ("casualty", {"player": "opponent", "victim": "him", "how": "foul", "injury": "dead"}),
            ("crowd", {"player": "opponent", "victim": "him", "injury": "badly_hurt"}),
            ("crowd", {"player": "him", "victim": "opponent", "injury": "badly_hurt"}),
            ("injury", {"victim": "him", "injury": "badly_hurt"}),
            ("ko", {"victim": "him"}),
        ],
    )
    def test_a_dead_player_is_in_no_entry(self, client, started, kind, fields):
        him = _put_out(client, started, "dead")
        opponent = squad(started, started.home)[3]
        names = {"him": him.pk, "opponent": opponent.pk}
        before = LiveEvent.objects.count()
        response = send(client, started, kind, **{k: names.get(v, v) for k, v in fields.items()})
        assert response.status_code == 422
        assert response.json()["errors"] == [
            f"{him} is dead and out of this match. Undo that entry if it was a mistake."
        ]
        assert LiveEvent.objects.count() == before

    def test_the_refusal_is_in_norwegian(self, client, started):
        him = _put_out(client, started, "sent_off")
        client.cookies["django_language"] = "nb"
        response = send(client, started, "touchdown", player=him.pk)
        assert response.json()["errors"] == [
            f"{him} er utvist og er ute av denne kampen. Angre den hendelsen hvis den var feil."
        ]

    def test_an_undone_death_puts_the_player_back(self, client, started):
        home, away = squad(started, started.home), squad(started, started.away)
        death = send(client, started, "casualty", player=home[0].pk, victim=away[0].pk, how="block", injury="dead")
        assert send(client, started, "touchdown", player=away[0].pk).status_code == 422
        assert send(client, started, "undo", undoes=death.json()["id"]).status_code == 200
        assert send(client, started, "touchdown", player=away[0].pk).status_code == 200
        assert state(started).score == {"home": 0, "away": 1}

    def test_a_player_out_of_play_is_in_no_picker(self, client, started):
        home, away = squad(started, started.home), squad(started, started.away)
        _put_out(client, started, "dead")  # away[0]
        send(client, started, "sent_off", player=home[5].pk)
        send(client, started, "crowd", victim=home[6].pk, injury="serious_injury")
        send(client, started, "casualty", player=home[0].pk, victim=away[1].pk, how="block", injury="badly_hurt")
        for url in (reverse("match_live", args=[started.pk]), reverse("match_live_board", args=[started.pk])):
            html = client.get(url).content.decode()
            for player in (away[0], home[5], home[6]):
                assert f'<option value="{player.pk}">' not in html
            for player in (away[1], home[0], away[2]):  # badly hurt (R26: may be healed back), the killer, another
                assert f'<option value="{player.pk}">' in html

    def test_the_report_from_a_log_with_a_refused_entry_credits_only_the_living(self, client, started):
        home, away = squad(started, started.home), squad(started, started.away)
        send(client, started, "touchdown", player=away[0].pk)  # before his death: it stands
        send(client, started, "casualty", player=home[0].pk, victim=away[0].pk, how="block", injury="dead")
        assert send(client, started, "touchdown", player=away[0].pk).status_code == 422
        assert send(client, started, "completion", player=away[0].pk).status_code == 422
        send(client, started, "half_time")
        send(client, started, "end")
        prefill = report_prefill(started)
        assert (prefill["home_score"], prefill["away_score"]) == (0, 1)
        dead = prefill["lines"][away[0].pk]
        assert (dead["touchdowns"], dead["completions"], dead["injury"], dead["injured_by"]) == (
            1,
            0,
            "dead",
            home[0].pk,
        )
        assert sum(line["touchdowns"] for line in prefill["lines"].values()) == 1  # the score and the lines agree

    # --- the query budget of an entry ---------------------------------------------------------------------
    @pytest.mark.parametrize(
        "entry",
        [
            {"kind": "touchdown"},
            {"kind": "casualty", "how": "block", "injury": "badly_hurt"},
            {"kind": "reroll"},
            {"kind": "kickoff", "dice": "3 4", "weather_dice": "2 5"},
            {"kind": "kickoff", "dice": "4 5"},
            {"kind": "undo"},
        ],
    )
    def test_an_entry_costs_at_most_ten_queries(self, client, started, django_assert_max_num_queries, entry):
        home, away = squad(started, started.home), squad(started, started.away)
        fields = dict(entry)
        kind = fields.pop("kind")
        if kind in ("touchdown",):
            fields["player"] = home[0].pk
        if kind == "casualty":
            fields.update(player=home[0].pk, victim=away[0].pk)
        if kind == "reroll":
            fields["team"] = started.home_id
        if kind == "undo":
            fields["undoes"] = LiveEvent.objects.get(match=started, kind="start").pk
        with django_assert_max_num_queries(10):
            response = send(client, started, kind, **fields)
        assert response.status_code == 200, response.content

    def test_the_polled_board_has_a_budget_too(self, client, started, django_assert_max_num_queries):
        home = squad(started, started.home)
        for p in home[:5]:
            send(client, started, "completion", player=p.pk)
        with django_assert_max_num_queries(12):
            assert client.get(reverse("match_live_board", args=[started.pk])).status_code == 200

    def test_an_unchanged_board_answers_304_without_being_drawn(self, client, started, django_assert_max_num_queries):
        url = reverse("match_live_board", args=[started.pk])
        client.get(reverse("match_live", args=[started.pk]))  # the page first: its CSRF cookie set
        first = client.get(url)
        assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
        with django_assert_max_num_queries(3):  # the session, the user, the log's count
            unchanged = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert unchanged.status_code == 304 and not unchanged.content
        reroll = send(client, started, "reroll", team=started.home_id).json()["id"]
        after_entry = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert after_entry.status_code == 200 and after_entry["ETag"] != first["ETag"]
        send(client, started, "undo", undoes=reroll)
        after_undo = client.get(url, HTTP_IF_NONE_MATCH=after_entry["ETag"])
        assert after_undo.status_code == 200 and "live-log__entry--undone" in after_undo.content.decode()
        client.force_login(started.away.coach)  # the other phone's board has his own buttons and token
        assert client.get(url, HTTP_IF_NONE_MATCH=after_undo["ETag"]).status_code == 200

    # --- the log becomes the report -------------------------------------------------------------------------
    def test_ending_the_match_fills_the_report_form(self, client, started):
        home, away = squad(started, started.home), squad(started, started.away)
        send(client, started, "turn", team=started.away_id)
        send(client, started, "completion", player=home[1].pk)
        send(client, started, "touchdown", player=home[2].pk)
        send(client, started, "casualty", player=home[3].pk, victim=away[4].pk, how="block", injury="serious_injury")
        send(client, started, "crowd", player=away[5].pk, victim=home[6].pk, injury="badly_hurt")
        send(client, started, "interception", player=away[7].pk)
        send(client, started, "sent_off", player=away[8].pk)
        wrong = send(client, started, "touchdown", player=away[1].pk).json()["id"]
        send(client, started, "undo", undoes=wrong)
        send(client, started, "half_time")
        send(client, started, "end")
        prefill = report_prefill(started)
        assert (prefill["home_score"], prefill["away_score"]) == (1, 0)
        html = client.get(reverse("match_report", args=[started.pk])).content.decode()

        def value(player, field, expected):
            return f'name="p{player.pk}_{field}" value="{expected}"' in html

        assert 'id="from-log"' in html
        assert re.search(r'<input[^>]*name="home_score"[^>]*value="1"', html)
        assert re.search(r'<input[^>]*name="away_score"[^>]*value="0"', html)
        assert value(home[1], "completions", 1)
        assert value(home[2], "touchdowns", 1)
        assert value(home[3], "casualties", 1)
        assert value(away[5], "crowd_casualties", 1)
        assert value(away[7], "interceptions", 1)
        assert not value(away[1], "touchdowns", 1)  # undone
        assert prefill["lines"][away[4].pk]["injury"] == "serious_injury"
        assert prefill["lines"][away[4].pk]["injured_by"] == home[3].pk
        assert prefill["lines"][away[8].pk]["sent_off"]

    def test_without_a_log_the_report_form_is_as_before(self, client):
        client.force_login(self.ready_match.home.coach)
        assert report_prefill(self.ready_match) is None
        response = client.get(reverse("match_report", args=[self.ready_match.pk]))
        assert response.status_code == 200 and 'id="from-log"' not in response.content.decode()

    # --- the match page and the front page ------------------------------------------------------------------
    def test_the_match_page_links_to_the_live_page_and_the_front_page_shows_it(self, client, started):
        url = reverse("match_live", args=[started.pk])
        assert url in client.get(reverse("match", args=[started.pk])).content.decode()
        client.logout()
        assert url in client.get(reverse("home")).content.decode()
        client.force_login(started.home.coach)
        send(client, started, "half_time")
        send(client, started, "end")
        assert url not in client.get(reverse("home")).content.decode()

    def test_the_board_reads_the_log_in_the_admin_and_cannot_change_it(self, client, started, board_member):
        """The log is a record: a mistake is undone by a compensating entry on the live page, not in the admin."""
        client.force_login(board_member)
        client.cookies["django_language"] = "nb"
        entry = LiveEvent.objects.filter(match=started).first()
        changelist = client.get(reverse("admin:matches_liveevent_changelist"))
        assert changelist.status_code == 200
        page = changelist.content.decode()
        assert "Ført av" in page and "Den skadde" in page  # the columns in Norwegian
        assert client.get(reverse("admin:matches_liveevent_add")).status_code == 403
        assert (
            client.post(reverse("admin:matches_liveevent_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
        )
        assert LiveEvent.objects.filter(pk=entry.pk).exists()


# --- issue 26: the time an entry was made, as the phone says, within reason -------------------------------------
NOW = timezone.now()
BEGAN = NOW - timedelta(minutes=30)


@pytest.mark.parametrize(
    ("claimed", "stored"),
    [
        (NOW - timedelta(minutes=3), NOW - timedelta(minutes=3)),  # kept offline three minutes: its own time
        (BEGAN, BEGAN),  # the log's first moment is still in it
        (None, NOW),  # no claim (a plain post): when it arrived
        (NOW + timedelta(seconds=20), NOW),  # a clock a little ahead: not after it arrived
        (NOW + timedelta(minutes=5), NOW),  # the future: a wrong clock
        (BEGAN - timedelta(seconds=1), NOW),  # before the log began: a wrong clock
    ],
)
def test_an_entry_is_timed_when_it_was_made_within_reason(claimed, stored):
    began = [LiveEvent(kind="start", made_at=BEGAN)]
    assert made_at(claimed, NOW, began) == stored


def test_the_first_entry_may_be_hours_old_not_days():
    assert made_at(NOW - timedelta(hours=2), NOW, []) == NOW - timedelta(hours=2)
    assert made_at(NOW - timedelta(days=2), NOW, []) == NOW
