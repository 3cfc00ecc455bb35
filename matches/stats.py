"""Kept statistics: the division tables' lines and the players' season and career counters.

Every change of a result calls `count_match(match, sign=±1)` in the transaction that changes it
(a confirmed report, a recorded result or forfeit, a void, a reopen) and `count_mvp` when the
post-match gives the MVP; `rebuild()` recomputes every row from the matches with the same functions,
so the two cannot drift apart (tests/league/test_stats.py proves rebuild = incremental).

What counts (R28, R31, R34, R35): a confirmed match. A league match gives each team a line in its
division (points from the season's ruleset, head-to-head points for R31's first tie-breaker); a cup
match a cup line, the tiebreak winner of a drawn cup match counting as its winner (R34). A player's
match counts when he played (squad) or has a line in the report; his deeds and MVPs are his report
line's, plus the Inspiration MVP (R23). A forfeit gives no one SPP or a match played (R35).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from django.db import connection
from django.db.models import OuterRef, Subquery

from league import rules
from league.lib.writes import league_write
from league.models import STAT_FIELDS_PLAYER, STAT_FIELDS_TEAM, PlayerStats, Season, TeamSeasonStats
from league.rules.records import LINE_COUNTERS, record_counts, record_spp
from matches.models import HandicapDraw, Match, PlayerMatch, SquadEntry

LEAGUE, CUP = "league", "cup"
# A report line as the kept counters read it: whose, and its counters (R28).
LINE_FIELDS = ("player_id", "team_id", *LINE_COUNTERS)


@dataclass(frozen=True)
class MatchRow:
    """The few fields of a confirmed match that the team lines count."""

    season_id: int
    division_id: int | None
    home_id: int
    away_id: int
    home_score: int
    away_score: int
    home_casualties: int
    away_casualties: int
    tiebreak_winner_id: int | None


MATCH_ROW_FIELDS = tuple(MatchRow.__dataclass_fields__)


def team_deltas(m: MatchRow, r: rules.Ruleset) -> list[tuple[tuple[int, int, str], dict[str, Any]]]:
    """Both teams' changes from one confirmed match, keyed (season, team, competition)."""
    competition = LEAGUE if m.division_id else CUP
    out = []
    for team, opponent, scored, conceded, cas_for, cas_against in (
        (m.home_id, m.away_id, m.home_score, m.away_score, m.home_casualties, m.away_casualties),
        (m.away_id, m.home_id, m.away_score, m.home_score, m.away_casualties, m.home_casualties),
    ):
        tiebreak_won = m.tiebreak_winner_id == team if competition == CUP and m.tiebreak_winner_id else None
        outcome = rules.season.side_outcome(scored, conceded, tiebreak_won=tiebreak_won)  # R34
        points = r.outcome_points(scored, conceded) if competition == LEAGUE else 0
        delta = {
            "played": 1,
            "won": int(outcome == "win"),
            "drawn": int(outcome == "draw"),
            "lost": int(outcome == "loss"),
            "points": points,
            "touchdowns_for": scored,
            "touchdowns_against": conceded,
            "casualties_for": cas_for,
            "casualties_against": cas_against,
            "division_id": m.division_id,
            "head_to_head": {str(opponent): points} if competition == LEAGUE else {},
        }
        out.append(((m.season_id, team, competition), delta))
    return out


def _add_team(row: Any, delta: dict[str, Any], sign: int) -> None:
    for name in STAT_FIELDS_TEAM:
        setattr(row, name, getattr(row, name) + sign * delta[name])
    h2h = dict(row.head_to_head)
    for opponent, points in delta["head_to_head"].items():
        h2h[opponent] = h2h.get(opponent, 0) + sign * points
    row.head_to_head = h2h
    if delta["division_id"]:
        row.division_id = delta["division_id"]


def player_deltas(match_id: int, season_id: int, r: rules.Ruleset) -> dict[tuple[int, int], dict[str, int]]:
    """Each player's changes from one confirmed match, keyed (player, team); three queries."""
    out: dict[tuple[int, int], dict[str, int]] = {}

    def row(player_id: int, team_id: int) -> dict[str, int]:
        return out.setdefault((player_id, team_id), dict.fromkeys(STAT_FIELDS_PLAYER, 0))

    for player_id, team_id in SquadEntry.objects.filter(
        match_id=match_id, status=SquadEntry.Status.PLAYING
    ).values_list("player_id", "team_id"):
        row(player_id, team_id)
    for line in PlayerMatch.objects.filter(match_id=match_id).values_list(*LINE_FIELDS, named=True):
        _add_line(row(line.player_id, line.team_id), line)
    for player_id, team_id in HandicapDraw.objects.filter(
        match_id=match_id, key="inspiration", player__isnull=False
    ).values_list("player_id", "team_id"):
        row(player_id, team_id)["mvps"] += 1  # the Inspiration MVP (R23)
    for d in out.values():
        d["matches"] = 1
        d["spp"] = _spp(d, r)
    return out


def _add_line(d: dict[str, int], line: Any) -> None:
    """A report line's counters onto a player's kept ones, as his record counts them (R28)."""
    for name, count in record_counts(line).items():
        d[name] += count


def _spp(d: dict[str, int], r: rules.Ruleset) -> int:
    return record_spp(r, SimpleNamespace(**d))


# --- incremental ----------------------------------------------------------------------------------


def count_match(match: Any, *, sign: int) -> None:
    """Add (sign 1) or take back (sign -1) a confirmed match's effects on the kept rows. Called in the
    transaction of the confirmation, result, forfeit, void or reopen, with the match row locked and,
    when counted, its confirmation time set."""
    if sign > 0 and match.confirmed_at is None:
        raise ValueError("A match is counted once it is confirmed: set its confirmed_at first.")
    PlayerMatch.objects.filter(match_id=match.pk).update(confirmed_at=match.confirmed_at if sign > 0 else None)
    if not (match.home_id and match.away_id) or match.home_score is None or match.away_score is None:
        return
    r = match.season.ruleset.rules
    m = MatchRow(*(getattr(match, f) for f in MATCH_ROW_FIELDS))
    _apply_team_deltas(team_deltas(m, r), sign)
    if not match.forfeited_by_id:  # R35: a forfeit earns no SPP and no one played
        _apply_player_deltas(match.season_id, player_deltas(match.pk, match.season_id, r), sign)


def count_mvp(match: Any, *, player_id: int, team_id: int) -> None:
    """The post-match MVP (R27) given after confirmation: one more MVP and its SPP."""
    r = match.season.ruleset.rules
    d = dict.fromkeys(STAT_FIELDS_PLAYER, 0)
    d["mvps"] = 1
    d["spp"] = _spp(d, r)
    _apply_player_deltas(match.season_id, {(player_id, team_id): d}, 1)


def _apply_team_deltas(deltas: list[tuple[tuple[int, int, str], dict[str, Any]]], sign: int) -> None:
    TeamSeasonStats.objects.bulk_create(
        [TeamSeasonStats(season_id=s, team_id=t, competition=c) for (s, t, c), _d in deltas], ignore_conflicts=True
    )
    q = None
    for (s, t, c), _d in deltas:
        one = TeamSeasonStats.objects.filter(season_id=s, team_id=t, competition=c)
        q = one if q is None else q | one
    rows = {(x.season_id, x.team_id, x.competition): x for x in q.select_for_update().order_by("pk")}
    for key, delta in deltas:
        _add_team(rows[key], delta, sign)
    TeamSeasonStats.objects.bulk_update(list(rows.values()), [*STAT_FIELDS_TEAM, "head_to_head", "division"])


def _apply_player_deltas(season_id: int, deltas: dict[tuple[int, int], dict[str, int]], sign: int) -> None:
    """Two upserts (the season rows, the career rows), each adding the deltas in one statement; rows
    are written in player order, so two confirmations never deadlock on them."""
    if not deltas:
        return
    table = connection.ops.quote_name(PlayerStats._meta.db_table)
    names = list(STAT_FIELDS_PLAYER)
    columns = ", ".join(names)
    updates = ", ".join(f"{n} = {table}.{n} + excluded.{n}" for n in names)
    rows = sorted(deltas.items())
    for season, target in ((season_id, "(player_id, season_id)"), (None, "(player_id) WHERE season_id IS NULL")):
        values = ", ".join(["(%s, %s, %s, " + ", ".join(["%s"] * len(names)) + ")"] * len(rows))
        params: list[Any] = []
        for (player_id, team_id), d in rows:
            params += [player_id, team_id, season, *(sign * d[n] for n in names)]
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (player_id, team_id, season_id, {columns}) VALUES {values} "
                f"ON CONFLICT {target} DO UPDATE SET {updates}",
                params,
            )


# --- rebuild --------------------------------------------------------------------------------------


def stamp_lines() -> None:
    """Every report line's confirmation time from its match: the match's while it is confirmed, else none."""
    confirmed = Match.objects.filter(pk=OuterRef("match_id"), status="confirmed").values("confirmed_at")
    PlayerMatch.objects.update(confirmed_at=Subquery(confirmed))


@league_write
def rebuild() -> dict[str, int]:
    """Recompute every kept row and the report lines' confirmation times from the confirmed matches
    (the command `rebuild_stats`). Reads the matches a season at a time."""
    stamp_lines()
    TeamSeasonStats.objects.all().delete()
    PlayerStats.objects.all().delete()
    careers: dict[int, dict[str, int]] = {}
    career_team: dict[int, int] = {}
    team_rows = player_rows = 0
    for season in Season.objects.select_related("ruleset").order_by("pk"):
        r = rules.Ruleset.from_data(season.ruleset.data)
        confirmed = Match.objects.filter(season=season, status="confirmed").exclude(home_score=None)
        kept: dict[tuple[int, int, str], Any] = {}
        for values in confirmed.values_list(*MATCH_ROW_FIELDS).iterator(chunk_size=5000):
            for key, delta in team_deltas(MatchRow(*values), r):
                if key not in kept:
                    kept[key] = TeamSeasonStats(season_id=key[0], team_id=key[1], competition=key[2])
                _add_team(kept[key], delta, 1)
        TeamSeasonStats.objects.bulk_create(kept.values(), batch_size=2000)
        team_rows += len(kept)
        played = confirmed.filter(forfeited_by=None)
        per: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: dict.fromkeys(STAT_FIELDS_PLAYER, 0))
        seen: dict[tuple[int, int], set[int]] = defaultdict(set)
        squads = SquadEntry.objects.filter(match__in=played, status="playing")
        for player_id, team_id, match_id in squads.values_list("player_id", "team_id", "match_id").iterator(5000):
            seen[(player_id, team_id)].add(match_id)
        lines = PlayerMatch.objects.filter(match__in=played).values_list("match_id", *LINE_FIELDS, named=True)
        for line in lines.iterator(5000):
            seen[(line.player_id, line.team_id)].add(line.match_id)
            _add_line(per[(line.player_id, line.team_id)], line)
        inspired = HandicapDraw.objects.filter(match__in=played, key="inspiration", player__isnull=False)
        for player_id, team_id in inspired.values_list("player_id", "team_id").iterator(5000):
            per[(player_id, team_id)]["mvps"] += 1
        objs = []
        for key in seen.keys() | per.keys():
            d = per[key]
            d["matches"] = len(seen[key])
            d["spp"] = _spp(d, r)
            objs.append(PlayerStats(player_id=key[0], team_id=key[1], season_id=season.pk, **d))
            career = careers.setdefault(key[0], dict.fromkeys(STAT_FIELDS_PLAYER, 0))
            for name in STAT_FIELDS_PLAYER:
                career[name] += d[name]
            career_team[key[0]] = key[1]
        PlayerStats.objects.bulk_create(objs, batch_size=5000)
        player_rows += len(objs)
    PlayerStats.objects.bulk_create(
        (PlayerStats(player_id=pk, team_id=career_team[pk], season_id=None, **d) for pk, d in careers.items()),
        batch_size=5000,
    )
    return {"team_rows": team_rows, "player_rows": player_rows + len(careers)}
