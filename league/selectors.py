"""Reads for the league board: tables, results, fixtures, cup, leaders and memorial.

Every page here uses a fixed number of queries whatever the number of matches: the season's
matches are read once as plain rows and the tables are computed by league.rules.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from league import rules
from league.models import STAT_FIELDS_TEAM, Cup, Division, Season, SeasonEntry, TeamSeasonStats, TiebreakGame
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
LEADER_STATS = ("touchdowns", "casualties", "completions", "interceptions", "spp")


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

    def rows(self) -> list[tuple[rules.Line, Team]]:
        return [(line, self.teams[line.team]) for line in self.lines]


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
    entries = list(SeasonEntry.objects.filter(season=season).select_related("team__race"))
    teams = {e.team_id: e.team for e in entries}
    board.teams = teams
    confirmed = Match.objects.filter(season=season).confirmed()
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
        division_teams = [e.team_id for e in entries if e.division_id == d.pk]
        board.tables.append(DivisionTable(d, ranked_lines(r, division_teams, by_division[d.pk], winners[d.pk]), teams))
    board.latest = _with_teams(confirmed.order_by("-confirmed_at", "-id")[:latest], teams)
    scheduled = Match.objects.filter(
        season=season, status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
    )
    board.upcoming = _with_teams(scheduled.order_by("round", "date", "id")[:upcoming], teams)
    if rounds:
        for m in _with_teams(
            Match.objects.filter(season=season, division__isnull=False).order_by("round", "id"), teams
        ):
            board.rounds.setdefault(m["round"], []).append(m)
    try:
        board.cup = season.cup  # read with the season where the caller selected it
    except Cup.DoesNotExist:
        board.cup = None
    if board.cup and bracket != "none":
        cup_matches = _with_teams(board.cup.matches.order_by("round", "cup_slot"), teams)
        total = rules.cup_rounds(len(board.cup.draw))
        board.bracket = [[m for m in cup_matches if m["round"] == n] for n in range(1, total + 1)]
        if bracket == "current":
            open_rounds = [i for i, rnd in enumerate(board.bracket) if any(m["status"] == "scheduled" for m in rnd)]
            first = open_rounds[0] if open_rounds else len(board.bracket) - 1
            board.bracket = [rnd[:FRONT_PAGE_CUP_SLOTS] for rnd in board.bracket[max(0, first - 1) :]]
            board.bracket_offset = max(0, first - 1)
    return board


def _with_teams(queryset, teams: dict[int, Team]) -> list[dict]:
    rows = list(queryset.values(*MATCH_FIELDS))
    for m in rows:
        m["home"] = teams.get(m["home_id"])
        m["away"] = teams.get(m["away_id"])
    return rows


def leaders(season: Season | None, *, top: int = 5) -> dict[str, list[tuple[Player, int]]]:
    """The career leaders among players on a roster: the numbers read as tuples, the top picked here,
    then only those players loaded (two queries whatever the size of the league)."""
    r = season.ruleset.rules if season else rules.default_ruleset()
    stats = Player.objects.filter(status=Player.Status.ACTIVE).values_list(
        "id", "name", "touchdowns", "casualties", "completions", "interceptions", "foul_casualties", "mvps"
    )
    rows = []
    for pk, name, td, cas, comp, ints, fouls, mvps in stats:
        spp = r.spp(completions=comp, touchdowns=td, interceptions=ints, casualties=cas, fouls=fouls, mvps=mvps)
        rows.append(
            (pk, name, {"touchdowns": td, "casualties": cas, "completions": comp, "interceptions": ints, "spp": spp})
        )
    chosen = {
        stat: [
            (pk, values[stat])
            for pk, _, values in heapq.nsmallest(
                top, (x for x in rows if x[2][stat] > 0), key=lambda x: (-x[2][stat], x[1])
            )
        ]
        for stat in LEADER_STATS
    }
    players = Player.objects.select_related("team").in_bulk({pk for picks in chosen.values() for pk, _ in picks})
    # (player, value) pairs: one player can lead in several categories with different numbers
    return {stat: [(players[pk], value) for pk, value in picks] for stat, picks in chosen.items()}


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
