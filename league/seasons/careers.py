"""A coach's career as his page shows it: his teams, his seasons' records (S/U/T) from the kept statistics,
the titles and prizes the season ends gave his teams, and his matches against another coach.

A coach's record is his seasons': a team's season counts for the coach who had it that season
(`SeasonEntry.coach`; a season not yet ended is the coach's who has the team now). Only what the kept
statistics count is counted (matches.stats: a confirmed match, a forfeit as the awarded win, R35 and R46;
a voided one never); the head-to-head reads the same matches, each one's outcome as the tables take it
(`matches.charts.team_result`, as the form strip reads it: R34, R35).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.http import Http404

from league.accounts import coach_name
from league.models import SeasonEnd, SeasonEntry, TeamSeasonStats
from league.seasons.archive import Honours, season_honours
from matches.charts import RESULT_FIELDS, team_result
from matches.models import Match
from teams.models import Team

CUP = TeamSeasonStats.Competition.CUP
OUTCOME_FIELDS = {"win": "won", "draw": "drawn", "loss": "lost"}  # a side's outcome as its Record counts it
# A match of the head-to-head as its list shows it: a team's result, and whose team was home.
MATCH_FIELDS = (*RESULT_FIELDS, "pk", "division__name", "date", "confirmed_at", "season_id")


@dataclass(frozen=True)
class Record:
    """Wins, draws and losses (seier, uavgjort, tap) and the touchdowns scored and let in."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    touchdowns_for: int = 0
    touchdowns_against: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    def __add__(self, other: Record) -> Record:
        return Record(
            self.won + other.won,
            self.drawn + other.drawn,
            self.lost + other.lost,
            self.touchdowns_for + other.touchdowns_for,
            self.touchdowns_against + other.touchdowns_against,
        )


@dataclass
class SeasonRecord:
    """A coach's season: his teams in it (and their divisions), his league and cup records."""

    season_id: int
    name: str
    teams: list[dict] = field(default_factory=list)
    league: Record = Record()
    cup: Record = Record()

    @property
    def total(self) -> Record:
        return self.league + self.cup


@dataclass
class Career:
    coach_id: int
    teams: list[dict]
    seasons: list[SeasonRecord]
    honours: Honours
    opponents: list[tuple[int, str]]  # the other coaches, for the head-to-head's choice

    @property
    def total(self) -> Record:
        return sum((s.total for s in self.seasons), Record())

    @property
    def league(self) -> Record:
        return sum((s.league for s in self.seasons), Record())

    @property
    def cup(self) -> Record:
        return sum((s.cup for s in self.seasons), Record())


def _coaches_of(teams: QuerySet[Team], entries: QuerySet[SeasonEntry]) -> dict[int, dict]:
    """The coaches of these teams and season entries (an account that never had a team has no career), each
    with his names and his teams' names, in one query."""
    names = ("coach_id", "coach__first_name", "coach__last_name", "coach__username")
    now = teams.order_by().values(*names, team_name=F("name"))
    then = entries.order_by().values(*names, team_name=F("team__name"))
    coaches: dict[int, dict] = {}
    for row in now.union(then).order_by("team_name"):
        coach = coaches.setdefault(
            row["coach_id"],
            {"full_name": f"{row['coach__first_name']} {row['coach__last_name']}", "username": row["coach__username"]},
        )
        coach.setdefault("teams", []).append(row["team_name"])
    return coaches


def _named(coach: dict, *, private: bool) -> str:
    return coach_name(coach["full_name"], coach["username"], coach["teams"], private=private)


def named_coaches(pks: list[int], *, private: bool) -> dict[int, str]:
    """These coaches' names as the pages name them (those with a team only), in one query: the pages'
    titles and their 404s, read outside the cached fragment."""
    coaches = _coaches_of(Team.objects.filter(coach_id__in=pks), SeasonEntry.objects.filter(coach_id__in=pks))
    return {pk: _named(c, private=private) for pk, c in coaches.items()}


def coach_index(*, private: bool) -> list[dict]:
    """Every coach who has had a team, by name, with the teams he has had: one query."""
    coaches = _coaches_of(Team.objects.all(), SeasonEntry.objects.all())
    rows = [{"pk": pk, "name": _named(c, private=private), "teams": c["teams"]} for pk, c in coaches.items()]
    return sorted(rows, key=lambda row: row["name"].lower())


def career(coach_id: int, *, private: bool) -> Career:
    """The coach's page but his name (`named_coaches`), in six queries whatever the league's size; 404 for
    an account with no team."""
    his = Team.objects.filter(
        Q(coach_id=coach_id) | Q(pk__in=SeasonEntry.objects.filter(coach_id=coach_id).values("team"))
    )
    teams = list(his.order_by("-active", "name").values("pk", "name", "active", "race__name"))
    if not teams:
        raise Http404
    seasons: dict[int, SeasonRecord] = {}
    entries = SeasonEntry.objects.filter(coach_id=coach_id)
    entries = entries.order_by("season__created_at", "season_id", "team__name")
    for e in entries.values("season_id", "season__name", "team_id", "team__name", "division__name"):
        seasons.setdefault(e["season_id"], SeasonRecord(e["season_id"], e["season__name"])).teams.append(
            {"pk": e["team_id"], "name": e["team__name"], "division": e["division__name"]}
        )
    coached = SeasonEntry.objects.filter(season=OuterRef("season"), team=OuterRef("team"), coach_id=coach_id)
    kept = TeamSeasonStats.objects.filter(Exists(coached)).order_by("season__created_at", "season_id")
    for row in kept.values(
        "season_id", "season__name", "competition", "won", "drawn", "lost", "touchdowns_for", "touchdowns_against"
    ):
        season = seasons.setdefault(row["season_id"], SeasonRecord(row["season_id"], row["season__name"]))
        record = Record(row["won"], row["drawn"], row["lost"], row["touchdowns_for"], row["touchdowns_against"])
        if row["competition"] == CUP:
            season.cup += record
        else:
            season.league += record
    ends = SeasonEnd.objects.filter(season_id__in=list(seasons))
    honours = season_honours(ends, coach_id=coach_id, private=private)
    for team in teams:
        team["seasons"] = [s.name for s in seasons.values() if any(t["pk"] == team["pk"] for t in s.teams)]
    coaches = _coaches_of(Team.objects.exclude(coach_id=coach_id), SeasonEntry.objects.exclude(coach_id=coach_id))
    opponents = sorted(((pk, _named(c, private=private)) for pk, c in coaches.items()), key=lambda o: o[1].lower())
    return Career(coach_id, teams, list(seasons.values()), honours, opponents)


@dataclass
class HeadToHead:
    coach: tuple[int, str]
    other: tuple[int, str]
    record: Record
    matches: list[dict]


def head_to_head(coach_id: int, other_id: int, *, private: bool) -> HeadToHead:
    """The two coaches' confirmed matches against each other, each played by the teams they coached that
    season (a forfeit as its awarded result, R35/R46; never a void), each with its outcome for the first
    coach; three queries. 404 unless both have had a team and they are two."""
    if coach_id == other_id:
        raise Http404
    both = [coach_id, other_id]
    coaches = _coaches_of(Team.objects.filter(coach_id__in=both), SeasonEntry.objects.filter(coach_id__in=both))
    if len(coaches) < 2:
        raise Http404
    teams: dict[tuple[int, int], set[int]] = {}  # (coach, season): his teams that season
    for e in SeasonEntry.objects.filter(coach_id__in=both).values("coach_id", "season_id", "team_id"):
        teams.setdefault((e["coach_id"], e["season_id"]), set()).add(e["team_id"])
    met = Q(pk__in=[])
    for (coach, season), mine in teams.items():
        if coach == coach_id and (theirs := teams.get((other_id, season))):
            met |= Q(season_id=season, home_id__in=mine, away_id__in=theirs)
            met |= Q(season_id=season, home_id__in=theirs, away_id__in=mine)
    rows = Match.objects.confirmed().filter(met).order_by("confirmed_at", "pk").values(*MATCH_FIELDS)
    record = Record()
    matches = []
    for m in rows:
        home_is_his = m["home_id"] in teams[(coach_id, m["season_id"])]
        result = team_result(m, m["home_id"] if home_is_his else m["away_id"])
        outcome = OUTCOME_FIELDS[result.outcome]
        counts = (int(outcome == "won"), int(outcome == "drawn"), int(outcome == "lost"))
        record += Record(*counts, result.scored, result.conceded)
        matches.append({**m, "outcome": outcome, "round_name": result.round_name, "walkover": result.walkover})
    named = {pk: _named(c, private=private) for pk, c in coaches.items()}
    return HeadToHead((coach_id, named[coach_id]), (other_id, named[other_id]), record, matches)
