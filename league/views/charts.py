"""The charts of the team, player, season and front pages: the rows that matches.charts and
league.seasons.race read, put on the geometry of league.lib.charts for the templates' SVG
(templates/league/_line_chart.html, _race_chart.html, _form_strip.html), each with its numbers as a table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from league import rules
from league.lib.charts import Band, Box, LineChart, RaceChart, bands, line_chart, race_chart
from league.seasons.race import division_race
from league.seasons.selectors import DivisionTable, TeamName
from matches.charts import PlayerMatchRow, TeamMatch, TeamResult, last_results
from matches.models import PlayerMatch
from teams.models import PlayerSkill, StatChange

LINE_BOX = Box(width=360, height=110)


@dataclass(frozen=True)
class Series:
    """One value of a team over its matches, drawn as a line."""

    key: str  # "team_rating", "treasury", "fan_factor": the CSS class of its line
    title: str
    chart: LineChart
    bands: list[Band]

    @property
    def label(self) -> str:
        return _("%(value)s after each match; the numbers are in the table below.") % {"value": self.title}


@dataclass(frozen=True)
class TeamCharts:
    matches: list[TeamMatch]
    form: list[TeamResult]
    series: list[Series]
    treasury_shown: bool


def team_charts(matches: Sequence[TeamMatch], *, private: bool) -> TeamCharts:
    """TR, treasury (members only, as the page's treasury) and fan factor after each match, the
    matches grouped by season, and the last five results."""
    seasons = [m.result.season for m in matches]
    wanted = [("team_rating", _("Team rating"), False), ("fan_factor", _("Fan factor"), True)]
    if private:
        wanted.insert(1, ("treasury", _("Treasury"), True))
    series = []
    for key, title, from_zero in wanted:
        values = [getattr(m, key) for m in matches]
        if all(v is None for v in values):
            continue  # no post-match sequence finished yet: nothing to draw
        chart = line_chart(values, LINE_BOX, from_zero=from_zero)
        series.append(Series(key, title, chart, bands(seasons, chart.xs, chart.box)))
    return TeamCharts(list(matches), last_results(matches), series, treasury_shown=private)


@dataclass(frozen=True)
class PlayerMatchPoint:
    row: PlayerMatchRow
    total: int  # his SPP from matches so far
    level_ups: list[str]  # what he took with the level-ups this match earned (R29)
    injury: str  # the injury he suffered, in words; "" for none
    x: float
    y: float


@dataclass(frozen=True)
class PlayerChart:
    points: list[PlayerMatchPoint]
    chart: LineChart
    bands: list[Band]


# What a level-up chose, by its origin: a skill by a development roll or a mutation, a stat by a roll (R29).
LEVEL_UP_SKILLS = (PlayerSkill.Origin.DEVELOPMENT, PlayerSkill.Origin.MUTATION)


def level_ups(gained: Sequence[dict[str, Any]], changes: Sequence[dict[str, Any]]) -> dict[int, list[str]]:
    """Each match's level-ups, by the skills and stats the player took with them (teams.selectors'
    `gained_and_changes`, which the page reads already)."""
    found: dict[int, list[str]] = {}
    for g in gained:
        if g["origin"] in LEVEL_UP_SKILLS and g["match_id"]:
            found.setdefault(g["match_id"], []).append(g["skill__name"])
    for c in changes:
        if c["reason"] == StatChange.Reason.DEVELOPMENT and c["match_id"]:
            found.setdefault(c["match_id"], []).append(f"{c['change']:+d} {c['stat']}")
    return found


def player_chart(
    rows: Sequence[PlayerMatchRow], gained: Sequence[dict[str, Any]], changes: Sequence[dict[str, Any]]
) -> PlayerChart | None:
    """His SPP from matches summed match by match, each level-up and injury on the line where it came."""
    if not rows:
        return None
    totals, total = [], 0
    for row in rows:
        total += row.spp
        totals.append(total)
    chart = line_chart(totals, LINE_BOX, from_zero=True)
    ups = level_ups(gained, changes)
    injuries = dict(PlayerMatch.Injury.choices)
    points = [
        PlayerMatchPoint(
            row=row,
            total=n,
            level_ups=ups.get(row.match_id, []),
            injury=str(injuries[row.injury]) if row.injury else "",
            x=point.x,
            y=point.y,
        )
        for row, n, point in zip(rows, totals, chart.points, strict=True)
    ]
    return PlayerChart(points, chart, bands([row.season for row in rows], chart.xs, chart.box))


@dataclass(frozen=True)
class RacePage:
    chart: RaceChart
    positions: list[tuple[str, int, list[int]]]  # each team's name, pk and positions, for the table


def season_races(tables: Sequence[DivisionTable], fixtures: dict[int, list[dict]], r: rules.Ruleset) -> None:
    """Each division's table race on its table (`table.race`, None before a match is played), as the
    season page shows it under the table."""
    for table in tables:
        race = division_race(table, fixtures, r)
        if race is None:
            table.race = None
            continue
        chart = race_chart(race.rounds, [(team.name, positions) for team, positions in race.teams])
        table.race = RacePage(chart, [(team.name, team.pk, positions) for team, positions in race.teams])


def form_guide(
    tables: Sequence[DivisionTable], form: dict[int, list[TeamResult]]
) -> list[tuple[str, list[tuple[TeamName, list[TeamResult]]]]]:
    """The front page's form guide: each shown division's teams in their table's order, each with its
    last results (matches.charts.recent_form)."""
    return [(table.division.name, [(team, form.get(team.pk, [])) for _line, team in table.ranked]) for table in tables]
