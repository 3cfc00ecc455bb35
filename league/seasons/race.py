"""A division's table race: each team's position after each round, from the fixtures the season
page reads already (`season_board(rounds=True)`), ranked by the rules (R31). No query of its own."""

from __future__ import annotations

from dataclasses import dataclass

from league import rules
from league.seasons.selectors import DivisionTable, TeamName
from matches.models import Match


@dataclass(frozen=True)
class TableRace:
    rounds: list[int]
    teams: list[tuple[TeamName, list[int]]]  # in the table's order now, each position after each round


def division_race(table: DivisionTable, fixtures: dict[int, list[dict]], r: rules.Ruleset) -> TableRace | None:
    """The race from round 1 to the last round with a confirmed result; none before a match is played.
    `fixtures`: the season's league matches by round (SeasonBoard.rounds). The last round is the table as
    it stands, kept by matches.stats with the tiebreak games the board recorded (R31)."""
    confirmed = [
        m
        for ms in fixtures.values()
        for m in ms
        if m["division_id"] == table.division.pk and m["status"] == Match.Status.CONFIRMED
    ]
    if not confirmed:
        return None
    rounds = list(range(1, max(m["round"] for m in confirmed) + 1))
    by_round: dict[int, list[rules.Result]] = {n: [] for n in rounds}
    for m in confirmed:
        by_round[m["round"]].append(
            rules.Result(
                m["home_id"], m["away_id"], m["home_score"], m["away_score"], m["home_casualties"], m["away_casualties"]
            )
        )
    teams = [team for _line, team in table.ranked]
    race = r.table_race([t.pk for t in teams], [by_round[n] for n in rounds])
    race[-1] = {line.team: line.position for line in table.lines}
    return TableRace(rounds, [(team, [after[team.pk] for after in race]) for team in teams])
