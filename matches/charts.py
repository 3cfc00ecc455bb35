"""What the charts draw, read from the kept rows: a team's matches with its TR, treasury and
fan factor after each, teams' last results (the form strip), and a player's SPP match by match.

Each read is one query, or two, whatever the league's size: a team's or a player's own rows, and for the
front page's teams their last few matches each. A voided match is no confirmed match: it leaves them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from django.db.models import Exists, F, FilteredRelation, IntegerField, OuterRef, Q, QuerySet, Subquery, Value, Window
from django.db.models.functions import RowNumber

from league import rules
from league.models import Ruleset, round_name
from league.rules.records import LINE_COUNTERS, record_spp
from matches.models import HandicapDraw, Match, PlayerMatch, SquadEntry, winner_of
from teams.models import Team, TreasuryEntry

FORM_LENGTH = 5  # the form strip's results (the last five)
WIN, DRAW, LOSS = "win", "draw", "loss"


@dataclass(frozen=True)
class TeamResult:
    """One of a team's confirmed matches as the form strip and the charts' tables show it."""

    match_id: int
    season: str
    round_name: str
    opponent: str
    home: bool
    scored: int
    conceded: int
    outcome: str  # WIN, DRAW or LOSS; a drawn cup match goes to its tiebreak winner (R34)
    walkover: bool  # a forfeit (R35), read as W.O. (R46)


@dataclass(frozen=True)
class TeamMatch:
    """A confirmed match of the team and where it stood once its post-match sequence ended (None where
    the sequence is not finished)."""

    result: TeamResult
    season_id: int
    team_rating: int | None
    treasury: int | None
    fan_factor: int | None


RESULT_FIELDS = (
    "id",
    "status",
    "home_id",
    "away_id",
    "home_score",
    "away_score",
    "tiebreak_winner_id",
    "forfeited_by_id",
    "round",
    "cup_id",
    "season_id",
    "season__name",
    "home__name",
    "away__name",
    "cup__draw",
)


def team_result(m: dict[str, Any], team_id: int) -> TeamResult:
    """A match read with RESULT_FIELDS, as the team `team_id` played it."""
    home = m["home_id"] == team_id
    winner = winner_of(m)
    draw = m["cup__draw"]
    return TeamResult(
        match_id=m["id"],
        season=m["season__name"],
        round_name=round_name(m["round"], cup_teams=len(draw) if m["cup_id"] and draw else None),
        opponent=m["away__name"] if home else m["home__name"],
        home=home,
        scored=m["home_score"] if home else m["away_score"],
        conceded=m["away_score"] if home else m["home_score"],
        outcome=DRAW if winner is None else WIN if winner == team_id else LOSS,
        walkover=m["forfeited_by_id"] is not None,
    )


def team_matches(team_id: int) -> list[TeamMatch]:
    """Every confirmed match of the team, the first confirmed first, with what its post-match sequence
    left: the new TR it recorded (PostMatch.team_rating), the ledger's balance and the fan factor saved
    by the time it ended (the team's history keeps each save). One query."""
    ended = FilteredRelation(
        "postmatches", condition=Q(postmatches__team_id=team_id, postmatches__completed_at__isnull=False)
    )
    by_then = OuterRef("ended_at")
    balance = TreasuryEntry.objects.filter(team_id=team_id, created_at__lte=by_then).order_by("-seq")
    fan_factor = Team.history.filter(id=team_id, history_date__lte=by_then).order_by("-history_date", "-history_id")
    rows = (
        Match.objects.for_team(team_id)
        .confirmed()
        .annotate(ended=ended)
        .annotate(ended_at=F("ended__completed_at"), team_rating=F("ended__team_rating"))
        .annotate(
            treasury=Subquery(balance.values("balance")[:1]),
            fan_factor=Subquery(fan_factor.values("fan_factor")[:1]),
        )
        .order_by(F("confirmed_at").asc(nulls_first=True), "id")
        .values(*RESULT_FIELDS, "team_rating", "ended_at", "treasury", "fan_factor")
    )
    return [
        TeamMatch(
            result=team_result(m, team_id),
            season_id=m["season_id"],
            team_rating=m["team_rating"],
            treasury=m["treasury"] if m["ended_at"] else None,
            fan_factor=m["fan_factor"] if m["ended_at"] else None,
        )
        for m in rows
    ]


def last_results(matches: Sequence[TeamMatch], n: int = FORM_LENGTH) -> list[TeamResult]:
    """The team's last `n` results, oldest first, from its matches in order."""
    return [m.result for m in matches[-n:]] if n else []


def recent_form(team_ids: Iterable[int], n: int = FORM_LENGTH) -> dict[int, list[TeamResult]]:
    """Each team's last `n` confirmed matches, oldest first: the front page's form guide. Two queries
    (the teams' home matches, their away matches), each the last `n` of each team at most, so the read
    stays this small however many seasons the league has played."""
    ids = list(team_ids)
    found: dict[int, list[tuple[Any, int, dict[str, Any]]]] = {pk: [] for pk in ids}
    newest_first = [F("confirmed_at").desc(nulls_last=True), F("id").desc()]
    for side in ("home_id", "away_id"):
        rows = (
            Match.objects.confirmed()
            .filter(**{f"{side}__in": ids})
            .annotate(nth=Window(RowNumber(), partition_by=F(side), order_by=newest_first))
            .filter(nth__lte=n)
            .values(*RESULT_FIELDS, "confirmed_at")
        )
        for m in rows:
            found[m[side]].append((m["confirmed_at"], m["id"], m))
    form = {}
    for pk, rows in found.items():
        latest = sorted(rows, key=lambda r: (r[0] is not None, r[0] or datetime.min, r[1]))[-n:]
        form[pk] = [team_result(m, pk) for _at, _id, m in latest]
    return form


# --- a player's SPP match by match ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerMatchRow:
    """A match the player played (his squad's or a report line), as his kept counters count it (R28)."""

    match_id: int
    season: str
    home: str
    away: str
    home_score: int
    away_score: int
    spp: int  # earned in this match, under its season's ruleset, the Inspiration MVP too (R23)
    injury: str  # PlayerMatch.Injury's value, "" for none


def player_matches(player_id: int, known: Ruleset | None = None) -> list[PlayerMatchRow]:
    """Every confirmed match the player played, first confirmed first, with the SPP it earned him as the
    kept counters count them (matches.stats: his line's deeds, his MVPs, an Inspiration MVP; a forfeit
    counts nothing, R35). One query for his lines and his squads together; the rulesets of his seasons
    are `known`'s (his team's, already read) or one more read."""
    counted = Q(match__status=Match.Status.CONFIRMED, match__forfeited_by__isnull=True)
    lines = PlayerMatch.objects.filter(counted, player=player_id)
    squads = SquadEntry.objects.filter(counted, player=player_id, status=SquadEntry.Status.PLAYING)
    # Both sides of the union select the same named values in the same order: a line's counters and
    # injury, a squad's nothing.
    zero = Value(0, output_field=IntegerField())
    union = _played_values(squads, False, {c: zero for c in LINE_COUNTERS}, Value("")).union(
        _played_values(lines, True, {c: F(c) for c in LINE_COUNTERS}, F("injury")), all=True
    )
    rows: dict[int, SimpleNamespace] = {}
    for values in union:
        row = SimpleNamespace(**dict(zip(PLAYED, values, strict=True)))
        if row.match_id not in rows or row.from_line:
            rows[row.match_id] = row  # his line, where he has one, over his squad's entry
    rulesets = {known.pk: known} if known is not None else {}
    wanted = {row.ruleset_id for row in rows.values()} - set(rulesets)
    if wanted:  # the tables are read only where the parsed ruleset is not kept (Ruleset.rules)
        rulesets |= Ruleset.objects.defer("data").in_bulk(wanted)
    ordered = sorted(rows.values(), key=lambda r: (r.confirmed_at, r.match_id))
    return [_played(row, rulesets[row.ruleset_id].rules, bool(row.inspired)) for row in ordered]


# What `player_matches` reads of each match he played, in the union's order.
PLAYED = (
    "match_id",
    "from_line",
    "confirmed_at",
    "season_name",
    "ruleset_id",
    "home",
    "away",
    "home_score",
    "away_score",
    "inspired",
    *LINE_COUNTERS,
    "injury",
)


def _played_values(rows: QuerySet, from_line: bool, counters: dict[str, Any], injury: Any) -> QuerySet:
    named = {
        "p_match_id": F("match_id"),
        "p_from_line": Value(from_line),
        "p_confirmed_at": F("match__confirmed_at"),
        "p_season_name": F("match__season__name"),
        "p_ruleset_id": F("match__season__ruleset_id"),
        "p_home": F("match__home__name"),
        "p_away": F("match__away__name"),
        "p_home_score": F("match__home_score"),
        "p_away_score": F("match__away_score"),
        "p_inspired": Exists(
            HandicapDraw.objects.filter(match=OuterRef("match_id"), key="inspiration", player=OuterRef("player_id"))
        ),
        **{f"p_{c}": value for c, value in counters.items()},
        "p_injury": injury,
    }
    # no ORDER BY inside a UNION's parts (the models' default ordering): SQLite refuses one
    return rows.order_by().annotate(**named).values_list(*named)


def _played(row: SimpleNamespace, r: rules.Ruleset, inspired: bool) -> PlayerMatchRow:
    counts = SimpleNamespace(**{c: getattr(row, c) for c in LINE_COUNTERS})
    counts.mvps += int(inspired)  # the Inspiration MVP (R23), as matches.stats counts it
    return PlayerMatchRow(
        match_id=row.match_id,
        season=row.season_name,
        home=row.home,
        away=row.away,
        home_score=row.home_score,
        away_score=row.away_score,
        spp=record_spp(r, counts),
        injury=row.injury,
    )
