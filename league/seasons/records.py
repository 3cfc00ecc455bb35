"""The records page's reads ("Rekorder"): the league's records for one season or all time, each held by
the match, the team's season or the player that set it, from the confirmed matches and the kept statistics
(matches.stats).

What is read where a void or a correction changes it at once: the matches confirmed (a void or a reopened
report is no longer confirmed), the report lines' confirmation time (kept by matches.stats with the match)
and the kept season and career rows. A walkover's awarded 2–0 (R35) is no match played: it sets no match
record and no upset, and gives no player a deed; the tables count it, so a team's season totals (the
table lines') do too, and it is a win or a loss in an unbeaten run.

Ties: the earliest holder keeps the record (the match confirmed first, the earliest season, the player
or team that came first into the league), as a record is set by whoever reached it first.

Six queries whatever the league's size: one read finds each model's record holders (`any_of`: the best of
each record in one query), the season totals are two grouped reads, and the unbeaten runs read one short
row per confirmed match (a few integers), walked here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, F, Q, QuerySet, Sum, When
from django.db.models.functions import Abs, Greatest
from django.utils.translation import gettext_lazy as _

from league.models import PlayerStats, Season, TeamSeasonStats
from league.seasons.reads import any_of
from matches.models import Match, PlayerMatch

# What each record is, in the order the page shows them, by part: the matches, the seasons, the careers.
MATCH_RECORDS = {
    "biggest_win": _("Biggest win"),
    "team_match_touchdowns": _("Most touchdowns in one match, team"),
    "player_match_touchdowns": _("Most touchdowns in one match, player"),
    "team_match_casualties": _("Most casualties in one match, team"),
    "player_match_casualties": _("Most casualties in one match, player"),
    "upset": _("Biggest upset"),
}
SEASON_RECORDS = {
    "team_season_touchdowns": _("Most touchdowns in one season, team"),
    "player_season_touchdowns": _("Most touchdowns in one season, player"),
    "team_season_casualties": _("Most casualties in one season, team"),
    "player_season_casualties": _("Most casualties in one season, player"),
    "unbeaten_run": _("Longest unbeaten run"),
}
CAREER_RECORDS = {
    "deadliest": _("Deadliest player"),
    "longest_career": _("Longest career"),
}

# A team's casualties in a match are those it caused (R38: blocks, fouls and crowd pushes, as the report
# counts them); a player's are his record's (R28: by block, the crowd pushes of his blocks included), as
# the leaders page counts them. The deadliest player caused the most, his fouls' too: the kept statistics
# count no kills.
BLOCK_CASUALTIES = F("casualties") + F("crowd_casualties")  # league.rules.records.block_casualties, in SQL
CAUSED = F("casualties") + F("foul_casualties")  # a kept row's block casualties already hold the crowd's

# R34: a drawn cup match's tiebreak winner won it, as Match.winner_id says, in SQL for the upset and the runs
HOME_WON = Q(home_score__gt=F("away_score")) | Q(home_score=F("away_score"), tiebreak_winner=F("home"))
AWAY_WON = Q(away_score__gt=F("home_score")) | Q(home_score=F("away_score"), tiebreak_winner=F("away"))
# a confirmed match's winner, as Match.winner_id says it, read with the unbeaten runs' rows: a Match built
# for each of tens of thousands of rows was most of the page's time
WINNER = Case(When(HOME_WON, then=F("home_id")), When(AWAY_WON, then=F("away_id")))
MATCH_VALUES = {
    "biggest_win": Abs(F("home_score") - F("away_score")),
    "team_match_touchdowns": Greatest("home_score", "away_score"),
    "team_match_casualties": Greatest("home_casualties", "away_casualties"),
    # the lower-rated team won: by how much the teams' ratings for the match differed (the pre-match's TR, R1)
    "upset": Case(
        When(HOME_WON, then=F("prematch__away_rating") - F("prematch__home_rating")),
        When(AWAY_WON, then=F("prematch__home_rating") - F("prematch__away_rating")),
    ),
}
MATCH_FIELDS = ("pk", "season__name", "home_id", "home__name", "away_id", "away__name", "home_score", "away_score")
MATCH_FIELDS += ("home_casualties", "away_casualties", "forfeited_by_id", "confirmed_at")
MATCH_FIELDS += ("prematch__home_rating", "prematch__away_rating")
LINE_FIELDS = ("pk", "player_id", "player__name", "team_id", "team__name", "confirmed_at", "match_id")
LINE_FIELDS += tuple(f"match__{f}" for f in MATCH_FIELDS[1:8])


@dataclass(frozen=True)
class Named:
    """A team, a player or a season as a record links to it."""

    pk: int
    name: str


@dataclass(frozen=True)
class MatchRef:
    """The match a record was set in, as the page names it: its teams and score."""

    pk: int
    season: str
    home: Named
    away: Named
    home_score: int
    away_score: int


@dataclass(frozen=True)
class Record:
    key: str
    value: int
    team: Named | None = None
    player: Named | None = None
    match: MatchRef | None = None
    season: Named | None = None
    # an unbeaten run: its last match, and whether a loss has ended it yet
    until: MatchRef | None = None
    unbeaten_still: bool = False
    # an upset: the winner's and the loser's ratings for the match
    ratings: tuple[int, int] | None = None


@dataclass(frozen=True)
class Part:
    """A part of the page: its heading and its records, each with its label and its holder, or none yet."""

    title: str
    records: list[tuple[str, str, Record | None]]


PARTS = ((_("Matches"), MATCH_RECORDS), (_("Seasons"), SEASON_RECORDS), (_("Careers"), CAREER_RECORDS))


def records_book(season: Season | None) -> list[Part]:
    """Every record of `season`, or of all time (None), by part."""
    run = longest_unbeaten_run(_team_results(season))
    refs, found = _match_records(season, run)
    found |= _line_records(season) | _kept_player_records(season) | _team_season_records(season)
    if run is not None:
        found["unbeaten_run"] = run.record(refs)
    return [Part(str(title), [(key, label(key, season), found.get(key)) for key in labels]) for title, labels in PARTS]


def label(key: str, season: Season | None) -> str:
    if key == "longest_career" and season is not None:
        return str(_("Most matches played in the season"))
    for labels in (MATCH_RECORDS, SEASON_RECORDS, CAREER_RECORDS):
        if key in labels:
            return str(labels[key])
    raise KeyError(key)


# --- the matches ----------------------------------------------------------------------------------


def _played(season: Season | None) -> QuerySet[Match]:
    """The confirmed matches that were played: a walkover's awarded score sets no record (R35)."""
    played = Match.objects.filter(status=Match.Status.CONFIRMED, forfeited_by=None)
    return played if season is None else played.filter(season=season)


def _match_ref(row: dict[str, Any], prefix: str = "") -> MatchRef:
    def v(name: str) -> Any:
        return row[f"{prefix}{name}"]

    return MatchRef(
        pk=row["match_id"] if prefix else row["pk"],
        season=v("season__name"),
        home=Named(v("home_id"), v("home__name")),
        away=Named(v("away_id"), v("away__name")),
        home_score=v("home_score"),
        away_score=v("away_score"),
    )


def _match_records(season: Season | None, run: Run | None) -> tuple[dict[int, MatchRef], dict[str, Record]]:
    """The records a match holds, and the matches read (the unbeaten run's first and last among them): one
    query."""
    played = _played(season)
    reads = [
        played.alias(v=value).filter(v__gt=0).order_by("-v", "confirmed_at", "pk").values("pk")[:1]
        for value in MATCH_VALUES.values()
    ]
    if run is not None:
        reads.append(Match.objects.filter(pk__in=[run.first, run.last]).values("pk"))
    # unordered: the models' default orders join tables the few rows do not need, and made PostgreSQL scan
    # every line to find two (the holders are picked here)
    found_rows = Match.objects.filter(any_of(reads)).annotate(**MATCH_VALUES).order_by()
    rows = list(found_rows.values(*MATCH_FIELDS, *MATCH_VALUES))
    found = {}
    for key in MATCH_VALUES:
        # the run's matches were read too: a walkover among them holds no match record (R35)
        holders = [r for r in rows if r[key] is not None and r[key] > 0 and r["forfeited_by_id"] is None]
        if holders:
            best = min(holders, key=lambda r, key=key: (-r[key], r["confirmed_at"], r["pk"]))
            found[key] = _match_record(key, best)
    return {row["pk"]: _match_ref(row) for row in rows}, found


def _match_record(key: str, row: dict[str, Any]) -> Record:
    match = _match_ref(row)
    value = row[key]
    if key == "biggest_win":
        team = match.home if row["home_score"] > row["away_score"] else match.away
    elif key == "team_match_touchdowns":
        team = match.home if row["home_score"] == value else match.away
    elif key == "team_match_casualties":
        team = match.home if row["home_casualties"] == value else match.away
    else:  # the upset: the lower-rated team won
        home, away = row["prematch__home_rating"], row["prematch__away_rating"]
        team = match.home if home < away else match.away
        ratings = (home, away) if home < away else (away, home)
        return Record(key, value, team=team, match=match, ratings=ratings)
    return Record(key, value, team=team, match=match)


def _line_records(season: Season | None) -> dict[str, Record]:
    """A player's most touchdowns and casualties in one match, from the confirmed reports' lines: one query."""
    # a forfeit is recorded on a match never reported (R35): it has no lines to leave out
    lines = PlayerMatch.objects.filter(confirmed_at__isnull=False)
    if season is not None:
        lines = lines.filter(match__season=season)
    values = {"player_match_touchdowns": F("touchdowns"), "player_match_casualties": BLOCK_CASUALTIES}
    # All time, the best line is the first along its index (playermatch_record_*). A season's lines are
    # ordered by their match's confirmation (the same time, kept with it): read through the season's
    # matches, not along the index, which walked most of the league's lines before it met the season's.
    first = "confirmed_at" if season is None else "match__confirmed_at"
    reads = [
        lines.alias(v=value).filter(v__gt=0).order_by("-v", first, "pk").values("pk")[:1] for value in values.values()
    ]
    rows = list(PlayerMatch.objects.filter(any_of(reads)).annotate(**values).order_by().values(*LINE_FIELDS, *values))
    found = {}
    for key in values:
        holders = [r for r in rows if r[key] > 0]
        if holders:
            best = min(holders, key=lambda r, key=key: (-r[key], r["confirmed_at"], r["pk"]))
            found[key] = Record(
                key,
                best[key],
                player=Named(best["player_id"], best["player__name"]),
                team=Named(best["team_id"], best["team__name"]),
                match=_match_ref(best, prefix="match__"),
            )
    return found


# --- the seasons and the careers ------------------------------------------------------------------


def _kept_player_records(season: Season | None) -> dict[str, Record]:
    """From the kept season rows (a season's, or every season's) and career rows (all time; in a season,
    its rows again): one query."""
    kept = PlayerStats.objects
    seasons = kept.filter(season__isnull=False) if season is None else kept.filter(season=season)
    careers = PlayerStats.objects.filter(season=None) if season is None else seasons
    reads = {
        "player_season_touchdowns": (seasons, F("touchdowns")),
        "player_season_casualties": (seasons, F("casualties")),
        "deadliest": (careers, CAUSED),
        "longest_career": (careers, F("matches")),
    }
    order = ("-v", "season_id", "player_id")
    found_by = [rows.alias(v=value).filter(v__gt=0).order_by(*order).values("pk")[:1] for rows, value in reads.values()]
    fields = ("pk", "player_id", "player__name", "team_id", "team__name", "season_id", "season__name")
    values = {key: value for key, (_rows, value) in reads.items()}
    rows = list(PlayerStats.objects.filter(any_of(found_by)).annotate(**values).order_by().values(*fields, *values))
    found = {}
    for key in reads:
        career = key in CAREER_RECORDS and season is None
        in_family = [r for r in rows if r[key] > 0 and (r["season_id"] is None) == career]
        if not in_family:
            continue
        best = min(in_family, key=lambda r, key=key: (-r[key], r["season_id"] or 0, r["player_id"]))
        found[key] = Record(
            key,
            best[key],
            player=Named(best["player_id"], best["player__name"]),
            team=Named(best["team_id"], best["team__name"]),
            season=Named(best["season_id"], best["season__name"]) if best["season_id"] else None,
        )
    return found


def _team_season_records(season: Season | None) -> dict[str, Record]:
    """A team's most touchdowns and casualties in one season: its league and cup lines summed, two queries."""
    lines = TeamSeasonStats.objects.all() if season is None else TeamSeasonStats.objects.filter(season=season)
    found = {}
    for key, field in (("team_season_touchdowns", "touchdowns_for"), ("team_season_casualties", "casualties_for")):
        best = (
            lines.values("season_id", "season__name", "team_id", "team__name")
            .annotate(v=Sum(field))
            .filter(v__gt=0)
            .order_by("-v", "season_id", "team_id")
            .first()
        )
        if best is not None:
            found[key] = Record(
                key,
                best["v"],
                team=Named(best["team_id"], best["team__name"]),
                season=Named(best["season_id"], best["season__name"]),
            )
    return found


# --- the unbeaten run -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A team's matches in a row without a loss: how many, the first and last of them, and whether a loss
    has ended it yet."""

    team_id: int
    length: int
    first: int
    last: int
    ended: bool

    def record(self, refs: dict[int, MatchRef]) -> Record:
        start, end = refs[self.first], refs[self.last]
        team = start.home if start.home.pk == self.team_id else start.away
        return Record("unbeaten_run", self.length, team=team, match=start, until=end, unbeaten_still=not self.ended)


def _team_results(season: Season | None) -> list[tuple[int, int, int, int | None]]:
    """Every confirmed match, walkovers too (R35: a win and a loss), in the order they were confirmed, as
    (match, home, away, winner or None for a draw): one query of four integers a match."""
    confirmed = Match.objects.filter(status=Match.Status.CONFIRMED)
    if season is not None:
        confirmed = confirmed.filter(season=season)
    return list(confirmed.order_by("confirmed_at", "pk").values_list("pk", "home_id", "away_id", WINNER))


def longest_unbeaten_run(results: Iterable[tuple[int, int, int, int | None]]) -> Run | None:
    """The longest run of matches without a loss any team has had among `results` (match, home, away,
    winner: in the order played); of runs as long, the one that reached its length first (ties: the
    earliest holder)."""
    current: dict[int, list[int]] = {}  # a team's run now: its length, its first match, its last match
    best: Run | None = None
    for pk, home, away, winner in results:
        for team in (home, away):
            if winner is not None and winner != team:  # a loss ends the team's run
                if best is not None and best.team_id == team and best.last == current.get(team, [0, 0, 0])[2]:
                    best = Run(best.team_id, best.length, best.first, best.last, ended=True)
                current.pop(team, None)
                continue
            run = current.setdefault(team, [0, pk, pk])
            run[0] += 1
            run[2] = pk
            if best is None or run[0] > best.length:  # as long is not longer: the earlier run keeps it
                best = Run(team, run[0], run[1], run[2], ended=False)
    return best
