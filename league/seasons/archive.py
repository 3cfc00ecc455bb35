"""The archive: what each ended season's end gave (champions, the cup's winner, prizes, promotion and
relegation, R32 and R34), read from the `SeasonEnd` rows the season end keeps, never worked out again.

The season end (league.seasons.services.season_end) keeps its trophies as [team, what for]: each
division's winner by the division's name, in the divisions' order, then the cup's winner by the cup's
name when the season has a cup (a season does not end before its final is played); its prizes as
[team, amount, reason].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from league.accounts import coach_name
from league.models import Season, SeasonEnd, SeasonEntry
from league.rules.messages import from_json


@dataclass
class SeasonHonours:
    season_id: int
    name: str
    champions: list[dict] = field(default_factory=list)  # {"division", "team"}
    cup: dict | None = None  # {"name", "team"}
    prizes: list[dict] = field(default_factory=list)  # {"team", "amount", "reason"}
    promoted: list[dict] = field(default_factory=list)
    relegated: list[dict] = field(default_factory=list)

    @property
    def titles(self) -> list[dict]:
        """Its titles, each {"season", "kind" ("division"/"cup"), "competition", "team"}."""
        won = [{"kind": "division", "competition": c["division"], "team": c["team"]} for c in self.champions]
        if self.cup:
            won.append({"kind": "cup", "competition": self.cup["name"], "team": self.cup["team"]})
        return [{"season": self.name, "season_id": self.season_id, **t} for t in won]


@dataclass
class Honours:
    seasons: list[SeasonHonours]

    @property
    def titles(self) -> list[dict]:
        return [t for s in self.seasons for t in s.titles]

    @property
    def prizes(self) -> list[dict]:
        return [{"season": s.name, "season_id": s.season_id, **p} for s in self.seasons for p in s.prizes]


def season_honours(ends: QuerySet[SeasonEnd], *, coach_id: int | None = None, private: bool = False) -> Honours:
    """The seasons' ends, oldest first, each team named with the coach who had it that season (`coach_name`:
    by his team to a visitor); with `coach_id`, only what that coach's teams won. Two queries."""
    ends = ends.order_by("season__created_at", "season_id")
    rows = list(ends.values("season_id", "season__name", "season__cup__name", "summary"))
    wanted = {pk for row in rows for pk in _teams_of(row["summary"])}
    entries = SeasonEntry.objects.filter(season_id__in=[row["season_id"] for row in rows], team_id__in=wanted)
    if coach_id is not None:
        entries = entries.filter(coach_id=coach_id)
    teams: dict[int, dict[int, dict]] = {}  # by season, by team
    for e in entries.values(
        "season_id", "team_id", "team__name", "coach_id", "coach__first_name", "coach__last_name", "coach__username"
    ):
        full_name = f"{e['coach__first_name']} {e['coach__last_name']}"
        name = coach_name(full_name, e["coach__username"], [e["team__name"]], private=private)
        teams.setdefault(e["season_id"], {})[e["team_id"]] = {
            "pk": e["team_id"],
            "name": e["team__name"],
            "coach_id": e["coach_id"],
            "coach": name,
        }
    return Honours([_season(row, teams.get(row["season_id"], {})) for row in rows])


def _teams_of(summary: dict[str, Any]) -> set[int]:
    return (
        {t for t, *_rest in summary.get("trophies", [])}
        | {t for t, *_rest in summary.get("prizes", [])}
        | set(summary.get("promoted", []))
        | set(summary.get("relegated", []))
    )


def _season(row: dict[str, Any], teams: dict[int, dict]) -> SeasonHonours:
    summary = row["summary"]
    honours = SeasonHonours(row["season_id"], row["season__name"])
    trophies = [tuple(t) for t in summary.get("trophies", [])]
    cup = row["season__cup__name"]
    divisions = trophies[:-1] if cup is not None and trophies and trophies[-1][1] == cup else trophies
    for n, (pk, won) in enumerate(trophies):
        if pk not in teams:
            continue
        if n < len(divisions):
            honours.champions.append({"division": won, "team": teams[pk]})
        else:
            honours.cup = {"name": won, "team": teams[pk]}
    honours.prizes = [
        {"team": teams[pk], "amount": amount, "reason": from_json(reason)}
        for pk, amount, reason in summary.get("prizes", [])
        if pk in teams
    ]
    honours.promoted = [teams[pk] for pk in summary.get("promoted", []) if pk in teams]
    honours.relegated = [teams[pk] for pk in summary.get("relegated", []) if pk in teams]
    return honours


def season_archive(season: Season, *, private: bool) -> SeasonHonours | None:
    """An ended season's end (None for a season that has not ended): two queries."""
    if season.status != Season.Status.FINISHED:
        return None
    seasons = season_honours(SeasonEnd.objects.filter(season=season), private=private).seasons
    return seasons[0] if seasons else None
