"""A league's year as a whole (issue 24, item 4): a hypothesis state machine plays random league years
through the services — fixtures, pre-match with typed or rolled dice, live logs with deaths and
send-offs, reports, confirmations and disputes, forfeits, the board's direct results, voids, reopens,
corrections, cup rounds with byes and tiebreaks, purchases, the season end and the next season — and
after every step checks that the league can go on (tests/seasons/league_year_checks.py).

Each example is a fresh league in a savepoint of the test's transaction, rolled back at its end. The
server's dice come from a `random.Random` seeded by hypothesis (`matches.dice.seeded`), so a failure
replays on any database. `make test` runs a bounded number of years; `LEAGUE_YEARS=1000` (`make
test-long`) runs a thousand.

`LEAGUE_YEAR_KNOWN=forfeit,direct,...` steers around dead-ends known and being fixed, to explore past
them while developing (see KNOWN); never set in `make test`. LEAGUE_YEAR_STEPS sets the steps of a year,
LEAGUE_YEAR_SHRINK=1 shrinks a failing year (minutes), LEAGUE_YEAR_TIMES=1 prints each check's time.
Each dead-end the machine found is a named
example test below, replaying its steps.
"""

from __future__ import annotations

import os

import pytest
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from league import models as league_models
from matches import dice
from tests.seasons import league_year_checks as checks
from tests.seasons.league_year import Year
from tests.sizes import size

# Dead-ends known when the machine was written (issue 24), each a key that steers the machine around
# its trigger while LEAGUE_YEAR_KNOWN names it.
KNOWN = {
    "forfeit": "the forfeiting team's post-match refuses every step (R35, R42)",
    "direct": "the board's direct result on an ordinary fixture traps both teams",
    "dated": "Mitt lag offers the report of a dated match before its pre-match is done",
    "preview": "a bye crashes the rules preview",
    "overlap": "a second season can be started with the same teams (R43)",
    "dead": "the live log accepts entries by dead players",
    "reads": "GETs of the pre-match page write rows",
}
AVOID = {k for k in os.environ.get("LEAGUE_YEAR_KNOWN", "").split(",") if k}
# One random year in `make test`, five in `make test-long` (tests/sizes.py), whose scripts/league_years.sh
# then plays a thousand in chunks.
YEARS = size("LEAGUE_YEARS", 1, 5)
STEPS = int(os.environ.get("LEAGUE_YEAR_STEPS", "25"))
# Shrinking a failing year replays dozens of heavy steps many times (minutes): on when asked for.
SHRINK = os.environ.get("LEAGUE_YEAR_SHRINK", "") not in ("", "0")

index = st.integers(min_value=0, max_value=20)
seed = st.integers(min_value=0, max_value=2**16)


def fresh_caches() -> None:
    """As tests/conftest.py's fresh_page_cache, for each league year."""
    cache.clear()
    league_models._PARSED.clear()


TIMES: dict[str, float] = {}


def timed(name, check, *args, **kwargs) -> None:
    import time

    start = time.perf_counter()
    try:
        check(*args, **kwargs)
    finally:
        TIMES[name] = TIMES.get(name, 0) + time.perf_counter() - start


class Checks:
    """The checks of every state, each run again when what it reads changed (`checks.signatures`)."""

    def __init__(self, year: Year) -> None:
        self.year = year
        self.pages = checks.Pages(year)
        self.last: dict[int | None, tuple] = {}

    def __call__(self) -> None:
        now = checks.signatures()
        if now.get(None) == self.last.get(None):
            return  # nothing changed since the last state passed
        changed = {pk for pk, sig in now.items() if pk is not None and self.last.get(pk) != sig}
        timed("places", checks.everyone_in_one_place)
        timed("ledgers", checks.treasuries_equal_their_ledgers)
        timed("stats", checks.kept_stats_equal_a_rebuild)
        if "dead" not in AVOID:
            timed("live", checks.live_logs_name_only_players_on_the_pitch)
        timed("go_on", checks.teams_can_go_on, self.year, changed)
        timed("todos", checks.todos_succeed, self.year, changed)
        timed("people", checks.everyone_knows, self.year, changed)
        timed("offered", checks.offered_actions_succeed, self.year, changed)
        timed("pages", self.pages.render, changed, skip_preview="preview" in AVOID, ignore_writes="reads" in AVOID)
        self.last = now


def check_everything(year: Year) -> None:
    """Every check on every team: the named examples' final state."""
    Checks(year)()


class LeagueYear(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.savepoint = transaction.savepoint()
        self.dice = None
        fresh_caches()

    @initialize(
        dice_seed=st.integers(min_value=0, max_value=2**32 - 1),
        sizes=st.tuples(st.integers(2, 3), st.integers(2, 3)),
        races=st.lists(st.integers(0, 7), min_size=6, max_size=6),
        dated=st.sampled_from([0, 0, 1, 4]),
    )
    def build(self, dice_seed, sizes, races, dated) -> None:
        self.year = Year(seed=dice_seed)
        self.dice = dice.seeded(self.year.rng)
        self.dice.__enter__()
        self.year.build(sizes=sizes, races=tuple(races), dated=0 if "dated" in AVOID else dated)
        self.checks = Checks(self.year)

    def teardown(self) -> None:
        if self.dice is not None:
            self.dice.__exit__(None, None, None)
        transaction.savepoint_rollback(self.savepoint)

    # -- the coaches ------------------------------------------------------------------------------
    @rule(which=index, steps=st.integers(1, 12), typed=st.none() | seed)
    def prematch(self, which, steps, typed):
        self.year.prematch(which, steps=steps, typed=typed)

    @rule(which=index, seed=seed)
    def live_match(self, which, seed):
        self.year.live_match(which, seed=seed, avoid_out="dead" in AVOID)

    @rule(which=index, seed=seed, by_away=st.booleans())
    def file_report(self, which, seed, by_away):
        self.year.file_report(which, seed=seed, by_away=by_away)

    @rule(which=index, dispute=st.booleans(), board=st.booleans())
    def answer_report(self, which, dispute, board):
        self.year.answer_report(which, dispute=dispute, board=board)

    @rule(which=index, steps=st.integers(1, 8), seed=seed)
    def postmatch(self, which, steps, seed):
        self.year.postmatch(which, steps=steps, seed=seed)

    @rule(which=index, count=st.integers(1, 4), seed=seed)
    def play(self, which, count, seed):
        self.year.play(which, count=count, seed=seed)

    @rule(which=index, what=st.integers(0, 7))
    def buy(self, which, what):
        self.year.buy(which, what=what)

    @rule(which=index, days=st.integers(1, 30), by_away=st.booleans())
    def propose_dates(self, which, days, by_away):
        self.year.propose_dates(which, days=days, by_away=by_away)

    # -- the board --------------------------------------------------------------------------------
    @rule(which=index, days=st.integers(1, 30))
    def board_dates(self, which, days):
        self.year.board_dates(which, days=days)

    @rule(which=index, home=st.booleans())
    def forfeit(self, which, home):
        if "forfeit" not in AVOID:
            self.year.forfeit(which, home=home)

    @rule(which=index, seed=seed)
    def direct_result(self, which, seed):
        if "direct" not in AVOID:
            self.year.direct_result(which, seed=seed)

    @rule(which=index, seed=seed, correct=st.booleans())
    def settle(self, which, seed, correct):
        self.year.settle(which, seed=seed, correct=correct)

    @rule(which=index, seed=seed)
    def refile(self, which, seed):
        self.year.refile(which, seed=seed)

    @rule(which=index)
    def replay(self, which):
        self.year.replay(which)

    @rule(days=st.sampled_from([1, 4, 10]))
    def age(self, days):
        self.year.age(days)

    @rule()
    def remind(self):
        self.year.remind()

    @rule(found=st.booleans(), race=st.integers(0, 7))
    def new_coach(self, found, race):
        self.year.new_coach(found=found, race=race)

    @rule(which=index)
    def void(self, which):
        self.year.void(which)

    @rule(which=index)
    def reopen(self, which):
        self.year.reopen(which)

    @rule(which=index, seed=seed)
    def correct(self, which, seed):
        self.year.correct(which, seed=seed)

    @rule(teams=st.integers(2, 6), order_seed=seed)
    def draw_cup(self, teams, order_seed):
        self.year.draw_cup(teams=teams, order_seed=order_seed)

    @rule()
    def tiebreaks(self):
        self.year.tiebreaks()

    @rule(which=index)
    def withdraw_tiebreak(self, which):
        self.year.withdraw_tiebreak(which)

    @rule(dated=st.sampled_from([0, 0, 2]))
    def end_season(self, dated):
        self.year.end_season(dated=0 if "dated" in AVOID else dated)

    @rule(teams=st.integers(2, 3))
    def overlapping_season(self, teams):
        if "overlap" not in AVOID:
            self.year.overlapping_season(teams=teams)

    @invariant()
    def the_league_can_go_on(self):
        self.checks()


LEAGUE_YEARS = settings(
    max_examples=YEARS,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, *([Phase.shrink] if SHRINK else [])],
)


@pytest.mark.django_db
def test_random_league_years_never_get_stuck():
    try:
        run_state_machine_as_test(LeagueYear, settings=LEAGUE_YEARS)
    finally:
        if os.environ.get("LEAGUE_YEAR_TIMES"):
            print({k: round(v, 2) for k, v in TIMES.items()})


# --- the dead-ends the machine found, each replayed as a named example ------------------------------


@pytest.fixture
def year(db):
    """A league of two divisions of three teams (Human, Halfling, Undead; Nurgle, Orc, Dwarf), its
    season running, with the server's dice from seed 0."""
    fresh_caches()
    league = Year(seed=0)
    with dice.seeded(league.rng):
        yield league


def build(year: Year, **extra) -> Year:
    year.build(sizes=(3, 3), races=(0, 1, 2, 3, 4, 5), **extra)
    return year


def test_mitt_lag_offers_a_dated_matchs_report_only_after_its_prematch(year):
    build(year, dated=4)  # the first rounds' dates have come, no pre-match walked
    checks.todos_succeed(year)


@pytest.mark.long  # in `make test` every route's GETs are checked for writes (tests/foundation/test_query_fuzz.py)
def test_the_coaches_pages_write_no_row(year):
    build(year)
    checks.Pages(year).render()


@pytest.mark.long  # plays six more matches; the forfeit's two cases below stay in `make test`
def test_forfeiting_team_can_play_its_next_match(year):
    build(year)
    year.forfeit(0, home=True)
    checks.teams_can_go_on(year)
    checks.todos_succeed(year)
    forfeiter = year.matches("confirmed")[0].home
    for match, team in year.unfinished_postmatches():
        assert team.pk != forfeiter.pk or postmatch_finishes(match, team)
    year.play(0, count=6, seed=1)
    played = [m for m in year.matches("confirmed") if forfeiter.pk in (m.home_id, m.away_id) and not m.forfeited_by_id]
    assert played, year.log


def postmatch_finishes(match, team) -> bool:
    from tests.seasons.league_year import finish_postmatch, refused

    return not refused(finish_postmatch, match, team)


def test_a_direct_result_on_a_league_fixture_leaves_both_teams_a_way_on(year):
    """RULINGS: direct results for forfeits and tiebreak games only; the board's old address refuses and
    the fixture stays to be played (issue 24)."""
    build(year)
    before = year.scheduled()[0]
    year.direct_result(0, seed=3)
    assert year.scheduled()[0].pk == before.pk
    assert not year.matches("confirmed")
    checks.teams_can_go_on(year)
    checks.todos_succeed(year)


def test_the_rules_preview_shows_a_cup_with_a_bye(year):
    build(year)
    year.draw_cup(teams=3, order_seed=0)  # three teams: the first drawn has a bye
    checks.Pages(year).render(set(), ignore_writes=True)


def test_a_second_season_with_a_running_team_cannot_start(year):
    build(year)
    year.overlapping_season(teams=2)
    checks.everyone_in_one_place()


def test_the_live_log_refuses_a_touchdown_by_a_dead_player(year):
    import contextlib
    import uuid

    from matches.live.entries import record
    from matches.live.state import EventInput, LiveError
    from matches.models import Match
    from tests.seasons.league_year import finish_prematch, squads_of

    build(year)
    match = year.scheduled()[0]
    finish_prematch(match)
    match = Match.objects.select_related("home", "away").get(pk=match.pk)
    squads = squads_of(match)
    hitter, victim = squads[match.home_id][0], squads[match.away_id][0]

    def send(kind, **fields):
        record(match.pk, EventInput(kind=kind, client_id=uuid.uuid4(), **fields), by=match.home.coach)

    send("start")
    send("casualty", player_id=hitter.pk, victim_id=victim.pk, injury="dead", how="block")
    with contextlib.suppress(LiveError):  # refused: what issue 24 asks for
        send("touchdown", player_id=victim.pk)
    checks.live_logs_name_only_players_on_the_pitch()


def test_a_forfeit_awarded_while_the_last_post_match_is_unfinished_leaves_both_to_finish_in_turn(year):
    """Found by the machine: the board records a forfeit of a team's opponent while the team's last
    post-match is unfinished. The team then has two post-matches before its next pre-match (the award
    opens the winner's sequence, R42); refusing the forfeit would hold up the board instead. Both are
    offered on Mitt lag, each can be finished, and then the pre-match opens."""
    from matches.report.confirmation import confirm_report
    from matches.report.filing import ReportInput, file_report
    from matches.results import record_forfeit
    from tests.seasons.league_year import finish_prematch

    build(year)
    first = year.scheduled()[0]
    finish_prematch(first)
    file_report(first, ReportInput(home_score=1, away_score=0), by=first.home.coach)
    confirm_report(first, by=first.away.coach)
    team = first.home
    other = next(m for m in year.scheduled() if team.pk in (m.home_id, m.away_id))
    record_forfeit(other, other.away if other.home_id == team.pk else other.home, by=year.board)
    checks.teams_can_go_on(year)
    from django.utils import timezone

    from matches.selectors import coach_todos

    todos = coach_todos(team.coach, [team], year.scheduled(), today=timezone.localdate())
    assert {t.match.pk for t in todos if t.kind == "postmatch" and t.team.pk == team.pk} == {first.pk, other.pk}
    assert not [t for t in todos if t.kind == "prematch" and t.team.pk == team.pk]


def test_a_season_with_forfeits_sequences_open_ends_only_once_they_are_finished_r44(year):
    """Found by the machine: every match of a season is forfeited and the season ended with the forfeits'
    post-match sequences open (R35, R42). R44: it ends only when nothing of it is open; the end's preview
    names each open sequence with its coach and a link, and once they are walked the season ends."""
    from django.urls import reverse

    from league.models import Season
    from league.seasons.services.season_end import season_end_preview
    from tests.seasons.league_year import finish_postmatch

    year.build(sizes=(2, 2), races=(0, 1, 2, 3, 4, 5))
    for _ in range(4):  # two teams a division, a double round robin: two matches each
        year.forfeit(0, home=True)
    year.tiebreaks()  # each home team forfeited once: both divisions tied, a tiebreak game each
    season = year.season()
    year.end_season(dated=0)
    assert not Season.objects.filter(status=Season.Status.FINISHED).exists(), year.log
    open_items = season_end_preview(season).open
    unfinished = year.unfinished_postmatches()
    assert {(t.match.pk, t.team.pk) for t in open_items} == {(m.pk, t.pk) for m, t in unfinished}
    assert all(t.url == reverse("match_postmatch", args=[t.match.pk, t.team.pk]) for t in open_items)
    assert all(t.who == t.team.coach.get_username() for t in open_items)  # named: no full names in this league
    for match, team in unfinished:
        finish_postmatch(match, team)
    year.end_season(dated=0)
    assert Season.objects.filter(status=Season.Status.FINISHED).count() == 1, year.log
    checks.teams_can_go_on(year)
    checks.todos_succeed(year)


@pytest.mark.long  # 24 steps with every check after each (about 45 s); the random year in `make test` is its kind
def test_a_prematch_begun_before_another_matchs_post_match_waits_for_it(db):
    """Found by the machine (seed 2004): Lag B had walked three steps of its first match's pre-match when its
    later match against Lag A was played, disputed and settled by the board; the pre-match then waits for
    that match's post-match (R24: injuries, deaths and level-ups of the last match come first), so Mitt lag
    lists the post-match and not the pre-match. The derivation in league_year_checks had listed both."""
    state = LeagueYear()
    try:
        state.build(dice_seed=98274269, sizes=(3, 2), dated=1, races=[7, 5, 1, 1, 2, 2])
        state.the_league_can_go_on()
        state.end_season(dated=0)
        state.the_league_can_go_on()
        state.propose_dates(by_away=True, days=11, which=13)
        state.the_league_can_go_on()
        state.replay(which=6)
        state.the_league_can_go_on()
        state.answer_report(board=True, dispute=True, which=3)
        state.the_league_can_go_on()
        state.withdraw_tiebreak(which=20)
        state.the_league_can_go_on()
        state.prematch(steps=4, typed=None, which=8)
        state.the_league_can_go_on()
        state.prematch(steps=6, typed=427, which=19)
        state.the_league_can_go_on()
        state.withdraw_tiebreak(which=8)
        state.the_league_can_go_on()
        state.end_season(dated=2)
        state.the_league_can_go_on()
        state.replay(which=19)
        state.the_league_can_go_on()
        state.settle(correct=False, seed=443, which=6)
        state.the_league_can_go_on()
        state.end_season(dated=2)
        state.the_league_can_go_on()
        state.answer_report(board=True, dispute=False, which=19)
        state.the_league_can_go_on()
        state.play(count=2, seed=38, which=4)
        state.the_league_can_go_on()
        state.live_match(seed=3233, which=18)
        state.the_league_can_go_on()
        state.end_season(dated=0)
        state.the_league_can_go_on()
        state.prematch(steps=8, typed=None, which=4)
        state.the_league_can_go_on()
        state.withdraw_tiebreak(which=0)
        state.the_league_can_go_on()
        state.live_match(seed=85, which=18)
        state.the_league_can_go_on()
        state.draw_cup(order_seed=630, teams=3)
        state.the_league_can_go_on()
        state.withdraw_tiebreak(which=11)
        state.the_league_can_go_on()
        state.answer_report(board=True, dispute=True, which=9)
        state.the_league_can_go_on()
        state.settle(correct=False, seed=134, which=7)
        state.the_league_can_go_on()
    finally:
        state.teardown()
