"""The season's pure logic: the double round robin, the cup bracket and the standings (R31, R34).

No Django: teams are any hashable keys (ids), results are plain tuples.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from league.rules.explained import MatchResult

Team = Hashable


@dataclass(frozen=True)
class Fixture:
    round: int
    home: Team
    away: Team


def double_round_robin(teams: Sequence[Team]) -> list[Fixture]:
    """Every pair meets twice, once at each home (R31).

    The first half is de Werra's canonical round robin, which alternates home and away with the
    fewest breaks; an odd count gets a bye each round. The second half plays the first half's rounds
    2, 3, …, 1 with home and away swapped, so no team has three home or three away games in a row
    and each half splits every team's games evenly.
    """
    teams = list(teams)
    if len(set(teams)) != len(teams):
        raise ValueError("a team is listed twice")
    if len(teams) < 2:
        return []
    slots: list[Team | None] = teams + ([None] if len(teams) % 2 else [])
    n = len(slots)
    first_half: list[tuple[int, Team | None, Team | None]] = []
    for k in range(1, n):
        # the last slot meets slot k; the others pair up around k on a circle of n - 1
        first_half.append((k, slots[n - 1], slots[k - 1]) if k % 2 == 0 else (k, slots[k - 1], slots[n - 1]))
        for i in range(1, n // 2):
            x, y = slots[(k + i - 1) % (n - 1)], slots[(k - i - 1) % (n - 1)]
            first_half.append((k, x, y) if i % 2 == 1 else (k, y, x))
    played = [(r, h, a) for r, h, a in first_half if h is not None and a is not None]
    rounds = n - 1
    second_order = [*range(2, rounds + 1), 1]
    fixtures = [Fixture(r, h, a) for r, h, a in played]
    for new_round, old_round in enumerate(second_order, start=rounds + 1):
        fixtures += [Fixture(new_round, a, h) for r, h, a in played if r == old_round]
    return fixtures


def cup_first_round(order: Sequence[Team]) -> list[tuple[Team, Team | None]]:
    """Pairs for the first cup round from the drawn order; byes (None) go to the first drawn teams,
    enough that the next round is a power of two."""
    teams = list(order)
    if len(teams) < 2:
        raise ValueError("a cup needs at least two teams")
    size = 1
    while size < len(teams):
        size *= 2
    byes = size - len(teams)
    pairs: list[tuple[Team, Team | None]] = [(t, None) for t in teams[:byes]]
    rest = teams[byes:]
    pairs += [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    return pairs


def cup_rounds(team_count: int) -> int:
    rounds, size = 0, 1
    while size < team_count:
        size *= 2
        rounds += 1
    return rounds


@dataclass
class Line:
    """A team's line in a division table."""

    team: Team
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    touchdowns_for: int = 0
    touchdowns_against: int = 0
    casualties_for: int = 0
    casualties_against: int = 0
    points: int = 0
    position: int = 0
    tied: bool = False  # a tie the rules cannot split (R31)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def touchdown_difference(self) -> int:
        return self.touchdowns_for - self.touchdowns_against

    def as_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "tied": self.tied,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "touchdowns_for": self.touchdowns_for,
            "touchdowns_against": self.touchdowns_against,
            "touchdown_difference": self.touchdown_difference,
            "casualties_for": self.casualties_for,
            "casualties_against": self.casualties_against,
            "points": self.points,
        }


@dataclass(frozen=True)
class Result:
    """A confirmed match: scores and casualties caused by each side."""

    home: Team
    away: Team
    home_score: int
    away_score: int
    home_casualties: int = 0
    away_casualties: int = 0


def standings(
    teams: Iterable[Team],
    results: Iterable[Result],
    *,
    points: Mapping[str, int],
    tiebreakers: Sequence[str],
    tiebreak_winners: Sequence[Team] = (),
) -> list[Line]:
    """The division table from confirmed results, ordered by the tie-breakers of R31.

    Teams the rules cannot split share a position and are marked `tied`.
    """
    lines = {t: Line(t) for t in teams}
    h2h: dict[tuple[Team, Team], int] = {}
    for r in results:
        if r.home not in lines or r.away not in lines:
            continue
        home, away = lines[r.home], lines[r.away]
        for line, scored, conceded, cas_for, cas_against in (
            (home, r.home_score, r.away_score, r.home_casualties, r.away_casualties),
            (away, r.away_score, r.home_score, r.away_casualties, r.home_casualties),
        ):
            line.played += 1
            line.touchdowns_for += scored
            line.touchdowns_against += conceded
            line.casualties_for += cas_for
            line.casualties_against += cas_against
            outcome = "win" if scored > conceded else "loss" if scored < conceded else "draw"
            line.won += outcome == "win"
            line.drawn += outcome == "draw"
            line.lost += outcome == "loss"
            line.points += points[outcome]
        h2h[(r.home, r.away)] = h2h.get((r.home, r.away), 0) + points[_outcome(r.home_score, r.away_score)]
        h2h[(r.away, r.home)] = h2h.get((r.away, r.home), 0) + points[_outcome(r.away_score, r.home_score)]
    return rank_lines(
        list(lines.values()), tiebreakers=tiebreakers, head_to_head=h2h, tiebreak_winners=tiebreak_winners
    )


def rank_lines(
    lines: list[Line],
    *,
    tiebreakers: Sequence[str],
    head_to_head: Mapping[tuple[Team, Team], int],
    tiebreak_winners: Sequence[Team] = (),
) -> list[Line]:
    """Order lines already counted (kept rows, or `standings` above) by the tie-breakers of R31 and
    number their positions; teams the rules cannot split share a position and are marked `tied`."""
    groups = order_lines(lines, tiebreakers, head_to_head, tiebreak_winners)
    ordered: list[Line] = []
    for group in groups:
        position = len(ordered) + 1
        for line in sorted(group, key=lambda x: str(x.extra.get("name", x.team))):
            line.position = position
            line.tied = len(group) > 1
            ordered.append(line)
    return ordered


def outcome(scored: int, conceded: int) -> str:
    """ "win", "draw" or "loss" for one side of a result."""
    return "win" if scored > conceded else "loss" if scored < conceded else "draw"


def side_outcome(scored: int, conceded: int, *, tiebreak_won: bool | None = None) -> str:
    """One side's outcome of a match: `outcome`, except that a drawn cup match goes to the team that won
    its tiebreak (R34; `tiebreak_won` None where there is none: a league match may end drawn, R31)."""
    result = outcome(scored, conceded)
    if result == "draw" and tiebreak_won is not None:
        return "win" if tiebreak_won else "loss"
    return result


_outcome = outcome


def order_lines(
    lines: list[Any],
    tiebreakers: Sequence[str],
    head_to_head_points: Mapping[tuple[Any, Any], int],
    tiebreak_winners: Sequence[Any] = (),
) -> list[list[Any]]:
    """Split lines into ranked groups by each tie-breaker in turn (R31). Head-to-head counts only
    the games among the teams still tied; the tiebreak game counts recorded wins."""

    def split(group: list[Any], criteria: Sequence[str]) -> list[list[Any]]:
        if len(group) <= 1 or not criteria:
            return [group]
        first, rest = criteria[0], criteria[1:]
        if first == "head_to_head_points":
            teams = [x.team for x in group]
            key = {x.team: sum(head_to_head_points.get((x.team, o), 0) for o in teams if o != x.team) for x in group}
        elif first == "tiebreak_game":
            key = {x.team: list(tiebreak_winners).count(x.team) for x in group}
        else:
            key = {x.team: getattr(x, first) for x in group}
        out: list[list[Any]] = []
        for value in sorted({key[x.team] for x in group}, reverse=True):
            out.extend(split([x for x in group if key[x.team] == value], rest))
        return out

    return split(lines, tiebreakers)


# --- the season section of Ruleset (R31-R35) -----------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """A team's line in a division table, the input of `order_standings`."""

    team: Any
    points: int
    touchdowns_for: int
    touchdowns_against: int
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def touchdown_difference(self) -> int:
        return self.touchdowns_for - self.touchdowns_against


class SeasonRules:
    """Mixed into Ruleset: points, prizes and the order of a division's table."""

    settings: Any

    def points(self, result: MatchResult) -> int:
        return self.settings.points[result]

    def prizes(self, division: int | str) -> tuple[int, ...]:
        return self.settings.prizes.get(str(division), ())

    def order_standings(
        self,
        rows: Sequence[StandingRow],
        head_to_head_points: Mapping[tuple[Any, Any], int] | None = None,
        tiebreak_winners: Sequence[Any] = (),
    ) -> list[list[StandingRow]]:
        """Rank a division by the tie-breakers of R31. Returns groups: a group of more than one
        is a tie the rules cannot split (until the board records the tiebreak game's winner)."""
        return order_lines(list(rows), self.settings.tiebreakers, head_to_head_points or {}, tiebreak_winners)

    def standings(
        self, teams: Iterable[Any], results: Iterable[Result], tiebreak_winners: Sequence[Any] = ()
    ) -> list[Line]:
        """A division's table from confirmed results, points and tie-breakers from this ruleset (R31)."""
        return standings(
            teams,
            results,
            points=self.settings.points,
            tiebreakers=self.settings.tiebreakers,
            tiebreak_winners=tiebreak_winners,
        )

    def table_race(self, teams: Sequence[Any], rounds: Sequence[Iterable[Result]]) -> list[dict[Any, int]]:
        """Each team's position after each round in turn (R31): the table of that round's results and
        every earlier round's. Teams the rules cannot split share a position, as in the table; the
        tiebreak game, played once the season is over, splits only the table as it ends."""
        played: list[Result] = []
        race = []
        for results in rounds:
            played.extend(results)
            race.append({line.team: line.position for line in self.standings(teams, played)})
        return race

    def rank_lines(
        self,
        lines: list[Line],
        head_to_head: Mapping[tuple[Any, Any], int],
        tiebreak_winners: Sequence[Any] = (),
    ) -> list[Line]:
        """Kept table lines ordered by this ruleset's tie-breakers (R31), as `standings` orders them."""
        return rank_lines(
            lines, tiebreakers=self.settings.tiebreakers, head_to_head=head_to_head, tiebreak_winners=tiebreak_winners
        )

    def outcome_points(self, scored: int, conceded: int) -> int:
        """Points for one side of a league result (R31: win 3, draw 1, loss 0 by default)."""
        return self.settings.points[outcome(scored, conceded)]


# --- the season end: places that decide, promotion and relegation (R31, R32) ----------------------


def decisive_places(
    team_count: int, *, prizes: int, promotion_count: int, division_above: bool, division_below: bool
) -> set[int]:
    """The places where a tie the rules cannot split must be settled before the season ends: the
    title, every prize, the promotion places (with a division above) and the relegation places
    (with a division below) (R31, R32)."""
    places = set(range(1, prizes + 1)) | {1}
    if division_above:
        places |= set(range(1, promotion_count + 1))
    if division_below:
        places |= set(range(team_count - promotion_count + 1, team_count + 1))
    return places


@dataclass(frozen=True)
class Movement:
    """Who goes up, who goes down, and each division's teams for the next season (by level, 1 the top)."""

    promoted: tuple[Team, ...]
    relegated: tuple[Team, ...]
    divisions: dict[int, list[Team]]


def promotion_and_relegation(final_order: Mapping[int, Sequence[Team]], promotion_count: int) -> Movement:
    """The top `promotion_count` of each division go up one level and the bottom as many of the one
    above come down (R32). `final_order`: each level's teams in their final places."""
    divisions = {level: list(final_order[level]) for level in sorted(final_order)}
    promoted: list[Team] = []
    relegated: list[Team] = []
    for upper, lower in pairwise(sorted(divisions)):
        up = divisions[lower][:promotion_count]
        down = divisions[upper][-promotion_count:] if promotion_count else []
        promoted += up
        relegated += down
        divisions[upper] = [t for t in divisions[upper] if t not in down] + up
        divisions[lower] = down + [t for t in divisions[lower] if t not in up]
    return Movement(tuple(promoted), tuple(relegated), divisions)
