"""The leaders' reads: the leaders page (players and teams, all-time or one season, by
race, paged) and the front page's leaders box.

Each reads the kept rows of matches.stats: a few queries whatever the number of matches behind them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet, Sum
from django.utils.translation import gettext_lazy as _

from league.models import STAT_FIELDS_PLAYER, PlayerStats, Season, SeasonEnd, TeamSeasonStats
from league.seasons.reads import any_of
from teams.models import Player, Race

PAGE_SIZE = 25
PLAYER_STATS = {
    "spp": _("SPP"),
    "touchdowns": _("Touchdowns"),
    "casualties": _("Casualties"),
    "completions": _("Completions"),
    "interceptions": _("Interceptions"),
    "mvps": _("MVPs"),
    "matches": _("Matches"),
}
# the front page's categories (roster_leaders)
ROSTER_LEADER_STATS = ("touchdowns", "casualties", "completions", "interceptions", "spp")
TEAM_STATS = {
    "win_percent": _("Win %"),
    "touchdown_difference": _("Touchdown difference"),
    "casualty_difference": _("Casualty difference"),
    "titles": _("Titles"),
}


@dataclass(frozen=True)
class Filters:
    season: Season | None
    race: Race | None
    stat: str
    kind: str  # "players" or "teams"


def player_leaders(f: Filters, page: Any) -> Page:
    """Season rows, or career rows (no season), ordered by the counter, most first; two queries."""
    return Paginator(player_leader_rows(f), PAGE_SIZE).get_page(page)


def player_leader_rows(f: Filters) -> QuerySet[PlayerStats]:
    """Every player of the leaders page in its order, unpaged (the page's CSV file reads them all)."""
    rows = PlayerStats.objects.filter(season=f.season, **{f"{f.stat}__gt": 0})
    if f.race:
        rows = rows.filter(team__race=f.race)
    rows = rows.select_related("player", "team").only(*STAT_FIELDS_PLAYER, "player__name", "team__name")
    return rows.order_by(f"-{f.stat}", "player_id")


@dataclass
class TeamLine:
    team_id: int
    name: str
    played: int
    won: int
    drawn: int
    lost: int
    touchdowns_for: int
    touchdowns_against: int
    casualties_for: int
    casualties_against: int
    titles: int
    race_name: str = ""

    @property
    def win_percent(self) -> float:
        return 100 * self.won / self.played if self.played else 0.0

    @property
    def touchdown_difference(self) -> int:
        return self.touchdowns_for - self.touchdowns_against

    @property
    def casualty_difference(self) -> int:
        return self.casualties_for - self.casualties_against


def titles(season: Season | None) -> Counter:
    """Division and cup titles by team, from the committed season ends (R32: each winner's trophy)."""
    ends = SeasonEnd.objects.all() if season is None else SeasonEnd.objects.filter(season=season)
    count: Counter = Counter()
    for summary in ends.values_list("summary", flat=True):
        for team_id, _reason in summary.get("trophies", []):
            count[team_id] += 1
    return count


def team_leaders(f: Filters, page: Any) -> Page:
    """League and cup records summed over the season (or all seasons), ranked: two queries."""
    return Paginator(team_leader_lines(f), PAGE_SIZE).get_page(page)


def team_leader_lines(f: Filters) -> list[TeamLine]:
    """Every team of the leaders page in its order, unpaged, named as the page names them (the team's
    and its race's names, read with the sums). Teams are few (hundreds), so they are ranked here, by
    name where even: two queries."""
    rows = TeamSeasonStats.objects.all() if f.season is None else TeamSeasonStats.objects.filter(season=f.season)
    if f.race:
        rows = rows.filter(team__race=f.race)
    sums = ("played", "won", "drawn", "lost", "touchdowns_for", "touchdowns_against")
    sums += ("casualties_for", "casualties_against")
    named = ("team_id", "team__name", "team__race__name")
    totals = rows.values(*named).annotate(**{n: Sum(n) for n in sums}).filter(played__gt=0)
    won = titles(f.season)
    lines = [
        TeamLine(
            t["team_id"],
            t["team__name"],
            titles=won[t["team_id"]],
            race_name=t["team__race__name"],
            **{n: t[n] for n in sums},
        )
        for t in totals
    ]
    lines.sort(key=lambda x: (-getattr(x, f.stat), -x.played, x.name))
    return lines


class LeaderName(NamedTuple):
    """A player as the front page's leaders name him."""

    pk: int
    name: str
    team_name: str


def roster_leaders(*, top: int = 5) -> dict[str, list[tuple[LeaderName, int]]]:
    """The front page's career leaders among players on a roster, from the same kept career rows as
    the leaders page, in one query: the careers among the best of any category (each category's best
    read along its index), with their players' names and status; each category ranked here."""
    fetch = top * 2  # more than shown: some of the best may have died or retired
    careers = PlayerStats.objects.filter(season=None)
    best_of = [
        careers.filter(**{f"{stat}__gt": 0}).order_by(f"-{stat}", "player_id").values("pk")[:fetch]
        for stat in ROSTER_LEADER_STATS
    ]
    named = ("player_id", "player__name", "player__team__name", "player__status")
    candidates = list(PlayerStats.objects.filter(any_of(best_of)).values(*named, *ROSTER_LEADER_STATS))
    board: dict[str, list[tuple[LeaderName, int]]] = {}
    for stat in ROSTER_LEADER_STATS:
        # the category's best `fetch` in its index's order (as read alone), then those on a roster
        best = sorted((r for r in candidates if r[stat] > 0), key=lambda r, stat=stat: (-r[stat], r["player_id"]))
        best = best[:fetch]
        on_roster = [r for r in best if r["player__status"] == Player.Status.ACTIVE][:top]
        board[stat] = [
            (LeaderName(r["player_id"], r["player__name"], r["player__team__name"]), r[stat]) for r in on_roster
        ]
        if len(on_roster) < top and len(best) == fetch:
            # more of this category are on the list than were read: read on, with the roster filter
            picks = (
                careers.filter(player__status=Player.Status.ACTIVE, **{f"{stat}__gt": 0})
                .order_by(f"-{stat}", "player_id")
                .values_list("player_id", "player__name", "player__team__name", stat)[:top]
            )
            board[stat] = [(LeaderName(pk, name, team), value) for pk, name, team, value in picks]
    return board
