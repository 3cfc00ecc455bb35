"""Reads for a coach's own page: his next match and what waits for him, one selector per kind of to-do.

Each selector reads a fixed number of rows whatever the size of the league, and says what the coach
must do next by the same states the services check (matches/prematch.py, report.py, postmatch.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import F, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import RoundDeadline, Season, round_name
from matches.models import DateProposal, DevelopmentRoll, HandicapDraw, Match, PostMatch, PreMatch, SquadEntry
from matches.notices import action_key
from matches.postmatch.base import unfinished_postmatches
from matches.prematch.base import chef_bought, niggling_checked
from matches.scheduling import by_deadline, competition_of
from teams.models import Player, Race, Team


@dataclass(frozen=True)
class Todo:
    """One action the league waits for. `key` names it (a notice asking for it carries the same key, and
    is done once the key is off its reader's list); `who` names the people who must take it and `since`
    says when it began waiting, for the board's desk."""

    kind: str  # prematch, report, confirm, refile, postmatch, levelup, date, found_team (and the desk's)
    label: str
    url: str
    match: Match | None = None
    team: Team | None = None
    key: str = ""
    who: str = ""
    since: datetime | None = None

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", action_key(self.kind, *(o for o in (self.match, self.team) if o)))


def _open_seasons() -> Q:
    return ~Q(season__status=Season.Status.FINISHED)


SOONEST_FIRST = (F("date").asc(nulls_last=True), "round", "pk")


def scheduled_for(team_ids: Sequence[int]) -> QuerySet[Match]:
    """The teams' matches still to play, both teams known, soonest first (dated ones by date, then by round)."""
    return (
        Match.objects.filter(Q(home__in=team_ids) | Q(away__in=team_ids), _open_seasons())
        .filter(status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False)
        .select_related("season", "division", "cup", "home__race", "away__race", "prematch")
        .order_by(*SOONEST_FIRST)
    )


COMING_FIELDS = ("id", "round", "date", "start_time", "home__name", "away__name", "division__name", "cup__name")


def coming_matches(team_id: int, limit: int) -> list[dict]:
    """A team's next matches as its page lists them (`scheduled_for`'s, as values), the first `limit` kept
    here: the team's matches still to play are a season's fixtures at most, and its cup ties."""
    coming = list(scheduled_for([team_id]).values(*COMING_FIELDS, "cup_id", "cup__draw"))
    for m in coming:  # a cup's round named by the teams it drew ("final"), as every page names it
        draw = m.pop("cup__draw")
        m["round_name"] = round_name(m["round"], cup_teams=len(draw) if m["cup_id"] else None)
    # A cup match ready to play but not yet dated sorts after every dated league match: it is listed
    # all the same, or a team with a dated season would not see its cup tie.
    return [m for n, m in enumerate(coming) if n < limit or (m["cup_id"] and m["date"] is None)]


def next_cup_matches(teams: Iterable[Team], scheduled: Sequence[Match]) -> dict[int, Match]:
    """Each team's cup match still to play, from its scheduled matches read once (shown beside the next
    match when that is a league match: an undated cup tie would otherwise wait behind the season)."""
    return next_matches(teams, [m for m in scheduled if m.cup_id is not None])


def next_matches(teams: Iterable[Team], scheduled: Sequence[Match]) -> dict[int, Match]:
    """Each team's next match, from its scheduled matches read once."""
    found: dict[int, Match] = {}
    for team in teams:
        found_match = next((m for m in scheduled if team.pk in (m.home_id, m.away_id)), None)
        if found_match is not None:
            found[team.pk] = found_match
    return found


def _prematch_done(match: Match) -> int:
    return getattr(getattr(match, "prematch", None), "done", 0)  # 0 before the first step


@dataclass(frozen=True)
class PrematchSide:
    """One team's part of the pre-match: `next` is the step that waits for its coach (None while it waits
    for the other, or is done); the `may_*` are what this person may do for it now, as the services accept."""

    team: Team
    next: int | None
    may_squad: bool  # picked, or picked again until the weather is rolled (R3)
    may_niggling: bool
    niggling_done: bool
    may_chef: bool
    may_inspire: bool  # its Inspiration's player waits to be chosen (R23)
    inspired: bool  # its inspired player's development roll waits for the choice (R23)
    may_develop: bool

    @property
    def chef(self) -> bool:  # the Master Chef is the Halflings' head coach (R9)
        return self.team.race.head_coach == Race.HeadCoach.MASTER_CHEF


@dataclass(frozen=True)
class PrematchTurn:
    """The match's next step for either side (None while each takes its own), and whether this person may
    take it (the home coach sets the ticket price)."""

    step: int | None
    may_step: bool
    sides: tuple[PrematchSide, ...]


def prematch_turn(
    match: Match,
    prematch: PreMatch | None,
    *,
    mine: set[int],
    picked: set[int],
    inspire=frozenset(),
    inspired=frozenset(),
) -> PrematchTurn:
    """Which pre-match step may be taken now, and by whom, from what the caller read: the teams this person
    acts for (matches.notices.acts_for), those that picked their squads, and those whose Inspiration waits
    for its player or its development choice (R23)."""
    S = PreMatch.Step
    done = prematch.done if prematch is not None else 0
    step = {S.SQUADS: S.WEATHER, S.WEATHER: S.TICKETS, S.TICKETS: S.GATE, S.NIGGLING: S.HANDICAP}.get(done)
    sides = []
    for team in (match.home, match.away):
        own, checked = team.pk in mine, prematch is not None and niggling_checked(match, prematch, team)
        buys = done == S.HANDICAP and team.race.head_coach == Race.HeadCoach.MASTER_CHEF
        buys = buys and not chef_bought(match, prematch, team)
        if done == 0:
            next_ = None if team.pk in picked else S.SQUADS
        elif step is not None:
            next_ = step if step != S.TICKETS or team.pk == match.home_id else None
        elif done == S.FAN_FACTOR_MODIFIER:
            next_ = None if checked else S.NIGGLING
        elif done == S.HANDICAP and team.pk in inspire | inspired:
            next_ = S.HANDICAP
        else:
            next_ = S.MASTER_CHEF if buys else None
        sides.append(
            PrematchSide(
                team=team,
                next=next_,
                may_squad=own and done < S.WEATHER,
                may_niggling=own and next_ == S.NIGGLING,
                niggling_done=checked,
                may_chef=own and buys,
                may_inspire=own and team.pk in inspire,
                inspired=team.pk in inspired,
                may_develop=own and team.pk in inspired,
            )
        )
    may_step = step is not None and (match.home_id in mine if step == S.TICKETS else bool(mine))
    return PrematchTurn(step=step, may_step=may_step, sides=tuple(sides))


def _inspiration_pending(match: Match, team: Team) -> bool:
    """The team's Inspiration (R23) waits for its player or his development choice."""
    return (
        HandicapDraw.objects.filter(match=match, team=team, key="inspiration", player__isnull=True).exists()
        or DevelopmentRoll.objects.filter(match=match, player__team=team, before_match=True, choice="").exists()
    )


def prematch_todos(teams: Sequence[Team], scheduled: Sequence[Match], *, blocked: set[int] = frozenset()) -> list[Todo]:
    """A pre-match step to walk: in each team's next match, or in any match whose pre-match has started.
    A `blocked` team must finish its last post-match sequence first (pick_squad refuses until then).
    A match played with the paper sheet walks its pre-match too, the dice typed in: the report needs it."""
    nexts = {m.pk for m in next_matches(teams, scheduled).values()}
    started = [m for m in scheduled if m.pk in nexts or _prematch_done(m) > 0]
    squads = set(
        SquadEntry.objects.filter(match__in=started, team__in=teams).values_list("match_id", "team_id").distinct()
    )
    todos = []
    for match in started:
        for team in teams:
            if team.pk not in (match.home_id, match.away_id) or team.pk in blocked:
                continue
            waits = _prematch_done(match) == PreMatch.Step.HANDICAP and _inspiration_pending(match, team)
            turn = prematch_turn(
                match,
                getattr(match, "prematch", None),
                mine={team.pk},
                picked={t for m, t in squads if m == match.pk},
                inspire={team.pk} if waits else set(),
            )
            step = next(s.next for s in turn.sides if s.team.pk == team.pk)
            if step is not None:
                todos.append(
                    Todo(
                        "prematch",
                        _("%(match)s: pre-match, %(step)s") % {"match": match, "step": PreMatch.Step(step).label},
                        reverse("match_prematch", args=[match.pk]),
                        match,
                        team,
                    )
                )
    return todos


def report_todos(scheduled: Sequence[Match]) -> list[Todo]:
    """A report (or the live log) to file: exactly when `file_report` takes it, the pre-match walked."""
    return [
        Todo(
            "report",
            _("%(match)s: file the report") % {"match": m},
            reverse("match_report", args=[m.pk]),
            m,
        )
        for m in scheduled
        if _prematch_done(m) >= PreMatch.Step.MASTER_CHEF
    ]


def confirm_todos(user, team_ids: Sequence[int]) -> list[Todo]:
    """A report the other coach filed, waiting for this coach to confirm or dispute it."""
    reported = (
        Match.objects.filter(Q(home__in=team_ids) | Q(away__in=team_ids), status=Match.Status.REPORTED)
        .exclude(filed_by=user)
        .select_related("home", "away")
        .order_by("filed_at", "pk")
    )
    return [
        Todo(
            "confirm",
            _("%(match)s %(home)s–%(away)s: confirm or dispute the report")
            % {"match": m, "home": m.home_score, "away": m.away_score},
            m.get_absolute_url(),
            m,
            since=m.filed_at,
        )
        for m in reported
    ]


def refile_todos(user, team_ids: Sequence[int]) -> list[Todo]:
    """A report the board reopened, back with the coach who filed it (R47) until he files it again."""
    reopened = (
        Match.objects.filter(Q(home__in=team_ids) | Q(away__in=team_ids), status=Match.Status.REOPENED, filed_by=user)
        .select_related("home", "away")
        .order_by("reopened_at", "pk")
    )
    return [
        Todo(
            "refile",
            _("%(match)s: the board reopened your report; correct it and file it again") % {"match": m},
            reverse("match_report", args=[m.pk]),
            m,
            since=m.reopened_at,
        )
        for m in reopened
    ]


def levelup_todos(teams: Sequence[Team]) -> list[Todo]:
    """Development rolls made and not chosen yet (R29), and a Tzeentch mutation to pick (R10)."""
    rolls = (  # an Inspiration MVP's roll is chosen in the pre-match (R23): prematch_todos offers it
        DevelopmentRoll.objects.filter(player__team__in=teams, choice="", before_match=False)
        .select_related("match__home", "match__away", "player__team")
        .order_by("match", "player__number")
    )
    todos: dict[tuple[int, int], Todo] = {}
    for roll in rolls:
        team = roll.player.team
        key = (roll.match_id, team.pk)
        if key not in todos:
            todos[key] = Todo(
                "levelup",
                _("%(match)s: choose the level-ups of %(team)s") % {"match": roll.match, "team": team.name},
                reverse("match_postmatch", args=[roll.match_id, team.pk]),
                roll.match,
                team,
            )
    mutations = [
        Todo(
            "levelup",
            _("%(player)s: choose the mutation") % {"player": p},
            p.get_absolute_url(),
            team=p.team,
            key=action_key("mutation", p),
        )
        for p in Player.objects.on_roster().filter(team__in=teams, mutation_choice_pending=True).select_related("team")
    ]
    return [*todos.values(), *mutations]


def unfinished_of(teams: Sequence[Team]) -> list[PostMatch]:
    """The teams' unfinished post-match sequences, oldest first: what `pick_squad` refuses on."""
    return list(
        unfinished_postmatches([t.pk for t in teams])
        .select_related("match__home", "match__away")
        .order_by("match__confirmed_at", "match_id", "team_id")
    )


def postmatch_todos(
    teams: Sequence[Team], unfinished: Sequence[PostMatch], *, skip: set[tuple[int, int]] = frozenset()
) -> list[Todo]:
    """A post-match sequence (R24) the team has not finished, in any season: each holds its next match."""
    names = {t.pk: t for t in teams}
    return [
        Todo(
            "postmatch",
            _("%(match)s: the post-match sequence of %(team)s") % {"match": row.match, "team": names[row.team_id].name},
            reverse("match_postmatch", args=[row.match_id, row.team_id]),
            row.match,
            names[row.team_id],
            since=row.match.confirmed_at,
        )
        for row in unfinished
        if (row.match_id, row.team_id) not in skip
    ]


def coach_todos(user, teams: Sequence[Team], scheduled: Sequence[Match], *, today: date) -> list[Todo]:
    """Everything waiting for the coach in the league's order: confirm or dispute, finish the last match's
    post-match, then the next match (its report once its pre-match is walked, else its pre-match).
    A team with an unfinished post-match is offered no pre-match: the same read as pick_squad's refusal."""
    levelups = levelup_todos(teams)
    chosen = {(t.match.pk, t.team.pk) for t in levelups if t.match is not None}
    unfinished = unfinished_of(teams)
    blocked = {row.team_id for row in unfinished}
    return [
        *confirm_todos(user, [t.pk for t in teams]),
        *refile_todos(user, [t.pk for t in teams]),
        *levelups,
        *postmatch_todos(teams, unfinished, skip=chosen),
        *date_todos(teams, scheduled),
        *report_todos(scheduled),
        *prematch_todos(teams, scheduled, blocked=blocked),
    ]


def date_todos(teams: Sequence[Team], scheduled: Sequence[Match]) -> list[Todo]:
    """Dates the other coach proposed for one of the coach's matches, waiting for his answer:
    only those he can still accept (matches.scheduling.accept_date), so the to-do never leads to a refusal:
    the date to come, by the round's deadline, the pre-match not begun at the table."""
    mine = {t.pk for t in teams}
    by_pk = {m.pk: m for m in scheduled}
    proposals = (
        DateProposal.objects.filter(
            match__in=list(by_pk), status=DateProposal.Status.OPEN, starts_at__gt=timezone.now()
        )
        .exclude(team__in=mine)
        .exclude(match__prematch__done__gte=PreMatch.Step.WEATHER)
        .values_list("match_id", "starts_at")
    )
    deadlines = {
        (d.season_id, d.competition, d.round): d.deadline
        for d in RoundDeadline.objects.filter(season__in={m.season_id for m in by_pk.values()})
    }
    waiting = set()
    for match_id, starts_at in proposals:
        m = by_pk[match_id]
        if by_deadline(starts_at, deadlines.get((m.season_id, competition_of(m), m.round))):
            waiting.add(match_id)
    return [
        Todo(
            "date",
            _("%(match)s: the other coach proposes dates; accept one or propose others") % {"match": by_pk[pk]},
            f"{by_pk[pk].get_absolute_url()}#schedule-{pk}",
            by_pk[pk],
        )
        for pk in by_pk
        if pk in waiting
    ]


def filter_rounds(rounds: dict[int, list[dict]], *, team: int | None, division: int | None) -> dict[int, list[dict]]:
    """The match list's rounds narrowed to one team and/or one division; empty rounds dropped."""
    kept: dict[int, list[dict]] = {}
    for number, matches in rounds.items():
        rows = [
            m
            for m in matches
            if (team is None or team in (m["home_id"], m["away_id"]))
            and (division is None or m["division_id"] == division)
        ]
        if rows:
            kept[number] = rows
    return kept
