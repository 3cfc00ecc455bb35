"""Reads for the league board: tables, results, fixtures, cup and memorial (the leaders: league.leaders).

Every page here uses a fixed number of queries whatever the number of matches: the season's
matches are read once as plain rows and the tables are computed by league.rules.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F

from league import rules
from league.db.union import labelled_union
from league.models import (
    STAT_FIELDS_TEAM,
    Cup,
    Division,
    Season,
    SeasonEntry,
    TeamSeasonStats,
    TiebreakGame,
)
from matches.models import Match
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
    "confirmed_at",
    "neutral",
)
FRONT_PAGE_CUP_SLOTS = 16


def current_season() -> Season | None:
    """The running season, else the newest one."""
    return (
        Season.objects.select_related("ruleset", "cup")
        .filter(status=Season.Status.RUNNING)
        .order_by("-created_at")
        .first()
        or Season.objects.select_related("ruleset", "cup").order_by("-created_at").first()
    )


def division_lines(division: Division) -> list[rules.Line]:
    """One division's table (R31), from its kept lines (league.stats) and recorded tiebreak games."""
    teams = list(division.entries.values_list("team_id", flat=True))
    kept = TeamSeasonStats.objects.filter(division=division, competition=TeamSeasonStats.Competition.LEAGUE)
    winners = list(division.tiebreaks.values_list("winner_id", flat=True))
    return ranked_lines(division.season.ruleset.rules, teams, list(kept.values(*KEPT_LINE_FIELDS)), winners)


KEPT_LINE_FIELDS = ("division_id", "team_id", *STAT_FIELDS_TEAM, "head_to_head")


def ranked_lines(r: rules.Ruleset, teams: list[int], kept: list[dict], winners: list[int]) -> list[rules.Line]:
    """The division's lines from its kept rows (a team without one has played nothing yet), ordered
    by R31's tie-breakers exactly as `rules.standings` orders lines counted from the results."""
    by_team = {row["team_id"]: row for row in kept}
    lines, h2h = [], {}
    for team in teams:
        row = by_team.get(team)
        lines.append(rules.Line(team, **{f: row[f] for f in STAT_FIELDS_TEAM} if row else {}))
        for opponent, points in (row["head_to_head"] if row else {}).items():
            h2h[(team, int(opponent))] = points
    return r.rank_lines(lines, h2h, winners)


@dataclass
class DivisionTable:
    division: Division
    lines: list[rules.Line]
    teams: dict[int, Team]

    def rows(self) -> list[tuple[dict[str, Any], Team]]:
        """Each line as a dict, with its team: the template engine finds a dict's keys at once, and
        an object's attributes only after a failed key lookup (a big league's standings read
        thousands)."""
        return [(line.as_dict(), self.teams[line.team]) for line in self.lines]


@dataclass
class SeasonBoard:
    season: Season | None
    tables: list[DivisionTable] = field(default_factory=list)
    latest: list[dict] = field(default_factory=list)
    upcoming: list[dict] = field(default_factory=list)
    cup: Cup | None = None
    bracket: list[list[dict]] = field(default_factory=list)
    teams: dict[int, Team] = field(default_factory=dict)
    rounds: dict[int, list[dict]] = field(default_factory=dict)
    bracket_offset: int = 0


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
    # The front page (`tables`) reads only the shown divisions' teams, the others as its lists name
    # them. One filter() call, so that both conditions and the division are about the same entry.
    in_shown_divisions = {"season_entries__division__in": divisions} if tables else {}
    entrants = Team.objects.named().filter(season_entries__season=season, **in_shown_divisions)
    entrants = list(entrants.annotate(division_id=F("season_entries__division_id")))
    teams = {t.pk: t for t in entrants}
    board.teams = teams
    by_division: dict[int, list[dict]] = defaultdict(list)
    for row in TeamSeasonStats.objects.filter(
        season=season, division__in=divisions, competition=TeamSeasonStats.Competition.LEAGUE
    ).values(*KEPT_LINE_FIELDS):
        by_division[row["division_id"]].append(row)
    winners: dict[int, list[int]] = defaultdict(list)
    for division_id, winner_id in TiebreakGame.objects.filter(division__season=season).values_list(
        "division_id", "winner_id"
    ):
        winners[division_id].append(winner_id)
    r = season.ruleset.rules
    for d in divisions:
        division_teams = [t.pk for t in entrants if t.division_id == d.pk]
        board.tables.append(DivisionTable(d, ranked_lines(r, division_teams, by_division[d.pk], winners[d.pk]), teams))
    # the latest results, the next fixtures and the cup in one query (league.db.union)
    reads = {}
    if latest:
        confirmed = Match.objects.filter(season=season).confirmed()
        reads["latest"] = confirmed.order_by("-confirmed_at", "-id")[:latest]
    if upcoming:
        scheduled = Match.objects.filter(
            season=season, status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
        )
        reads["upcoming"] = scheduled.order_by("round", "date", "id")[:upcoming]
    try:
        board.cup = season.cup  # read with the season where the caller selected it
    except Cup.DoesNotExist:
        board.cup = None
    if board.cup and bracket != "none":
        reads["cup"] = board.cup.matches.order_by("round", "cup_slot")
    found = labelled_union({label: read.values_list(*MATCH_FIELDS) for label, read in reads.items()})
    board.latest, board.upcoming = _rows(found.get("latest", [])), _rows(found.get("upcoming", []))
    if "cup" in found:
        cup_matches = _rows(found["cup"])
        cup_matches.sort(key=lambda m: (m["round"], m["cup_slot"] is None, m["cup_slot"] or 0))
        total = rules.cup_rounds(len(board.cup.draw))
        board.bracket = [[m for m in cup_matches if m["round"] == n] for n in range(1, total + 1)]
        if bracket == "current":
            open_rounds = [i for i, rnd in enumerate(board.bracket) if any(m["status"] == "scheduled" for m in rnd)]
            first = open_rounds[0] if open_rounds else len(board.bracket) - 1
            board.bracket = [rnd[:FRONT_PAGE_CUP_SLOTS] for rnd in board.bracket[max(0, first - 1) :]]
            board.bracket_offset = max(0, first - 1)
    if rounds:
        fixtures = Match.objects.filter(season=season, division__isnull=False).order_by("round", "id")
        for m in _rows(fixtures.values_list(*MATCH_FIELDS)):
            board.rounds.setdefault(m["round"], []).append(m)
    listed = [*board.latest, *board.upcoming, *(m for rnd in board.rounds.values() for m in rnd)]
    listed += [m for rnd in board.bracket for m in rnd]
    _attach_teams(listed, teams)
    return board


def _rows(rows: Iterable[tuple]) -> list[dict]:
    """Match rows as the lists and the bracket show them: dicts of MATCH_FIELDS."""
    return [dict(zip(MATCH_FIELDS, row, strict=True)) for row in rows]


def _attach_teams(rows: list[dict], teams: dict[int, Team]) -> None:
    """Each match row's home and away team, reading in one query those the tables did not."""
    missing = {m[side] for m in rows for side in ("home_id", "away_id")} - teams.keys() - {None}
    if missing:
        teams.update(Team.objects.named().in_bulk(missing))
    for m in rows:
        m["home"] = teams.get(m["home_id"])
        m["away"] = teams.get(m["away_id"])


def memorial(limit: int = 20) -> list[Player]:
    return list(
        Player.objects.filter(status=Player.Status.DEAD).select_related("team", "position").order_by("-left_at")[:limit]
    )


def team_history(team: Team) -> list[dict[str, Any]]:
    """The team's seasons: division, final place, and its record (one query per season played)."""
    rows = []
    for entry in SeasonEntry.objects.filter(team=team).select_related("season__ruleset", "division"):
        lines = division_lines(entry.division)
        line = next((x for x in lines if x.team == team.pk), None)
        rows.append({"season": entry.season, "division": entry.division, "line": line, "size": len(lines)})
    return rows
