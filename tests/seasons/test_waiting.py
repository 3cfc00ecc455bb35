"""What the league waits for, and whether the person it waits for is told (league.seasons.waiting): each
dead end a season played through the browser found, by the rulings R44–R47, through the services and the
pages a coach or the board opens. Norwegian, as the league reads them."""

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from league.models import LeagueSettings, Notification, RoundDeadline, Season
from league.notices.services import save_league_settings
from league.seasons import waiting
from league.seasons.reminders import send_reminders
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures, schedule_replay
from league.seasons.services.setup import start_season
from matches import scheduling
from matches.models import Match, PostMatch
from matches.report.confirmation import confirm_report, dispute_report, reopen_report, settle_report, void_match
from matches.report.filing import ReportInput, file_report
from matches.results import record_forfeit
from tests import factories
from tests.matches.test_report import a_report

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


@pytest.fixture(autouse=True)
def norwegian():
    with override("nb"):
        yield


def as_(user) -> Client:
    client = Client()
    client.cookies["django_language"] = "nb"
    client.force_login(user)
    return client


def keys(user) -> set[str]:
    return {t.key for t in waiting.actions_for(user)}


def counted(user) -> int:
    """The nav's count, as the page reads it."""
    client = as_(user)
    response = client.get(reverse("standings"))
    return response.context["unread_notices"] + 0


@pytest.fixture
def board(db):
    return factories.user("styreleder", board=True, coach=False, email="styret@example.org", first_name="Siri")


@pytest.fixture
def ready(db):
    match = factories.ready_match()
    for team, name in ((match.home, "Per"), (match.away, "Gro")):
        team.coach.first_name = name
        team.coach.last_name = "Hansen"
        team.coach.save()
    return match


def test_a_dispute_reaches_the_board_by_desk_notice_and_email_r45(ready, board, django_capture_on_commit_callbacks):
    """Dead end: a disputed report reached no one on the board, and neither coach's Mitt lag listed it."""
    home, away = ready.home.coach, ready.away.coach
    file_report(ready, a_report(ready), by=home)
    with django_capture_on_commit_callbacks(execute=True):
        dispute_report(ready, by=away, comment="Det ble 2–2.")
    assert f"dispute:{ready.pk}" in keys(board)
    notice = Notification.objects.get(recipient=board)
    assert (notice.kind, notice.action) == (Kind.DISPUTE_TO_SETTLE, f"dispute:{ready.pk}")
    assert [m.to for m in mail.outbox] == [["styret@example.org"]]
    assert "er bestridt: Det ble 2–2." in mail.outbox[0].body
    desk = as_(board).get(reverse("board_desk")).content.decode()
    assert "rapporten er bestridt (Det ble 2–2.); bekreft den eller rett den" in desk
    assert f'href="{ready.get_absolute_url()}"' in desk
    for coach in (home, away):  # both see that it waits for the board
        page = as_(coach).get(reverse("coach_home")).content.decode()
        assert "rapporten er bestridt og venter på at styret avgjør den" in page


def test_the_boards_correction_settles_the_dispute_and_every_notice_of_it(ready, board):
    home, away = ready.home.coach, ready.away.coach
    file_report(ready, a_report(ready), by=home)
    dispute_report(ready, by=away, comment="Feil")
    assert counted(board) == 1
    corrected = a_report(ready)
    corrected.away_score = 2
    settle_report(ready, corrected, by=board)
    ready.refresh_from_db()
    assert (ready.status, ready.home_score, ready.away_score) == (Match.Status.CONFIRMED, 2, 2)
    assert f"dispute:{ready.pk}" not in keys(board) and counted(board) == 0
    assert not {k for k in keys(away) | keys(home) if k.startswith(("confirm", "refile"))}
    # nothing of the report or the dispute waits: the one notice open is the ruling, asking for the post-match
    for coach, team in ((home, ready.home), (away, ready.away)):
        unread = Notification.objects.filter(recipient=coach, read_at__isnull=True)
        still = [n.action for n in unread if not n.action or n.action in keys(coach)]
        assert still == [f"postmatch:{ready.pk}:{team.pk}"]


def test_a_coach_may_not_confirm_a_disputed_report_the_board_does_r45(ready, board):
    file_report(ready, a_report(ready), by=ready.home.coach)
    dispute_report(ready, by=ready.away.coach, comment="Feil")
    from matches.report.filing import ReportError

    with pytest.raises(ReportError, match="styret avgjør den"):
        confirm_report(ready, by=ready.away.coach)
    confirm_report(ready, by=board)
    assert Match.objects.get(pk=ready.pk).status == Match.Status.CONFIRMED


def test_a_reopened_report_waits_for_its_filer_and_the_opponent_is_told_whom_r47(ready, board):
    """Dead end: after "Åpne igjen" the filer had no to-do, and the opponent was asked to confirm the same
    wrong report."""
    home, away = ready.home.coach, ready.away.coach
    file_report(ready, a_report(ready), by=home)
    confirm_report(ready, by=away)
    reopen_report(ready, by=board)
    assert f"refile:{ready.pk}" in keys(home)
    assert not {k for k in keys(away) if k.endswith(f":{ready.pk}")}
    mine = as_(home).get(reverse("coach_home")).content.decode()
    assert "styret har gjenåpnet rapporten din; rett den og lever den igjen" in mine
    assert f'href="{reverse("match_report", args=[ready.pk])}"' in mine
    theirs = as_(away).get(reverse("coach_home")).content.decode()
    assert "den venter på at Per Hansen leverer den igjen" in theirs
    match_page = as_(away).get(ready.get_absolute_url()).content.decode()
    assert "Bekreft rapporten" not in match_page
    file_report(ready, a_report(ready), by=home)
    assert f"confirm:{ready.pk}" in keys(away) and f"refile:{ready.pk}" not in keys(home)


def test_a_reopened_report_left_too_long_reaches_the_boards_desk_and_inbox_r47(ready, board):
    home = ready.home.coach
    file_report(ready, a_report(ready), by=home)
    confirm_report(ready, by=ready.away.coach)
    reopen_report(ready, by=board)
    assert f"reopened:{ready.pk}" not in keys(board)  # not yet: it is his, for LeagueSettings.board_days
    Match.objects.filter(pk=ready.pk).update(reopened_at=timezone.now() - timedelta(days=7))
    assert f"reopened:{ready.pk}" in keys(board)
    assert send_reminders(today=timezone.localdate()).board == 1
    assert send_reminders(today=timezone.localdate()).board == 0  # once
    notice = Notification.objects.get(recipient=board, kind=Kind.REOPENED_OVERDUE)
    assert notice.action == f"reopened:{ready.pk}" and notice.url == reverse("match_report", args=[ready.pk])
    settle_report(ready, a_report(ready), by=board)  # the board files it itself
    assert f"reopened:{ready.pk}" not in keys(board) and counted(board) == 0


def test_a_new_coach_founds_his_team_and_is_told_it_waits_for_the_board(board):
    """Dead end: log-in sent a new coach to the front page; after founding, Mitt lag was empty until the
    board put the team in a division, and nothing said so."""
    coach = factories.user("nykommer", first_name="Ola")
    assert keys(coach) == {"found_team"}
    assert f"no_team:{coach.pk}" in keys(board)
    team = factories.human_team(coach, name="Nye Nisser")
    assert keys(coach) == set() and f"no_team:{coach.pk}" not in keys(board)
    page = as_(coach).get(reverse("coach_home")).content.decode()
    assert "Nye Nisser venter på at styret plasserer laget i en divisjon." in page
    assert f"no_division:{team.pk}" in keys(board)
    desk = as_(board).get(reverse("board_desk")).content.decode()
    assert "Nye Nisser (Ola) spiller ikke i noen divisjon: plasser laget i en" in desk


def test_a_voided_match_offers_its_replay_which_both_coaches_hear_of(ready, board):
    """Dead end: the voided match linked no replay and still offered Google Calendar; the replay was silent."""
    Match.objects.filter(pk=ready.pk).update(date=timezone.localdate() + timedelta(days=3))
    void_match(ready, by=board)
    page = as_(board).get(ready.get_absolute_url()).content.decode()
    assert "Legg til omkamp (styret)" in page and "Google" not in page
    response = as_(board).post(reverse("match_replay", args=[ready.pk]))
    replay = Match.objects.get(replay_of=ready)
    assert response.status_code == 302 and response.url == replay.get_absolute_url()
    assert (replay.status, replay.home_id, replay.away_id, replay.round) == (
        Match.Status.SCHEDULED,
        ready.home_id,
        ready.away_id,
        ready.round,
    )
    for coach in (ready.home.coach, ready.away.coach):
        assert Notification.objects.filter(recipient=coach, kind=Kind.REPLAY_SCHEDULED, match=replay).exists()
    voided = Client().get(ready.get_absolute_url()).content.decode()
    assert f'href="{replay.get_absolute_url()}"' in voided and "Til omkampen" in voided
    again = as_(board).post(reverse("match_replay", args=[ready.pk]))  # a second press finds it made
    assert again.url == replay.get_absolute_url() and Match.objects.filter(replay_of=ready).count() == 1


@pytest.mark.parametrize(("who", "status"), [("anonymous", 403), ("home", 403), ("other", 403), ("board", 302)])
def test_only_the_board_adds_a_replay(ready, board, who, status):
    void_match(ready, by=board)
    people = {"home": ready.home.coach, "other": factories.user("fremmed"), "board": board}
    client = as_(people[who]) if who in people else Client()
    response = client.post(reverse("match_replay", args=[ready.pk]))
    assert response.status_code == status
    assert Match.objects.filter(replay_of=ready).exists() == (who == "board")


def test_a_voided_cup_tie_is_replayed_in_its_slot_and_the_winner_goes_on(board):
    season, teams = factories.season_with(2, 2)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board)
    tie = cup.matches.get(round=1, cup_slot=0)
    factories.ready_match(tie)
    void_match(tie, by=board)
    replay = schedule_replay(tie, by=board)
    assert (replay.cup_id, replay.round, replay.cup_slot) == (cup.pk, 1, 0)
    factories.ready_match(replay)
    file_report(replay, ReportInput(home_score=1, away_score=0), by=replay.home.coach)
    confirm_report(replay, by=replay.away.coach)
    final = cup.matches.get(round=2)
    assert final.home_id == replay.home_id


def test_the_season_ends_only_when_nothing_is_open_and_says_what_is_r44(board):
    """Dead end: the season could end with a post-match sequence open, and its preview said nothing."""
    season, teams = factories.season_with(2, 0)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    start_season(season)
    first, second = Match.objects.filter(division=division).order_by("round")
    record_forfeit(first, teams[1], by=board)  # the same team twice: no tie to settle
    record_forfeit(second, teams[1], by=board)
    response = as_(board).get(reverse("season_end", args=[season.pk]))
    html = response.content.decode()
    assert "Ikke klar: dette står fortsatt åpent" in html
    open_sequences = PostMatch.objects.filter(match__season=season)
    assert open_sequences.count() == 4
    for row in open_sequences.select_related("team__coach"):
        assert f'href="{reverse("match_postmatch", args=[row.match_id, row.team_id])}"' in html
    assert "Hvem gjør det: teamcoach0" in html
    refused = as_(board).post(reverse("season_end", args=[season.pk]), {"next_name": "Neste"})
    assert refused.status_code == 422 and Season.objects.get(pk=season.pk).status == Season.Status.RUNNING
    assert f"season_end:{season.pk}" in keys(board)
    desk = as_(board).get(reverse("board_desk")).content.decode()
    assert "serien er spilt, men 4 ting står åpne før sesongen kan avsluttes" in desk


def test_the_waiting_opponent_sees_whom_his_match_waits_for(board):
    """Dead end: while one coach's post-match stayed open, his next opponent had no hint."""
    from tests.seasons.league_year import finish_postmatch

    season, _teams = factories.season_with(2, 0)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    start_season(season)
    first = Match.objects.filter(division=division).order_by("round", "pk").first()
    factories.ready_match(first)
    file_report(first, a_report(first), by=first.home.coach)
    confirm_report(first, by=first.away.coach)
    finish_postmatch(first, first.away)  # she finished hers; he has not
    laggard = first.home
    laggard.coach.first_name = "Per"
    laggard.coach.save()
    page = as_(first.away.coach).get(reverse("coach_home")).content.decode()
    assert f"Kampen deres mot {laggard.name} venter på at Per først blir ferdig med sekvensen etter kampen" in page


def test_a_cup_date_proposal_is_a_todo_on_the_other_coachs_page(board):
    """Dead end: cup date proposals did not show on the other coach's Mitt lag."""
    season, teams = factories.season_with(2, 2)
    for division in season.divisions.all():
        generate_fixtures(division)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board)
    tie = cup.matches.get(round=1, cup_slot=0)
    when = timezone.now() + timedelta(days=5)
    scheduling.propose_dates(tie, starts=[when.replace(second=0, microsecond=0)], by=tie.home.coach)
    other = tie.away.coach
    assert f"date:{tie.pk}" in keys(other)
    page = as_(other).get(reverse("coach_home")).content.decode()
    assert f'href="{tie.get_absolute_url()}#schedule-{tie.pk}"' in page
    assert f'id="schedule-{tie.pk}"' in page  # the tie's own date box, to answer on the page
    notice = Notification.objects.get(recipient=other, kind=Kind.DATE_PROPOSED)
    assert notice.action == f"date:{tie.pk}"


def test_notices_close_themselves_when_their_action_is_taken(ready):
    """Dead end: acting on a to-do did not close its notice; coaches had 16 and 21 unread with nothing to do."""
    home, away = ready.home.coach, ready.away.coach
    file_report(ready, a_report(ready), by=home)
    assert counted(away) == 1
    confirm_report(ready, by=away)
    assert counted(away) == 0  # its action taken: no longer counted, though never opened
    inbox = as_(away).get(reverse("notices")).content.decode()
    assert "ferdig" in inbox
    assert counted(home) == 1  # the confirmation is news: unread until he opens it
    notice = Notification.objects.get(recipient=home, kind=Kind.REPORT_CONFIRMED)
    as_(home).get(reverse("notice_open", args=[notice.pk]))
    assert counted(home) == 0


def test_mitt_lag_puts_waiting_actions_above_the_team_and_news_below(ready):
    home = ready.home.coach
    file_report(ready, a_report(ready), by=ready.away.coach)
    html = as_(home).get(reverse("coach_home")).content.decode()
    todo, team, news = (
        html.index('id="todo-title"'),
        html.index(f'id="team-{ready.home_id}"'),
        html.index('id="notices-title"'),
    )
    assert todo < team < news


def test_fixtures_past_their_deadline_and_undated_near_it_are_on_the_desk(board):
    season, _teams = factories.season_with(2, 0)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    start_season(season)
    first, second = Match.objects.filter(division=division).order_by("round")
    today = timezone.localdate()
    RoundDeadline.objects.create(season=season, round=1, deadline=today - timedelta(days=1))
    RoundDeadline.objects.create(season=season, round=2, deadline=today + timedelta(days=3))
    assert {f"overdue:{first.pk}", f"undated:{second.pk}"} <= keys(board)
    desk = as_(board).get(reverse("board_desk")).content.decode()
    assert "er passert; sett dato, gi walkover eller annuller" in desk
    assert f"{second} (runde 2) har ingen dato ennå; fristen er" in desk  # a round named as everywhere else


def test_a_postmatch_unfinished_for_days_is_on_the_desk_for_the_board_to_walk_r44(ready, board):
    file_report(ready, a_report(ready), by=ready.home.coach)
    confirm_report(ready, by=ready.away.coach)
    key = f"postmatch_overdue:{ready.pk}:{ready.home_id}"
    assert key not in keys(board)
    Match.objects.filter(pk=ready.pk).update(confirmed_at=timezone.now() - timedelta(days=8))
    assert key in keys(board)
    assert as_(board).get(reverse("match_postmatch", args=[ready.pk, ready.home_id])).status_code == 200


@pytest.mark.parametrize(("who", "get", "post"), [("anonymous", 302, 302), ("coach", 403, 403), ("board", 200, 302)])
def test_the_desk_and_its_reminders_are_the_boards(board, who, get, post):
    people = {"coach": factories.user("vanlig"), "board": board}
    client = as_(people[who]) if who in people else Client()
    assert client.get(reverse("board_desk")).status_code == get
    data = {"prematch_days": 4, "postmatch_days": 5, "board_days": 9}
    assert client.post(reverse("board_settings"), data).status_code == post
    chosen = LeagueSettings.current()
    assert (chosen.prematch_days, chosen.board_days) == ((4, 9) if who == "board" else (2, 7))


def test_the_reminders_days_are_the_boards_with_who_changed_them(board):
    save_league_settings(by=board, prematch_days=3, postmatch_days=4, board_days=10)
    refused = as_(board).post(reverse("board_settings"), {"prematch_days": 3, "postmatch_days": 0, "board_days": 99})
    assert refused.status_code == 422
    html = refused.content.decode()
    assert "Verdien må være større enn eller lik 1." in html and "mindre enn eller lik 60" in html
    assert LeagueSettings.current().board_days == 10
    change = LeagueSettings.history.latest("history_date")
    assert change.history_user == board
    page = as_(board).get(reverse("board_desk")).content.decode()
    assert "Siri: 3 / 4 / 10" in page


def test_the_board_lands_on_its_desk_after_logging_in(board):
    from tests.conftest import PASSWORD

    client = Client()
    response = client.post(reverse("login"), {"username": "styreleder", "password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("board_desk")
    assert 'class="nav-desk"' in response.content.decode()


def test_the_desk_reads_a_few_queries_whatever_the_leagues_size(board, django_assert_max_num_queries):
    for n in range(3):  # teams in no division, coaches with no team: each kind in one read
        factories.teams(3, prefix=f"Lag{n}")
        factories.user(f"uten_lag{n}")
    client = as_(board)
    client.get(reverse("board_desk"))
    with django_assert_max_num_queries(30):
        assert client.get(reverse("board_desk")).status_code == 200


def test_a_voided_cup_match_without_its_replay_holds_the_season_end_and_says_so(board):
    """Dead end found by the league years (seed 2014): the league played, the cup's final voided and not
    yet played again, the desk said the season could end, and the end refused ("the cup final is not
    played yet"). The open list names the cup; the desk says what is open."""
    season, teams = factories.season_with(2, 0)
    division = season.divisions.get(level=1)
    generate_fixtures(division)
    first, second = Match.objects.filter(division=division).order_by("round")
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board)
    record_forfeit(first, teams[1], by=board)
    record_forfeit(second, teams[1], by=board)
    for row in PostMatch.objects.filter(match__season=season).select_related("match", "team"):
        from tests.seasons.league_year import finish_postmatch

        finish_postmatch(row.match, row.team)
    final = cup.matches.get()
    record_forfeit(final, teams[0], by=board)
    void_match(Match.objects.get(pk=final.pk), by=board)
    [item] = waiting.season_open(Season.objects.get(pk=season.pk))
    assert item.kind == "open_cup" and item.url == reverse("cup", args=[season.pk])
    with override("nb"):
        [todo] = [t for t in waiting.board_actions() if t.kind == "season_end"]
        assert "ingenting står åpent" not in str(todo.label) and "1 ting står åpne" in str(todo.label)
