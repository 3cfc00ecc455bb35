"""Reads for the league board: tables, results, fixtures, cup and memorial (the leaders: league.seasons.leaders).

Every page here uses a fixed number of queries whatever the number of matches: the season's
matches are read once as plain rows and the tables are computed by league.rules.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from django.db.models import F, FilteredRelation, Min, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from league import rules
from league.models import (
    STAT_FIELDS_TEAM,
    Cup,
    Division,
    Season,
    SeasonEntry,
    TeamSeasonStats,
    TiebreakGame,
)
from matches.models import Match, winner_of
from teams.models import Player, Team

MATCH_FIELDS = (
    "id",
    "division_id",
    "cup_id",
    "round",
    "cup_slot",
    "home_id",
    "away_id",
    "status",
    "home_score",
    "away_score",
    "home_casualties",
    "away_casualties",
    "tiebreak_winner_id",
    "date",
    "start_time",
    "confirmed_at",
    "neutral",
    "forfeited_by_id",  # a forfeit's score reads W.O. (R46)
    "home__name",
    "away__name",
)
MATCH_KEYS = (*MATCH_FIELDS[:-2], "home_name", "away_name")  # the rows' dicts: the teams' names as read
FRONT_PAGE_CUP_SLOTS = 16


def current_season() -> Season | None:
    """The running season (R43: started, not ended), else the newest one. Read as the seasons not ended,
    newest first (a few rows), the first started among them: its status says so, or, for one the board has
    not started, a match (`SeasonQuerySet.running`'s meaning, whose EXISTS every front page paid for)."""
    seasons = Season.objects.with_rules().order_by("-created_at")
    not_ended = list(seasons.filter(end__isnull=True).exclude(status=Season.Status.FINISHED))
    if not_ended and not_ended[0].status != Season.Status.RUNNING:
        with_matches = set(Match.objects.filter(season__in=not_ended).values_list("season_id", flat=True).distinct())
    else:
        with_matches = set()
    started = (s for s in not_ended if s.status == Season.Status.RUNNING or s.pk in with_matches)
    return next(started, None) or seasons.first()


def division_lines(division: Division) -> list[rules.Line]:
    """One division's table (R31), from its kept lines (matches.stats) and recorded tiebreak games."""
    tables = _ranked_tables(division.season, [division])
    return [line for line, _team in tables[division.pk]]


def ties_to_settle(season: Season, tables: Mapping[int, list[rules.Line]]) -> list[tuple[Division, rules.Line]]:
    """The ties the rules cannot split where they decide a title, a prize or a move (R31, R32): each must be
    settled by a tiebreak game before the season ends. `tables`: each division's lines, by level."""
    r = season.ruleset.rules
    divisions = list(season.divisions.order_by("level"))
    levels = {d.level for d in divisions}
    found = []
    for division in divisions:
        lines = tables[division.level]
        decisive = rules.decisive_places(
            len(lines),
            prizes=len(r.prizes(division.level)),
            promotion_count=r.settings.promotion_count,
            division_above=division.level > 1,
            division_below=division.level + 1 in levels,
        )
        found += [(division, line) for line in lines if line.tied and line.position in decisive]
    return found


class TeamName(NamedTuple):
    """A team as the tables and match lists name it. A big league's standings show 200: a model
    instance each cost more than the rest of its line."""

    pk: int
    name: str
    race_name: str


# The kept counters in the order of Line's fields, so that a kept row fills a Line positionally.
LINE_FIELDS = tuple(f.name for f in fields(rules.Line) if f.name in STAT_FIELDS_TEAM)


def _entry_rows(entries: QuerySet[SeasonEntry]) -> QuerySet:
    """The entries' division and team, the team's names and its kept league line of the entry's season
    (none yet for a team that has played nothing), as plain tuples: a big league's standings read 200."""
    kept = FilteredRelation(
        "team__season_stats",
        condition=Q(
            team__season_stats__season=F("season"),
            team__season_stats__competition=TeamSeasonStats.Competition.LEAGUE,
        ),
    )
    counts = (f"kept__{name}" for name in LINE_FIELDS)
    return entries.annotate(kept=kept).values_list(
        "division_id", "team_id", "team__name", "team__race__name", *counts, "kept__head_to_head"
    )


def _ranked_tables(season: Season, divisions: list[Division]) -> dict[int, list[tuple[rules.Line, TeamName]]]:
    """Each division's lines ranked by R31, with their teams: the season's entries with their kept lines
    (matches.stats), and the divisions' recorded tiebreak games."""
    if not divisions:
        return {}
    levels = (divisions[0].level, divisions[-1].level)  # the divisions are in level order
    entries = SeasonEntry.objects.filter(season=season, division__level__range=levels)
    return _rank(_entry_rows(entries), {d.pk: season.ruleset.rules for d in divisions})


def _rank(entries: Iterable[tuple], rules_of: dict[int, rules.Ruleset]) -> dict[int, list[tuple[rules.Line, TeamName]]]:
    """The divisions' tables from their entries' rows (`_entry_rows`), each ranked by its season's rules (R31)."""
    by_division: dict[int, list[tuple[rules.Line, TeamName]]] = {pk: [] for pk in rules_of}
    head_to_head: dict[int, dict[tuple[int, int], int]] = {pk: {} for pk in rules_of}
    for division_id, team_id, name, race_name, *counts, points in entries:
        line = rules.Line(team_id, *counts) if counts[0] is not None else rules.Line(team_id)
        by_division[division_id].append((line, TeamName(team_id, name, race_name)))
        # JSON keeps the opponents' ids as strings
        head_to_head[division_id].update({(team_id, int(o)): n for o, n in (points or {}).items()})
    winners: dict[int, list[int]] = defaultdict(list)
    games = TiebreakGame.objects.filter(division__in=list(rules_of)).values_list("division_id", "winner_id")
    for division_id, winner in games:
        winners[division_id].append(winner)
    tables = {}
    for division_id, rows in by_division.items():
        teams = {line.team: team for line, team in rows}
        lines = [line for line, _team in rows]
        ranked = rules_of[division_id].rank_lines(lines, head_to_head[division_id], winners[division_id])
        tables[division_id] = [(line, teams[line.team]) for line in ranked]
    return tables


@dataclass
class DivisionTable:
    division: Division
    ranked: list[tuple[rules.Line, TeamName]]
    _rows: list[tuple[dict[str, Any], TeamName]] | None = field(default=None, repr=False, compare=False)

    @property
    def lines(self) -> list[rules.Line]:
        return [line for line, _team in self.ranked]

    def rows(self) -> list[tuple[dict[str, Any], TeamName]]:
        """Each line as a dict, with its team: the template engine finds a dict's keys at once, and
        an object's attributes only after a failed key lookup (a big league's standings read
        thousands)."""
        if self._rows is None:
            self._rows = [(line.as_dict(), team) for line, team in self.ranked]
        return self._rows

    def shown(self) -> str:
        """Everything the table shows, as text: the key of its rendered HTML in the template's
        `{% cache %}`, so a table whose lines did not change is not rendered again after a write
        elsewhere in the league (a big league's standings render ten tables)."""
        return repr((self.division.pk, self.division.name, self.rows()))


# A division's teams are fixed once one of its matches is played (reported, disputed or confirmed):
# league.seasons.services.set_division_teams refuses then; generate_fixtures already once any match has
# left "scheduled" (a forfeit, a void too).
TEAMS_FIXED_BY = (Match.Status.CONFIRMED, *Match.FILED)


@dataclass
class DivisionDesk:
    """What the board's forms of a division on the season page need: its recorded tiebreak games (R31),
    and whether its teams and its fixtures can still change."""

    tiebreaks: list[TiebreakGame] = field(default_factory=list)
    teams_fixed: bool = False
    fixtures_fixed: bool = False


def board_desks(season: Season) -> dict[int, DivisionDesk]:
    """Each division's `DivisionDesk`, by its id, in two queries whatever the number of divisions."""
    desks: dict[int, DivisionDesk] = defaultdict(DivisionDesk)
    for game in TiebreakGame.objects.filter(division__season=season).select_related("winner", "loser"):
        desks[game.division_id].tiebreaks.append(game)
    statuses = Match.objects.filter(division__season=season).values_list("division_id", "status").distinct()
    for division_id, status in statuses:
        desk = desks[division_id]
        desk.teams_fixed |= status in TEAMS_FIXED_BY
        desk.fixtures_fixed |= status != Match.Status.SCHEDULED
    return desks


@dataclass
class SeasonBoard:
    season: Season | None
    tables: list[DivisionTable] = field(default_factory=list)
    latest: list[dict] = field(default_factory=list)
    upcoming: list[dict] = field(default_factory=list)
    cup: Cup | None = None
    bracket: list[list[dict]] = field(default_factory=list)
    teams: dict[int, TeamName] = field(default_factory=dict)
    rounds: dict[int, list[dict]] = field(default_factory=dict)
    bracket_offset: int = 0

    @property
    def bracket_named(self) -> list[tuple[str, list[dict]]]:
        """The bracket's rounds, each with its name ("final", "semi-final"), as every page names a cup round."""
        first = self.bracket_offset + 1
        return [(self.cup.round_name(first + n), matches) for n, matches in enumerate(self.bracket)]


def season_board(
    season: Season | None,
    *,
    latest: int = 8,
    upcoming: int = 8,
    rounds: bool = False,
    bracket: str = "full",
    tables: int | None = None,
) -> SeasonBoard:
    """Tables, latest and next matches and the cup, in a fixed number of queries.

    The tables need only six numbers per confirmed match, read as plain tuples; results by round
    (`rounds`) read every fixture and are asked for only where they are shown. `bracket` is "full",
    "current" (the rounds still being played, for the front page) or "none"; `tables` limits the
    division tables to the top ones (the front page shows the 1st and 2nd division).
    """
    board = SeasonBoard(season)
    if season is None:
        return board
    divisions = list(season.divisions.order_by("level")[:tables] if tables else season.divisions.order_by("level"))
    # The front page (`tables`) reads only the shown divisions' teams, the others as its lists name them.
    ranked = _ranked_tables(season, divisions)
    board.tables = [DivisionTable(d, ranked[d.pk]) for d in divisions]
    board.teams = {team.pk: team for table in board.tables for _line, team in table.ranked}
    try:
        board.cup = season.cup  # read with the season where the caller selected it
    except Cup.DoesNotExist:
        board.cup = None
    _read_lists(board, latest=latest, upcoming=upcoming, bracket=bracket)
    if rounds:
        fixtures = Match.objects.filter(season=season, division__isnull=False).order_by("round", "id")
        for m in _rows(fixtures):
            board.rounds.setdefault(m["round"], []).append(m)
    return board


def _read_lists(board: SeasonBoard, *, latest: int, upcoming: int, bracket: str) -> None:
    """The board's latest results, next fixtures and cup bracket, each one query (the partial indexes
    match_latest_results and match_next_fixtures serve the first two)."""
    season, cup = board.season, board.cup
    matches = Match.objects.filter(season=season)
    if latest:
        confirmed = matches.filter(status=Match.Status.CONFIRMED)
        board.latest = _rows(confirmed.order_by(F("confirmed_at").desc(nulls_first=True), "-id")[:latest])
    if upcoming:
        ready = matches.filter(status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False)
        board.upcoming = _rows(ready.order_by("round", F("date").asc(nulls_last=True), "id")[:upcoming])
    total = rules.cup_rounds(len(cup.draw)) if cup is not None and bracket != "none" else 0
    if total:
        ties = Match.objects.filter(cup=cup)
        if bracket == "current":  # from the round before the first still being played, else the final's
            open_round = ties.filter(status=Match.Status.SCHEDULED).values("cup").annotate(first=Min("round"))
            ties = ties.filter(round__gte=Coalesce(Subquery(open_round.values("first")), total) - 1)
        _bracket(board, _rows(ties), total, current=bracket == "current")


def _bracket(board: SeasonBoard, cup_matches: list[dict], total: int, *, current: bool) -> None:
    """The cup's rounds, each in its slots' order (byes without a slot last). `current`: the front
    page's, from the round before the first still being played (else from the semi-final), each cut
    to its first FRONT_PAGE_CUP_SLOTS."""
    cup_matches.sort(key=lambda m: (m["cup_slot"] is None, m["cup_slot"] or 0, m["id"]))
    replayed = {(m["round"], m["cup_slot"]) for m in cup_matches if m["status"] != Match.Status.VOID}
    cup_matches = [  # a voided tie gives its place to its replay
        m for m in cup_matches if m["status"] != Match.Status.VOID or (m["round"], m["cup_slot"]) not in replayed
    ]
    first = 1
    if current:
        open_rounds = [m["round"] for m in cup_matches if m["status"] == Match.Status.SCHEDULED]
        first = max(1, min(open_rounds, default=total) - 1)
        board.bracket_offset = first - 1
    by_round: dict[int, list[dict]] = {n: [] for n in range(first, total + 1)}
    for m in cup_matches:
        if m["round"] in by_round:
            m["winner"] = _side_of(m, winner_of(m))
            by_round[m["round"]].append(m)
    for number, ties in by_round.items():
        by_round[number] = _with_open_slots(ties, number, total)
    shown = FRONT_PAGE_CUP_SLOTS if current else None
    board.bracket = [rnd[:shown] for rnd in by_round.values()]


def _side_of(m: dict, team_id: int | None) -> str | None:
    """The side ("home", "away") the team plays on in the tie: the bracket marks a side, not a name."""
    if team_id is None:
        return None
    return "home" if team_id == m["home_id"] else "away"


def _with_open_slots(ties: list[dict], number: int, total: int) -> list[dict]:
    """The round's ties with a box for each slot no match row holds yet (a later round before its teams
    are known), so the drawn bracket has every tie of every round in its place."""
    taken = {m["cup_slot"] for m in ties}
    slots = range(2 ** (total - number))
    blank = dict.fromkeys(MATCH_KEYS) | {"round": number, "winner": None}
    open_slots = [blank | {"cup_slot": slot} for slot in slots if slot not in taken]
    return sorted(ties + open_slots, key=lambda m: (m["cup_slot"] is None, m["cup_slot"] or 0, m["id"] or 0))


def _rows(matches: QuerySet[Match]) -> list[dict]:
    """Matches as the lists and the bracket show them: dicts of MATCH_KEYS, with the teams' names
    (read with the match: a league's lists name teams of every division, a cup's of no table)."""
    return [dict(zip(MATCH_KEYS, row, strict=True)) for row in matches.values_list(*MATCH_FIELDS)]


MEMORIAL_FIELDS = ("pk", "name", "left_at", "position__name", "team__name")


def memorial(limit: int = 20) -> list[dict[str, Any]]:
    """The newest dead first, as the front page names them."""
    dead = Player.objects.filter(status=Player.Status.DEAD).order_by("-left_at")
    return [dict(zip(MEMORIAL_FIELDS, row, strict=True)) for row in dead.values_list(*MEMORIAL_FIELDS)[:limit]]


def team_history(team: Team) -> list[dict[str, Any]]:
    """The team's seasons: division, final place, and its record; three queries whatever the number of
    seasons (the team's entries, every entry of their divisions with the kept lines, and the tiebreak
    games if a tie reaches them)."""
    entries = list(
        SeasonEntry.objects.filter(team=team)
        .select_related("season__ruleset", "division")
        .defer("season__ruleset__data")
        .order_by("division")
    )
    rules_of = {e.division_id: e.season.ruleset.rules for e in entries}
    played_in = SeasonEntry.objects.filter(team=team).values("division_id")
    tables = _rank(_entry_rows(SeasonEntry.objects.filter(division__in=played_in)), rules_of)
    history = []
    for entry in entries:
        lines = [line for line, _team in tables[entry.division_id]]
        line = next((x for x in lines if x.team == team.pk), None)
        history.append({"season": entry.season, "division": entry.division, "line": line, "size": len(lines)})
    return history
