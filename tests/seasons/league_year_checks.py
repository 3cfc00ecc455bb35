"""What every state of a league's year must satisfy (issue 24, item 4): each check reads the league,
and where it must try an action it does so in a savepoint that is rolled back (`rolled_back`), so
checking changes nothing. Each raises AssertionError with what it found.

- `teams_can_go_on`: every team with a scheduled match can start its pre-match, or has unfinished
  post-matches before it (one, or two after a forfeit awarded meanwhile) that can be finished in turn,
  after which it can; a begun pre-match can be finished.
- `todos_succeed`: every action "Mitt lag" (`coach_todos`) offers succeeds when taken.
- `kept_stats_equal_a_rebuild`, `treasuries_equal_their_ledgers`, `everyone_in_one_place`,
  `live_logs_name_only_players_on_the_pitch`.
- `Pages.render`: every public page of the state, the board's rules preview and both coaches' pages
  render 200, and a GET writes no row of the league.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, Max, Q, Sum
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from league.accounts import is_board
from league.lib.refusals import Refusal
from league.management.commands.seed_demo import demo_roster
from league.models import Cup, LeagueSettings, Notification, RoundDeadline, Ruleset, Season, SeasonEntry
from league.notices import selectors
from league.seasons import waiting
from league.seasons.services.fixtures import schedule_replay
from league.seasons.services.season_end import commit_season_end, season_end_preview
from matches import stats
from matches.live.state import effective
from matches.match_page import match_actions
from matches.models import DevelopmentRoll, LiveEvent, Match, PlayerMatch, PostMatch, PreMatch, SquadEntry
from matches.prematch.opening import pick_squad
from matches.report.confirmation import (
    confirm_report,
    dispute_report,
    reopen_report,
    settle_report,
    settles,
    void_match,
)
from matches.report.filing import ReportInput, file_report
from matches.results import record_forfeit
from matches.scheduling import accept_date
from matches.selectors import next_matches, scheduled_for
from teams import services as team_services
from teams.ledger import treasury
from teams.models import Player, Race, Team, TreasuryEntry
from tests import kept_stats
from tests.league_writes import league_rows_written
from tests.seasons.league_year import (
    Year,
    finish_postmatch,
    finish_prematch,
    postmatch_done,
    postmatch_step,
    prematch_done,
    prematch_step,
    rolled_back,
    squad_picked,
)


def signatures() -> dict[int | None, tuple]:
    """Each team's state as its checks and pages read it (its matches with their sequences, squads and
    live logs, its ledger, its rows' and players' history), and under None the league's. A check whose
    teams' signatures did not change since it last passed would read the same rows: it is not run again."""
    post: dict[int, list] = defaultdict(list)
    for match_id, team_id, done in PostMatch.objects.values_list("match", "team", "done"):
        post[match_id].append((team_id, done))
    squads = Counter(SquadEntry.objects.values_list("match", flat=True))
    logs = Counter(LiveEvent.objects.values_list("match", flat=True))
    per: dict[int, list] = defaultdict(list)
    for row in Match.objects.order_by("pk").values_list("pk", "status", "home", "away", "prematch__done", "cup"):
        entry = (row, tuple(sorted(post[row[0]])), squads[row[0]], logs[row[0]])
        for team_id in row[2:4]:
            if team_id is not None:
                per[team_id].append(entry)
    ledgers = dict(TreasuryEntry.objects.values_list("team").annotate(n=Max("seq")).values_list("team", "n"))
    players = dict(Player.history.values_list("team").annotate(n=Count("pk")).values_list("team", "n"))
    rows = dict(Team.history.values_list("id").annotate(n=Count("pk")).values_list("id", "n"))
    found: dict[int | None, tuple] = {
        pk: (tuple(per[pk]), ledgers.get(pk), players.get(pk), rows.get(pk))
        for pk in Team.objects.values_list("pk", flat=True)
    }
    found[None] = (
        tuple(sorted(found.items())),
        tuple(Season.objects.order_by("pk").values_list("pk", "status")),
        tuple(Cup.objects.values_list("pk", flat=True)),
        tuple(SeasonEntry.objects.order_by("pk").values_list("pk", "team")),
        # what the people's lists and notices read besides: the time things happened, who is in the league
        tuple(Match.objects.order_by("pk").values_list("confirmed_at", "reopened_at", "filed_by")),
        Notification.objects.count(),
        get_user_model().objects.count(),
    )
    return found


def _can(action, *args, **kwargs) -> str | None:
    """None when the action succeeds (in a savepoint of the caller's rolled-back block), else why not."""
    try:
        with transaction.atomic():
            result = action(*args, **kwargs)
    except Refusal as exc:
        return " ".join(str(m) for m in exc.messages)
    except AssertionError as exc:
        return str(exc)
    if result is False:
        return "nothing to take"
    return None


def _start(match: Match, team: Team) -> str | None:
    """The team's first pre-match step: its squad (R3)."""
    if squad_picked(match, team) or prematch_done(match) > 0:
        return None
    return _can(pick_squad, match, team, [p.pk for p in team.players.available()[:16]], by=team.coach)


def teams_can_go_on(year: Year, changed: set[int] | None = None) -> None:
    """`changed`: the teams whose signature changed (None: all); a match is checked when one of its
    teams changed."""
    teams = year.teams()
    scheduled = list(scheduled_for([t.pk for t in teams]))
    unfinished = year.unfinished_postmatches()
    problems = []
    for team_id, match in next_matches(teams, scheduled).items():
        if changed is not None and not {match.home_id, match.away_id} & changed:
            continue
        team = next(t for t in teams if t.pk == team_id)
        before = [(m, t) for m, t in unfinished if t.pk == team_id and m.pk != match.pk]
        with rolled_back():
            why = _start(match, team)
            if why is None:
                continue
            if not before:
                problems.append(f"{team} cannot start the pre-match of {match} ({why}) and has nothing to finish")
                continue
            # Usually one post-match; two when the board awarded a forfeit while the last one was still
            # open (the award opens the winner's sequence): Mitt lag offers both, finished in turn.
            for m, t in before:
                finishing = _can(finish_postmatch, m, t)
                if finishing is not None:
                    problems.append(f"{team}: the post-match of {m} cannot be finished: {finishing}")
            if any(p.startswith(f"{team}:") for p in problems):
                continue
            why = _start(match, team)
            if why is not None:
                problems.append(f"{team}: after its post-matches, the pre-match of {match} still refuses: {why}")
    for match in scheduled:
        if prematch_done(match) == 0 and not SquadEntry.objects.filter(match=match).exists():
            continue
        if changed is not None and not {match.home_id, match.away_id} & changed:
            continue
        with rolled_back():  # a begun pre-match can be finished, once both teams finished what came before
            for m, t in unfinished:
                if t.pk in (match.home_id, match.away_id) and m.pk != match.pk:
                    _can(finish_postmatch, m, t)
            why = _can(finish_prematch, match)
            if why is not None:
                problems.append(f"The begun pre-match of {match} cannot be finished: {why}")
    assert not problems, "A team cannot go on:\n" + "\n".join(problems)


def _take(todo, user) -> str | None:
    """Take one action "Mitt lag" or the board's desk offers, as its page would."""
    match, team = todo.match, todo.team
    if todo.kind == "refile":
        return _can(
            file_report, match, ReportInput(home_score=0, away_score=0, tiebreak_winner_id=_tie(match)), by=user
        )
    if todo.kind == "found_team":
        race = Race.objects.get(name="Human")
        hires, rerolls, fan_factor, apothecary = demo_roster(race, Ruleset.default())
        return _can(
            team_services.create_team,
            coach=user,
            name=f"Nytt lag {user.pk}",
            race=race,
            hires=hires,
            rerolls=rerolls,
            fan_factor=fan_factor,
            apothecary=apothecary,
            ruleset=Ruleset.default(),
        )
    if todo.kind == "dispute":  # the board confirms the report, or corrects it: both are offered
        with rolled_back():
            confirmed = _can(confirm_report, match, by=user)
        return confirmed or _can(settle_report, match, _a_report(match), by=user)
    if todo.kind == "reopened":
        return _can(settle_report, match, _a_report(match), by=user)
    if todo.kind == "postmatch_overdue":  # the board walks it itself (R44)
        return _can(finish_postmatch, match, team)
    if todo.kind == "season_end":
        season = Season.objects.get(pk=todo.key.split(":")[1])
        says_it_can = todo.label == _("%(season)s can end: nothing of it is open") % {"season": season}
        ends = _can(commit_season_end, season, by=user, next_name=f"{season.name} neste")
        return None if says_it_can == (ends is None) else f"the desk says «{todo.label}», the end: {ends or 'done'}"
    if todo.kind == "prematch":
        return _can(prematch_step, match, team)
    if todo.kind == "report":
        tiebreak = match.home_id if match.cup_id else None
        return _can(file_report, match, ReportInput(home_score=0, away_score=0, tiebreak_winner_id=tiebreak), by=user)
    if todo.kind == "confirm":
        with rolled_back():
            disputed = _can(dispute_report, match, by=user, comment="Feil")
        return _can(confirm_report, match, by=user) or (disputed and f"dispute: {disputed}")
    if todo.kind == "postmatch":
        return _can(finish_postmatch, match, team)
    if todo.kind == "date":  # the other coach's proposal, answered by accepting its first date
        proposal = (
            match.date_proposals.filter(status="open", starts_at__gt=timezone.now()).order_by("starts_at").first()
        )
        return _can(accept_date, proposal, by=user)
    if todo.kind == "levelup" and match is not None:
        if postmatch_done(match, team) == PostMatch.Step.DEVELOPMENT - 1:
            return _can(postmatch_step, match, team)
        return _can(prematch_step, match, team)
    return None  # a starting mutation: the player page's form (teams)


def _tie(match: Match) -> int | None:
    return match.home_id if match.cup_id else None


def todos_for(user) -> list:
    return waiting.coach_actions(user, today=timezone.localdate())


def todos_succeed(year: Year, changed: set[int] | None = None) -> None:
    """Every action Mitt lag offers a coach, and the board's desk the board, succeeds when taken."""
    problems = []
    for user in people(year):
        teams = set(Team.objects.filter(coach=user).values_list("pk", flat=True))
        if changed is not None and teams and not teams & changed:
            continue
        todos = todos_for(user) + (waiting.board_actions() if user.pk == year.board.pk else [])
        for todo in todos:
            with rolled_back():
                why = _take(todo, user)
            if why is not None:
                problems.append(f"{user.username} is offered «{todo.label}» ({todo.kind}) but it fails: {why}")
    assert not problems, "Mitt lag or the desk offers what fails:\n" + "\n".join(problems)


def kept_stats_equal_a_rebuild() -> None:
    """The comparison of tests/matches/test_kept_stats.py: the kept rows against a rebuild."""
    kept = kept_stats.snapshot()
    with rolled_back():
        stats.rebuild()
        rebuilt = kept_stats.snapshot()
    differences = [(sorted(k - r)[:5], sorted(r - k)[:5]) for k, r in zip(kept, rebuilt, strict=True)]
    assert rebuilt == kept, f"Kept statistics differ from a rebuild (kept only, rebuilt only): {differences}"


def treasuries_equal_their_ledgers() -> None:
    problems = []
    sums = dict(TreasuryEntry.objects.values_list("team").annotate(total=Sum("amount")).values_list("team", "total"))
    running: dict[int, tuple[int, int]] = {}
    for team_id, seq, amount, balance in TreasuryEntry.objects.order_by("team", "seq").values_list(
        "team", "seq", "amount", "balance"
    ):
        last_seq, last_balance = running.get(team_id, (0, 0))
        if seq != last_seq + 1 or balance != last_balance + amount:
            problems.append(
                f"team {team_id}: ledger line {seq} ({amount:+}) has balance {balance} after {last_balance}"
            )
        running[team_id] = (seq, balance)
    for team in Team.objects.all():
        if treasury(team) != sums.get(team.pk, 0):
            problems.append(f"{team}: treasury {treasury(team)} but its ledger sums to {sums.get(team.pk, 0)}")
    assert not problems, "\n".join(problems)


def everyone_in_one_place() -> None:
    """No player in two places: a squad's and a report line's player is his team's, in one squad of a
    match; a team in one running season (R43)."""
    problems = [
        f"{e.player} is in the squad of {e.match} for {e.team} but plays for {e.player.team}"
        for e in SquadEntry.objects.exclude(player__team=F("team")).select_related("player__team", "team", "match")
    ]
    problems += [
        f"{e.team} has a squad in {e.match}, which it does not play"
        for e in SquadEntry.objects.exclude(Q(match__home=F("team")) | Q(match__away=F("team"))).select_related(
            "team", "match"
        )
    ]
    twice = SquadEntry.objects.values("match", "player").annotate(n=Count("pk")).filter(n__gt=1)
    problems += [f"player {row['player']} is twice in the squads of match {row['match']}" for row in twice]
    problems += [
        f"{line.player}'s report line in {line.match} is for {line.team}"
        for line in PlayerMatch.objects.exclude(player__team=F("team")).select_related("player", "team", "match")
    ]
    running = (
        SeasonEntry.objects.filter(season__status=Season.Status.RUNNING)
        .values("team__name")
        .annotate(n=Count("season", distinct=True))
        .filter(n__gt=1)
    )
    problems += [f"{row['team__name']} plays in {row['n']} running seasons (R43)" for row in running]
    assert not problems, "\n".join(problems)


def live_logs_name_only_players_on_the_pitch() -> None:
    """An entry of the live log never names a player dead, seriously injured or sent off earlier in
    the same match (issue 24)."""
    problems = []
    by_match: dict[int, list[LiveEvent]] = {}
    for event in LiveEvent.objects.order_by("pk"):
        by_match.setdefault(event.match_id, []).append(event)
    for events in by_match.values():
        gone: set[int] = set()
        for e in effective(events):
            named = {e.player_id, e.victim_id} - {None}
            if named & gone:
                problems.append(
                    f"match {e.match_id}: a {e.kind} entry names player(s) {sorted(named & gone)} already out"
                )
            if e.kind == LiveEvent.Kind.SENT_OFF and e.player_id:
                gone.add(e.player_id)
            if e.victim_id and (e.data or {}).get("injury") in ("serious_injury", "dead"):
                gone.add(e.victim_id)
    assert not problems, "\n".join(problems)


class Pages:
    """Renders the pages of a state through django.test.Client: anonymous, each coach, the board.
    A match's page is rendered again when the match changed since the last check."""

    def __init__(self, year: Year) -> None:
        self.year = year
        self.clients: dict[int | None, Client] = {}
        self.seen: dict[int, tuple] = {}

    def client(self, user=None) -> Client:
        key = None if user is None else user.pk
        if key not in self.clients:
            client = Client()
            client.cookies["django_language"] = "nb"
            if user is not None:
                client.force_login(user)
            self.clients[key] = client
        return self.clients[key]

    def _signature(self, match: Match) -> tuple:
        return (
            match.status,
            match.home_id,
            match.away_id,
            prematch_done(match),
            tuple(PostMatch.objects.filter(match=match).order_by("team").values_list("team", "done")),
            LiveEvent.objects.filter(match=match).count(),
        )

    def render(
        self, changed: set[int] | None = None, *, skip_preview: bool = False, ignore_writes: bool = False
    ) -> None:
        """`changed`: the teams whose signature changed (None: all); their pages and their coaches' are
        rendered, the league's pages always."""
        problems: list[str] = []
        wanted: list[tuple[Client, str]] = []
        anonymous = self.client()
        public = [reverse("home"), reverse("standings"), reverse("seasons"), reverse("matches"), reverse("teams")]
        for season in Season.objects.all():
            public.append(reverse("season", args=[season.pk]))
            if Cup.objects.filter(season=season).exists():
                public.append(reverse("cup", args=[season.pk]))
        public += [reverse("team", args=[t.pk]) for t in Team.objects.all() if changed is None or t.pk in changed]
        for match in Match.objects.all():
            signature = self._signature(match)
            if self.seen.get(match.pk) != signature:
                self.seen[match.pk] = signature
                public.append(reverse("match", args=[match.pk]))
        wanted += [(anonymous, url) for url in public]
        board = self.client(self.year.board)
        if not skip_preview:
            rulesets = Ruleset.objects.filter(seasons__isnull=False).distinct()
            wanted += [(board, reverse("rules_version_preview", args=[r.pk])) for r in rulesets]
        teams = self.year.teams()
        scheduled = list(scheduled_for([t.pk for t in teams]))
        nexts = next_matches(teams, scheduled)
        for team in teams:
            if changed is not None and team.pk not in changed:
                continue
            coach = self.client(team.coach)
            wanted.append((coach, reverse("coach_home")))
            if team.pk in nexts:
                wanted.append((coach, reverse("match_prematch", args=[nexts[team.pk].pk])))
            for match, t in self.year.unfinished_postmatches():
                if t.pk == team.pk:
                    wanted.append((coach, reverse("match_postmatch", args=[match.pk, team.pk])))
            wanted += [(coach, todo.url) for todo in todos_for(team.coach)]
        done = set()
        for client, url in wanted:
            key = (id(client), url)
            if key in done:
                continue
            done.add(key)
            try:
                with rolled_back(), league_rows_written() as writes:
                    response = client.get(url)
            except Exception as exc:  # a server error: the client raises the view's exception
                problems.append(f"GET {url}: {exc!r}")
                continue
            if response.status_code != 200 and not (url == reverse("coach_home") and response.status_code == 302):
                problems.append(f"GET {url}: {response.status_code}")
            if writes and not ignore_writes:
                problems.append(f"GET {url} writes: {sorted(set(writes))}")
        assert not problems, "Pages:\n" + "\n".join(problems)


# --- the people: who is told what the league waits for ---------------------------------------------
# Written out here from the rulings, apart from league.seasons.waiting, so the two can disagree.


def _possible(action, *args, **kwargs) -> bool:
    with rolled_back():
        return _can(action, *args, **kwargs) is None


def _open_season() -> Q:
    return ~Q(season__status=Season.Status.FINISHED)


def expected_coach_keys(user) -> set[str]:
    """What waits for a coach, by the rulings: R3/R24 his pre-match steps (his team's next match, or one
    begun) when he can take one, R28 the report of a walked match, a report the other coach filed to
    confirm, R47 his reopened report to file again, R24 his unfinished post-matches (their level-ups first,
    R29), a mutation to choose (R10), dates proposed to him, and a team to found when he has none."""
    teams = list(Team.objects.active().filter(coach=user))
    if not teams:
        coach = user.groups.filter(permissions__codename="coach").exists() and not user.is_superuser
        return {"found_team"} if coach and user.is_active else set()
    ids = {t.pk for t in teams}
    mine = Q(home__in=ids) | Q(away__in=ids)
    keys = set()
    for m in Match.objects.filter(mine, status=Match.Status.REPORTED).exclude(filed_by=user):
        keys.add(f"confirm:{m.pk}")
    for m in Match.objects.filter(mine, status=Match.Status.REOPENED, filed_by=user):
        keys.add(f"refile:{m.pk}")
    unchosen = set(
        DevelopmentRoll.objects.filter(player__team__in=ids, choice="", before_match=False).values_list(
            "match_id", "player__team_id"
        )
    )
    keys |= {f"levelup:{m}:{t}" for m, t in unchosen}
    held = set()  # R24 and the rulings: a team's next match waits for its last post-match sequence
    for m, t in PostMatch.objects.filter(
        team__in=ids, match__status=Match.Status.CONFIRMED, done__lt=PostMatch.Step.TEAM_RATING
    ).values_list("match_id", "team_id"):
        held.add(t)
        if (m, t) not in unchosen:
            keys.add(f"postmatch:{m}:{t}")
    keys |= {
        f"mutation:{p}"
        for p in Player.objects.on_roster()
        .filter(team__in=ids, mutation_choice_pending=True)
        .values_list("pk", flat=True)
    }
    scheduled = list(
        Match.objects.filter(
            mine, _open_season(), status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
        )
        .select_related("home", "away")
        .order_by(F("date").asc(nulls_last=True), "round", "pk")
    )
    nexts = {t.pk: next((m.pk for m in scheduled if t.pk in (m.home_id, m.away_id)), None) for t in teams}
    now = timezone.now()
    for m in scheduled:
        done = prematch_done(m)
        if done >= PreMatch.Step.MASTER_CHEF:
            keys.add(f"report:{m.pk}")
        for t in (m.home, m.away):
            waits = t.pk in held  # even a pre-match begun before: its squad may have been hurt since
            if t.pk in ids and not waits and (nexts[t.pk] == m.pk or done > 0) and _possible(prematch_step, m, t):
                keys.add(f"prematch:{m.pk}:{t.pk}")
        if done < PreMatch.Step.WEATHER:
            deadline = RoundDeadline.objects.filter(
                season=m.season_id, competition="cup" if m.cup_id else "league", round=m.round
            ).first()
            for p in m.date_proposals.filter(status="open", starts_at__gt=now).exclude(team__in=ids):
                if deadline is None or timezone.localtime(p.starts_at).date() <= deadline.deadline:
                    keys.add(f"date:{m.pk}")
    return keys


def expected_board_keys(today) -> set[str]:
    """The board's desk, by the rulings: R45 disputes; R47 a reopened report overdue (or the board's own);
    fixtures past their round's deadline, undated ones near it; R44 post-matches unfinished for days, the
    season that could end; teams in no division, coaches with no team."""
    days = LeagueSettings.current().board_days
    keys = {
        f"dispute:{pk}"
        for pk in Match.objects.filter(_open_season(), status=Match.Status.DISPUTED).values_list("pk", flat=True)
    }
    deadlines = {(d.season_id, d.competition, d.round): d.deadline for d in RoundDeadline.objects.all()}
    for m in Match.objects.filter(_open_season(), status=Match.Status.REOPENED).select_related("home", "away"):
        deadline = deadlines.get((m.season_id, "cup" if m.cup_id else "league", m.round))
        late = timezone.localtime(m.reopened_at).date() + timedelta(days=days) <= today
        if m.filed_by_id not in (m.home.coach_id, m.away.coach_id) or late or (deadline and deadline < today):
            keys.add(f"reopened:{m.pk}")
    for m in Match.objects.filter(
        _open_season(), status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
    ):
        deadline = deadlines.get((m.season_id, "cup" if m.cup_id else "league", m.round))
        if deadline is not None and deadline < today:
            keys.add(f"overdue:{m.pk}")
        elif deadline is not None and m.date is None and deadline <= today + timedelta(days=days):
            keys.add(f"undated:{m.pk}")
    for m, t, confirmed in PostMatch.objects.filter(
        match__status=Match.Status.CONFIRMED, done__lt=PostMatch.Step.TEAM_RATING
    ).values_list("match_id", "team_id", "match__confirmed_at"):
        if timezone.localtime(confirmed).date() <= today - timedelta(days=days):
            keys.add(f"postmatch_overdue:{m}:{t}")
    placed = set(SeasonEntry.objects.filter(_open_season()).values_list("team_id", flat=True))
    keys |= {f"no_division:{pk}" for pk in Team.objects.active().values_list("pk", flat=True) if pk not in placed}
    for user in get_user_model().objects.filter(
        is_active=True, is_superuser=False, groups__permissions__codename="coach"
    ):
        if not Team.objects.active().filter(coach=user).exists():
            keys.add(f"no_team:{user.pk}")
    for season in Season.objects.running():
        if season.matches.exists() and not season.matches.filter(division__isnull=False, status="scheduled").exists():
            keys.add(f"season_end:{season.pk}")
    return keys


def people(year: Year) -> list:
    """Everyone the league can wait for: the board and every coach (those without a team too)."""
    coaches = get_user_model().objects.filter(groups__permissions__codename="coach").distinct().order_by("pk")
    return [year.board, *coaches]


def everyone_knows(year: Year, changed: set[int] | None = None) -> None:
    """After every step: each person's list is what the rulings say waits for him, nothing on the wrong
    person's list; no unread notice asks for an action that no longer waits, and every notice that still
    asks for one is counted (what the nav's count shows). `changed`: the teams whose signature changed
    (None: all); a coach none of whose teams changed is not checked again, the board always."""
    today = timezone.localdate()
    problems = []
    board_expected = expected_board_keys(today)
    for user in people(year):
        teams = set(Team.objects.filter(coach=user).values_list("pk", flat=True))
        if changed is not None and user.pk != year.board.pk and teams and not teams & changed:
            continue
        own = {t.key for t in waiting.coach_actions(user, today=today)}
        expected = expected_coach_keys(user)
        if own != expected:
            problems.append(
                f"{user.username}: listed {sorted(own - expected)} wrongly, misses {sorted(expected - own)}"
            )
        keys = own
        if user.pk == year.board.pk:
            desk = {t.key for t in waiting.board_actions(today=today)}
            if desk != board_expected:
                wrong, missed = sorted(desk - board_expected), sorted(board_expected - desk)
                problems.append(f"the board's desk: lists {wrong} wrongly, misses {missed}")
            keys = own | desk
        request = RequestFactory().get("/")
        request.user = user
        unread = Notification.objects.filter(recipient=user, read_at__isnull=True)
        still = [n for n in unread if not n.action or n.action in keys]
        if waiting.unread_count(request) != len(still):
            problems.append(f"{user.username}: the count says {waiting.unread_count(request)}, {len(still)} wait")
        for notice in selectors.inbox(user, keys, limit=500):
            n = Notification.objects.get(pk=notice.pk)
            if notice.unread and n.action and n.action not in keys:
                problems.append(f"{user.username}: notice {n.kind} asks for {n.action}, which no longer waits")
    assert not problems, "Who is told what the league waits for:\n" + "\n".join(problems)


def _a_report(match: Match) -> ReportInput:
    tiebreak = match.home_id if match.cup_id else None
    return ReportInput(home_score=0, away_score=0, tiebreak_winner_id=tiebreak)


def offered_actions_succeed(year: Year, changed: set[int] | None = None) -> None:
    """Every button a match page offers, to the board and to each of its coaches, succeeds when pressed,
    and the season end is offered exactly when it can be committed. `changed`: the teams whose matches
    are tried (None: all)."""
    problems = []
    matches = Match.objects.select_related("home__coach", "away__coach", "cup", "season__ruleset", "prematch")
    if changed is not None:
        matches = matches.filter(Q(home__in=changed) | Q(away__in=changed))
    for match in matches:
        for user in {year.board, *(t.coach for t in (match.home, match.away) if t is not None)}:
            offered = match_actions(user, match, board=is_board(user))
            tries = []
            if offered.confirm:
                tries.append(("confirm", confirm_report, (match,), {"by": user}))
            if offered.dispute:
                tries.append(("dispute", dispute_report, (match,), {"by": user, "comment": "Feil"}))
            if offered.reopen:
                tries.append(("reopen", reopen_report, (match,), {"by": user}))
            if offered.void:
                tries.append(("void", void_match, (match,), {"by": user}))
            if offered.replay:
                tries.append(("replay", schedule_replay, (match,), {"by": user}))
            if offered.forfeit:
                tries.append(("forfeit", record_forfeit, (match, match.home), {"by": user}))
            if offered.report:
                write = settle_report if settles(match, user) else file_report
                tries.append(("report", write, (match, _a_report(match)), {"by": user}))
            for name, action, args, kwargs in tries:
                with rolled_back():
                    why = _can(action, *args, **kwargs)
                if why is not None:
                    problems.append(f"{match} offers {user.username} «{name}», which fails: {why}")
    for season in Season.objects.running():
        plan = season_end_preview(season)
        with rolled_back():
            why = _can(commit_season_end, season, by=year.board, next_name=f"{season.name} neste")
        if (why is None) != (not plan.problems):
            problems.append(
                f"{season}: the end is {'refused' if why else 'possible'} but the preview says {plan.problems}"
            )
    assert not problems, "A page offers what fails:\n" + "\n".join(problems)
