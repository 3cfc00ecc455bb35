"""R43: a team belongs to at most one season that has started and not ended; the season's cup is part
of it. The board may prepare the next season while one runs, but cannot start it (fixtures, a
fixture, the cup draw, the start) while any of its teams is in a running season (issue 24)."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Cup, Ruleset, Season
from league.seasons.selectors import current_season
from league.seasons.services.base import SeasonError
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import add_fixture, generate_fixtures
from league.seasons.services.season_end import commit_season_end
from league.seasons.services.setup import DivisionPlan, create_season, set_division_teams, start_season
from matches.models import Match
from tests.results import record_result

pytestmark = pytest.mark.django_db


def one_division(name: str, teams, *, previous=None) -> Season:
    return create_season(
        name=name, ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1st", 6, teams)], previous=previous
    )


def started(season: Season) -> Season:
    generate_fixtures(season.divisions.get())
    return season


def play_all(season: Season, board) -> None:
    """Every match played, the first-made team beating the later ones: a table without a tie."""
    for match in Match.objects.filter(season=season, status=Match.Status.SCHEDULED).order_by("round", "pk"):
        first = match.home_id < match.away_id
        record_result(match, home_score=int(first), away_score=int(not first), by=board)


def running() -> set[str]:
    """The running seasons' names; each season's `has_begun` (the admin's) says the same of those not ended."""
    names = set(Season.objects.running().values_list("name", flat=True))
    for season in Season.objects.filter(end__isnull=True):
        assert season.has_begun() == (season.name in names), season.name
    return names


# --- what "running" means ---------------------------------------------------------------------------


def test_a_season_runs_from_its_first_match_or_its_start_until_its_end_r43(make_teams, board_member):
    teams = make_teams(3)
    season = one_division("S1", teams)
    assert running() == set()  # prepared: no match, not started
    draw_cup(season, teams=teams[:2], name="Cup", prize=0, order=[t.pk for t in teams[:2]], by=board_member)
    assert running() == {"S1"}  # the cup's draw starts it, before any fixture (its cup is part of it)
    started(season)
    start_season(season)
    assert running() == {"S1"}
    play_all(season, board_member)  # the league and the cup's final
    nxt = commit_season_end(season, by=board_member, next_name="S2")
    assert running() == set()  # ended; the next one is prepared, not started
    started(nxt)
    assert running() == {"S2"} and current_season() == nxt


def test_fixtures_alone_start_a_season_and_make_it_the_current_one_r43(make_teams):
    older = one_division("Older", make_teams(2, prefix="Old"))
    one_division("Newer", make_teams(2))
    started(older)  # the board generated its fixtures but never pressed "start"
    assert Season.objects.get(pk=older.pk).status == Season.Status.PLANNED
    assert running() == {"Older"} and current_season() == older  # not the newest, unstarted one


def test_a_started_season_with_its_fixtures_taken_back_still_runs_r43(make_teams):
    teams = make_teams(2)
    season = start_season(started(one_division("S1", teams)))
    Match.objects.filter(season=season).delete()
    assert running() == {"S1"}


# --- starting is refused while a team runs elsewhere ----------------------------------------------


def _prepared(make_teams):
    """S1 runs with A, B, C; S2 is prepared with B and C (both in S1) and D."""
    teams = make_teams(4)
    first = started(one_division("S1", teams[:3]))
    second = one_division("S2", teams[1:])
    return first, second, teams


@pytest.fixture
def two_seasons(make_teams):
    return _prepared(make_teams)


def refused(call) -> list[str]:
    with pytest.raises(SeasonError) as exc:
        call()
    return exc.value.messages


R43_TEAMS = (
    "Team B and Team C already play in S1, which has not ended: a team plays in one running season at a time (R43)."
)


def test_the_next_season_can_be_prepared_while_one_runs_r43(two_seasons):
    _first, second, teams = two_seasons
    assert set(second.entries.values_list("team_id", flat=True)) == {t.pk for t in teams[1:]}
    set_division_teams(second.divisions.get(), teams[1:3])  # still preparing: allowed
    assert running() == {"S1"}


def test_fixtures_of_a_season_with_a_team_of_a_running_season_are_refused_r43(two_seasons):
    _first, second, _teams = two_seasons
    messages = refused(lambda: generate_fixtures(second.divisions.get()))
    assert messages == ["The fixtures cannot be generated.", R43_TEAMS]
    assert not Match.objects.filter(season=second).exists()


def test_a_single_fixture_is_refused_too_r43(two_seasons):
    _first, second, teams = two_seasons
    division = second.divisions.get()
    messages = refused(lambda: add_fixture(division, round=1, home=teams[3], away=teams[1]))
    assert messages == ["The fixture cannot be added.", R43_TEAMS]
    assert not Match.objects.filter(season=second).exists()


def test_the_cup_draw_is_refused_r43(two_seasons, board_member):
    _first, second, teams = two_seasons
    # Only D, which plays nowhere else, in the cup: the draw still starts the whole season.
    messages = refused(
        lambda: draw_cup(second, teams=teams[2:], name="Cup", prize=0, order=None, by=board_member)
    )
    assert messages == ["The cup cannot be drawn.", R43_TEAMS]
    assert not Cup.objects.filter(season=second).exists() and not Match.objects.filter(season=second).exists()


def test_the_start_is_refused_r43(make_teams):
    """S2's fixtures were made before R43 held (an older database): S2 runs, so S1 cannot start."""
    teams = make_teams(3)
    first = started(one_division("S1", teams))
    second = one_division("S2", teams[:2])
    Match.objects.create(season=second, division=second.divisions.get(), round=1, home=teams[0], away=teams[1])
    messages = refused(lambda: start_season(first))
    assert messages == [
        "The season cannot start.",
        "Team A and Team B already play in S2, which has not ended: a team plays in one running season at a "
        "time (R43).",
    ]
    assert Season.objects.get(pk=first.pk).status == Season.Status.PLANNED


def test_a_running_season_takes_no_team_of_another_running_season_r43(make_teams):
    teams = make_teams(4)
    started(one_division("S1", teams[:2]))
    other = started(one_division("S2", teams[2:]))
    messages = refused(lambda: set_division_teams(other.divisions.get(), [teams[2], teams[3], teams[0]]))
    assert messages == [
        "The teams of the division cannot change.",
        "Team A already plays in S1, which has not ended: a team plays in one running season at a time (R43).",
    ]
    assert set(other.entries.values_list("team_id", flat=True)) == {teams[2].pk, teams[3].pk}


def test_the_next_season_starts_once_the_running_one_has_ended_r43(two_seasons, board_member):
    first, second, _teams = two_seasons
    play_all(first, board_member)
    commit_season_end(first, by=board_member, next_name="S1b")
    assert len(generate_fixtures(second.divisions.get())) == 6
    assert running() == {"S2"}


# --- the cup belongs to its season ----------------------------------------------------------------


def test_the_cup_is_drawn_among_its_own_seasons_teams_r43(make_teams, board_member):
    teams = make_teams(4)
    season = one_division("S1", teams[:3])
    messages = refused(lambda: draw_cup(season, teams=teams, name="Cup", prize=0, order=None, by=board_member))
    assert messages == ["Not a team of S1: Team D. The cup is drawn among its season's teams (R43)."]
    assert not Cup.objects.exists()


def test_a_team_cannot_be_drawn_in_two_running_seasons_cups_r43(make_teams, board_member):
    teams = make_teams(4)
    first = one_division("S1", teams[:2])
    second = one_division("S2", teams[1:])
    draw_cup(first, teams=teams[:2], name="Cup 1", prize=0, order=None, by=board_member)
    messages = refused(
        lambda: draw_cup(second, teams=teams[1:], name="Cup 2", prize=0, order=None, by=board_member)
    )
    assert messages == [
        "The cup cannot be drawn.",
        "Team B already plays in S1, which has not ended: a team plays in one running season at a time (R43).",
    ]


# --- the season page, in Norwegian --------------------------------------------------------------------

R43_NB = (
    "Team B og Team C spiller allerede i S1, som ikke er avsluttet: et lag spiller i én pågående sesong om "
    "gangen (R43)."
)


def norwegian(user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = "nb"
    if user is not None:
        client.force_login(user)
    return client


def test_the_board_sees_why_the_season_cannot_start_yet_r43(two_seasons, board_member):
    _first, second, _teams = two_seasons
    html = norwegian(board_member).get(reverse("season", args=[second.pk])).content.decode()
    assert R43_NB in html
    public = norwegian().get(reverse("season", args=[second.pk])).content.decode()
    assert "R43" not in public  # the board's note only


def test_generating_fixtures_is_refused_on_the_form_in_norwegian_r43(two_seasons, board_member):
    _first, second, _teams = two_seasons
    division = second.divisions.get()
    url = reverse("season_fixtures", args=[second.pk, division.pk])
    response = norwegian(board_member).post(url, {"days_between": "10"})
    html = response.content.decode()
    assert response.status_code == 422
    assert "Terminlisten kan ikke lages." in html and html.count(R43_NB) == 2  # the note and the form
    assert 'value="10"' in html  # what was typed is kept
    assert not Match.objects.filter(season=second).exists()


def test_the_cup_draw_is_refused_on_the_form_in_norwegian_r43(two_seasons, board_member):
    _first, second, teams = two_seasons
    url = reverse("cup_draw", args=[second.pk])
    data = {"name": "Cupen", "prize": "0", "teams": [t.pk for t in teams[1:]], "order": ""}
    response = norwegian(board_member).post(url, data)
    html = response.content.decode()
    assert response.status_code == 422 and "Cupen kan ikke trekkes." in html and R43_NB in html
    assert not Cup.objects.exists()


def test_adding_a_fixture_is_refused_on_the_form_in_norwegian_r43(two_seasons, board_member):
    _first, second, teams = two_seasons
    division = second.divisions.get()
    url = reverse("season_add_fixture", args=[second.pk, division.pk])
    response = norwegian(board_member).post(url, {"round": "1", "home": teams[3].pk, "away": teams[1].pk})
    html = response.content.decode()
    assert response.status_code == 422 and "Kampen kan ikke legges til." in html and R43_NB in html
    assert not Match.objects.filter(season=second).exists()


def test_the_start_button_is_refused_with_a_message_in_norwegian_r43(make_teams, board_member):
    teams = make_teams(3)
    first = one_division("S1", teams)
    started(first)
    second = one_division("S2", teams[:2])
    Match.objects.create(season=second, division=second.divisions.get(), round=1, home=teams[0], away=teams[1])
    response = norwegian(board_member).post(reverse("season_start", args=[first.pk]), follow=True)
    html = response.content.decode()
    assert response.status_code == 200 and "Sesongen kan ikke starte." in html
    assert "Team A og Team B spiller allerede i S2" in html
    assert Season.objects.get(pk=first.pk).status == Season.Status.PLANNED


# --- who may try: the writes R43 guards, as a matrix ------------------------------------------------


def _start_scenario(make_teams):
    """S1 has fixtures, never started by its button; S2 (A and B) got a match before R43 held."""
    teams = make_teams(4)
    first = started(one_division("S1", teams[:3]))
    second = one_division("S2", teams[:2])
    Match.objects.create(season=second, division=second.divisions.get(), round=1, home=teams[0], away=teams[1])
    return second, first, teams


def _both_running(make_teams):
    """S1 runs with A, B, C; S2 runs with D and E."""
    teams = make_teams(5)
    return started(one_division("S1", teams[:3])), started(one_division("S2", teams[3:])), teams


WRITES = {
    "season_fixtures": (
        _prepared,
        lambda s, d, t: (reverse("season_fixtures", args=[s.pk, d.pk]), {"days_between": "14"}),
    ),
    "season_add_fixture": (
        _prepared,
        lambda s, d, t: (
            reverse("season_add_fixture", args=[s.pk, d.pk]),
            {"round": "1", "home": t[3].pk, "away": t[1].pk},
        ),
    ),
    "cup_draw": (
        _prepared,
        lambda s, d, t: (
            reverse("cup_draw", args=[s.pk]),
            {"name": "Cup", "prize": "0", "teams": [x.pk for x in t[1:]], "order": ""},
        ),
    ),
    "season_start": (_start_scenario, lambda s, d, t: (reverse("season_start", args=[s.pk]), {})),
    "season_division_teams": (
        _both_running,
        lambda s, d, t: (reverse("season_division_teams", args=[s.pk, d.pk]), {"teams": [t[3].pk, t[4].pk, t[0].pk]}),
    ),
}


def _state(season: Season) -> tuple:
    season = Season.objects.get(pk=season.pk)
    matches = sorted(Match.objects.filter(season=season).values_list("pk", "home_id", "away_id"))
    return season.status, matches, sorted(season.entries.values_list("team_id", flat=True)), Cup.objects.count()


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("who", ["anonymous", "other_coach", "coach", "board"])
def test_the_writes_r43_guards_permission_matrix(make_teams, board_member, other_coach, who, write):
    """Only the board may try, and it is refused with R43's message; nothing is written, whoever asks.
    The coach is a coach of a team in both seasons."""
    scenario, request = WRITES[write]
    _running, season, teams = scenario(make_teams)
    user = {"anonymous": None, "other_coach": other_coach, "coach": teams[1].coach, "board": board_member}[who]
    url, data = request(season, season.divisions.get(), teams)
    before = _state(season)
    response = norwegian(user).post(url, data, follow=who == "board")
    if who == "board":
        assert response.status_code in (200, 422) and "(R43)" in response.content.decode()
    else:
        assert response.status_code == 403
    assert _state(season) == before
