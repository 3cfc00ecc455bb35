"""The board's writes for seasons: divisions, fixtures, the cup, tiebreaks and the season end."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league import rules
from league.lib.refusals import Refusal
from league.lib.writes import league_write
from league.models import Cup, Division, Ruleset, Season, SeasonEnd, SeasonEntry, TiebreakGame
from league.seasons.selectors import division_lines
from matches.cup import advance_cup
from matches.models import Match
from teams.ledger import lock_team, post_entry
from teams.models import Player, Stadium, Team, TreasuryEntry


class SeasonError(Refusal):
    pass


@dataclass(frozen=True)
class DivisionPlan:
    level: int
    name: str
    die: int
    teams: Sequence[Team]


def default_divisions(ruleset: Ruleset) -> list[tuple[int, str, int]]:
    """1st and 2nd division with the dice of R12 / R20 (D6, D5)."""
    dice = ruleset.rules.settings.division_dice
    return [(1, _("1st division"), dice.get("1", 6)), (2, _("2nd division"), dice.get("2", 5))]


@league_write
def create_season(
    *,
    name: str,
    ruleset: Ruleset,
    divisions: Sequence[DivisionPlan],
    first_with_stadium_rules: bool = False,
    previous: Season | None = None,
) -> Season:
    if not ruleset.is_published:
        raise SeasonError([_("A season is played under a published ruleset.")])
    if Season.objects.filter(name__iexact=name.strip()).exists():
        raise SeasonError([_("A season called %(name)s already exists.") % {"name": name}])
    seen: set[int] = set()
    for plan in divisions:
        for team in plan.teams:
            if team.pk in seen:
                raise SeasonError([_("%(team)s is in two divisions.") % {"team": team}])
            seen.add(team.pk)
    try:
        with transaction.atomic():
            season = Season.objects.create(
                name=name.strip(), ruleset=ruleset, first_with_stadium_rules=first_with_stadium_rules, previous=previous
            )
    except IntegrityError as exc:  # another board created it a moment ago
        raise SeasonError([_("A season called %(name)s already exists.") % {"name": name}]) from exc
    for plan in divisions:
        division = Division.objects.create(season=season, level=plan.level, name=plan.name, die=plan.die)
        SeasonEntry.objects.bulk_create(SeasonEntry(season=season, division=division, team=t) for t in plan.teams)
        start_stadiums(division, plan.teams)
    return season


def stadium_rules_in_force(season: Season) -> bool:
    """This season or one before it was the first with stadium rules."""
    while season is not None:
        if season.first_with_stadium_rules:
            return True
        season = season.previous
    return False


def start_stadiums(division: Division, teams: Sequence[Team]) -> None:
    """R16: when the stadium rules begin, teams in the 1st division start at 80,000 seats, the others
    at 60,000; a team founded later starts at the capacity of the division it enters. A stadium that is
    no longer at a start capacity (registered bigger, expanded, vandalised) is left as it is."""
    season = division.season
    if not stadium_rules_in_force(season):
        return
    r = season.ruleset.rules
    starts = {r.start_capacity(first_division=True), r.start_capacity(first_division=False)}
    capacity = r.start_capacity(first_division=division.level == 1)
    played_before = set(
        SeasonEntry.objects.filter(team__in=teams).exclude(season=season).values_list("team_id", flat=True)
    )
    for stadium in Stadium.objects.select_for_update().filter(team__in=teams).order_by("pk"):
        newcomer = stadium.team_id not in played_before
        at_start = stadium.capacity in starts and stadium.capacity != capacity
        if at_start and (season.first_with_stadium_rules or newcomer):
            stadium.capacity = capacity
            stadium._change_reason = "R16"
            stadium.save(update_fields=["capacity"])


def _refuse_if_prematch_walked(matches: QuerySet[Match], refusal: str) -> None:
    """Squads, dice, a handicap drawn or a pre-match step done are records: deleting the fixture would
    silently lose them (and a drawn handicap protects its dice), so the board is told which match."""
    walked = (
        matches.filter(
            Q(prematch__done__gt=0) | Q(squad__isnull=False) | Q(handicaps__isnull=False) | Q(dice__isnull=False)
        )
        .select_related("home", "away")
        .order_by("round", "pk")
        .first()
    )
    if walked is not None:
        raise SeasonError(
            [
                refusal,
                _("The pre-match sequence of %(match)s (round %(round)s) has begun: its squads or dice are recorded.")
                % {"match": walked, "round": walked.round},
            ]
        )


def running_elsewhere(season: Season, *, team_ids: Sequence[int] = ()) -> list[str]:
    """R43: one message for each other running season that the season's teams (and `team_ids`) play
    in, naming those teams; none when the season may start. Read by the season page too."""
    ids = set(team_ids) | set(SeasonEntry.objects.filter(season=season).values_list("team_id", flat=True))
    clashes = (
        SeasonEntry.objects.filter(team__in=ids, season__in=Season.objects.running().exclude(pk=season.pk))
        .select_related("team", "season")
        .order_by("season__created_at", "team__name")
    )
    names: dict[Season, list[str]] = {}
    for entry in clashes:
        names.setdefault(entry.season, []).append(entry.team.name)
    return [
        ngettext(
            "%(teams)s already plays in %(season)s, which has not ended: a team plays in one running season "
            "at a time (R43).",
            "%(teams)s already play in %(season)s, which has not ended: a team plays in one running season "
            "at a time (R43).",
            len(teams),
        )
        % {"teams": get_text_list(teams, _("and")), "season": other.name}
        for other, teams in names.items()
    ]


def refuse_teams_of_another_running_season(season: Season, refusal: str, *, team_ids: Sequence[int] = ()) -> None:
    """R43: a team plays in one running season at a time. Starting a season (its fixtures, a fixture,
    the cup's draw, the start), or bringing teams into one that has started, is refused while any of
    its teams (or `team_ids`) is in another season that has started and not ended. Preparing a season
    meanwhile is allowed.

    The teams' rows are locked first, in id order as the ledger locks them: two boards starting two
    seasons that share a team go one after the other, and the second reads after the first has
    committed its matches (PostgreSQL reads each statement afresh), so it is refused."""
    ids = set(team_ids) | set(SeasonEntry.objects.filter(season=season).values_list("team_id", flat=True))
    list(Team.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
    clashes = running_elsewhere(season, team_ids=team_ids)
    if clashes:
        raise SeasonError([refusal, *clashes])


def is_running(season: Season) -> bool:
    return Season.objects.running().filter(pk=season.pk).exists()


@league_write
def set_division_teams(division: Division, teams: Sequence[Team]) -> None:
    """Change who plays in a division, until its first match is played."""
    division = Division.objects.select_for_update().get(pk=division.pk)
    if is_running(division.season):  # R43: a started season takes no team of another running one
        refuse_teams_of_another_running_season(
            division.season, _("The teams of the division cannot change."), team_ids=[t.pk for t in teams]
        )
    if division.matches.filter(
        status__in=[Match.Status.CONFIRMED, Match.Status.REPORTED, Match.Status.DISPUTED]
    ).exists():
        raise SeasonError([_("The division has played matches: its teams can no longer change.")])
    _refuse_if_prematch_walked(
        division.matches.filter(status=Match.Status.SCHEDULED), _("The teams of the division cannot change.")
    )
    taken = SeasonEntry.objects.filter(season=division.season_id, team__in=teams).exclude(division=division)
    if taken.exists():
        raise SeasonError([_("%(team)s already plays in another division.") % {"team": taken.first().team}])
    division.entries.all().delete()
    SeasonEntry.objects.bulk_create(SeasonEntry(season=division.season, division=division, team=t) for t in teams)
    start_stadiums(division, teams)
    division.matches.filter(status=Match.Status.SCHEDULED).delete()


@league_write
def generate_fixtures(division: Division, *, start: date | None = None, days_between: int = 14) -> list[Match]:
    """A double round robin for the division (R31); allowed until its first match is played."""
    division = Division.objects.select_for_update().select_related("season").get(pk=division.pk)
    if division.matches.exclude(status=Match.Status.SCHEDULED).exists():
        raise SeasonError([_("Fixtures cannot be regenerated after the first match of the division is played.")])
    teams = {e.team_id: e.team for e in division.entries.select_related("team")}
    if len(teams) < 2:
        raise SeasonError([_("A division needs at least two teams.")])
    _refuse_if_prematch_walked(division.matches.all(), _("The fixtures cannot be regenerated."))
    refuse_teams_of_another_running_season(division.season, _("The fixtures cannot be generated."))
    division.matches.all().delete()
    fixtures = rules.double_round_robin(sorted(teams, key=lambda pk: teams[pk].name))
    matches = [
        Match(
            season=division.season,
            division=division,
            round=f.round,
            home_id=f.home,
            away_id=f.away,
            date=(start + timedelta(days=days_between * (f.round - 1))) if start else None,
        )
        for f in fixtures
    ]
    return Match.objects.bulk_create(matches)


@league_write
def add_fixture(division: Division, *, round: int, home: Team, away: Team, date: date | None = None) -> Match:
    entries = set(division.entries.values_list("team_id", flat=True))
    if home.pk == away.pk:
        raise SeasonError([_("A team cannot play itself.")])
    if home.pk not in entries or away.pk not in entries:
        raise SeasonError([_("Both teams must play in %(division)s.") % {"division": division.name}])
    refuse_teams_of_another_running_season(division.season, _("The fixture cannot be added."))
    return Match.objects.create(season=division.season, division=division, round=round, home=home, away=away, date=date)


@league_write
def move_fixture(match: Match, *, round: int, date: date | None) -> Match:
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.status != Match.Status.SCHEDULED:
        raise SeasonError([_("Only a match not yet played can be moved.")])
    match.round, match.date = round, date
    match.save(update_fields=["round", "date"])
    return match


@league_write
def start_season(season: Season) -> Season:
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.status != Season.Status.PLANNED:
        raise SeasonError([_("Only a planned season can start.")])
    if not Match.objects.filter(season=season, division__isnull=False).exists():
        raise SeasonError([_("Generate the fixtures first.")])
    refuse_teams_of_another_running_season(season, _("The season cannot start."))
    season.status = Season.Status.RUNNING
    season.started_at = timezone.now()
    season.save(update_fields=["status", "started_at"])
    return season


@league_write
def record_tiebreak(division: Division, *, winner: Team, loser: Team, by: Any) -> TiebreakGame:
    if winner.pk == loser.pk:
        raise SeasonError([_("A tiebreak game has two teams.")])
    teams = set(division.entries.values_list("team_id", flat=True))
    if not {winner.pk, loser.pk} <= teams:
        raise SeasonError([_("Both teams must play in %(division)s.") % {"division": division.name}])
    try:
        with transaction.atomic():
            return TiebreakGame.objects.create(division=division, winner=winner, loser=loser, recorded_by=by)
    except IntegrityError as exc:
        raise SeasonError([_("That tiebreak game is already recorded.")]) from exc


# --- the cup (R34) -------------------------------------------------------------------------------


@league_write
def draw_cup(
    season: Season, *, teams: Sequence[Team], name: str, prize: int, order: Sequence[int] | None = None, by: Any
) -> Cup:
    """Draw the cup at random (recorded) or in the order the board sets; byes for the first drawn.
    The cup is part of its season (R43): its teams are the season's own, and the draw starts the
    season, so none of its teams may be in another running season."""
    season = Season.objects.select_for_update().get(pk=season.pk)  # one draw of a season at a time
    if Cup.objects.filter(season=season).exists():
        raise SeasonError([_("The cup of this season is already drawn.")])
    ids = [t.pk for t in teams]
    if len(ids) < 2:
        raise SeasonError([_("A cup needs at least two teams.")])
    entered = set(SeasonEntry.objects.filter(season=season).values_list("team_id", flat=True))
    outside = sorted(t.name for t in teams if t.pk not in entered)
    if outside:
        raise SeasonError(
            [
                _("Not a team of %(season)s: %(teams)s. The cup is drawn among its season's teams (R43).")
                % {"season": season.name, "teams": get_text_list(outside, _("and"))}
            ]
        )
    refuse_teams_of_another_running_season(season, _("The cup cannot be drawn."))
    if order is not None:
        if sorted(order) != sorted(ids):
            raise SeasonError([_("The order must list every cup team once.")])
        drawn = list(order)
    else:
        drawn = list(ids)
        secrets.SystemRandom().shuffle(drawn)
    try:
        with transaction.atomic():
            cup = Cup.objects.create(
                season=season, name=name, prize=prize, draw=drawn, drawn_randomly=order is None, drawn_by=by
            )
    except IntegrityError as exc:  # another board drew it a moment ago
        raise SeasonError([_("The cup of this season is already drawn.")]) from exc
    for slot, (home, away) in enumerate(rules.cup_first_round(drawn)):
        match = Match.objects.create(season=season, cup=cup, round=1, cup_slot=slot, home_id=home, away_id=away)
        if away is None:
            match.status = Match.Status.BYE
            match.save(update_fields=["status"])
            advance_cup(match)
    return cup


def cup_winner(cup: Cup) -> int | None:
    final = cup.matches.filter(round=rules.cup_rounds(len(cup.draw))).first()
    return final.winner_id if final else None


# --- the season end (R32, R33) ------------------------------------------------------------------


@dataclass
class SeasonEndPlan:
    season: Season
    prizes: list[tuple[Team, int, str]] = field(default_factory=list)
    trophies: list[tuple[Team, str]] = field(default_factory=list)
    promoted: list[Team] = field(default_factory=list)
    relegated: list[Team] = field(default_factory=list)
    niggling: list[tuple[Player, int]] = field(default_factory=list)
    next_divisions: dict[int, list[Team]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def season_end_preview(season: Season) -> SeasonEndPlan:
    """Everything the season end would do, without doing it."""
    r = season.ruleset.rules
    s = r.settings
    plan = SeasonEndPlan(season=season)
    divisions = list(season.divisions.order_by("level"))
    unplayed = Match.objects.filter(season=season, division__isnull=False, status=Match.Status.SCHEDULED).count()
    if unplayed:
        plan.problems.append(_("%(n)s league matches are not played yet.") % {"n": unplayed})
    tables = {d.level: division_lines(d) for d in divisions}
    teams = {t.pk: t for t in Team.objects.filter(season_entries__season=season)}
    for d in divisions:
        lines = tables[d.level]
        prizes = r.prizes(d.level)
        # A tie the rules cannot split must be settled where it decides a prize, a trophy or a move.
        decisive = rules.decisive_places(
            len(lines),
            prizes=len(prizes),
            promotion_count=s.promotion_count,
            division_above=d.level > 1,
            division_below=any(x.level == d.level + 1 for x in divisions),
        )
        for line in lines:
            if line.tied and line.position in decisive:
                plan.problems.append(
                    _("%(division)s: %(team)s is tied at place %(pos)s; record the tiebreak game first.")
                    % {"division": d.name, "team": teams[line.team].name, "pos": line.position}
                )
        for line, prize in zip(lines, prizes, strict=False):
            plan.prizes.append(
                (teams[line.team], prize, _("%(division)s, place %(pos)s") % {"division": d.name, "pos": line.position})
            )
        if lines:
            plan.trophies.append((teams[lines[0].team], d.name))
        plan.next_divisions[d.level] = [teams[x.team] for x in lines]
    moves = rules.promotion_and_relegation(plan.next_divisions, s.promotion_count)  # R32
    plan.promoted += moves.promoted
    plan.relegated += moves.relegated
    plan.next_divisions = moves.divisions
    cup = Cup.objects.filter(season=season).first()
    if cup is not None:
        winner = cup_winner(cup)
        if winner is None:
            plan.problems.append(_("The cup final is not played yet."))
        else:
            winner_team = Team.objects.get(pk=winner)
            plan.trophies.append((winner_team, cup.name))
            if cup.prize:
                plan.prizes.append((winner_team, cup.prize, cup.name))
    keep = s.niggling_kept_between_seasons
    plan.niggling = [
        (p, p.niggling)
        for p in Player.objects.filter(
            team__in=teams.values(), status=Player.Status.ACTIVE, niggling__gt=keep
        ).select_related("team")
    ]
    return plan


@league_write
def commit_season_end(season: Season, *, by: Any, next_name: str) -> Season:
    """Pay the prizes, hand out trophy re-rolls, move teams up and down, heal niggling injuries
    and create the next season. A second commit does nothing and returns the next season."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if SeasonEnd.objects.filter(season=season).exists():
        return season.next
    plan = season_end_preview(season)
    if plan.problems:
        raise SeasonError(plan.problems)

    r = season.ruleset.rules
    for team, amount, reason in plan.prizes:
        locked = lock_team(team)
        post_entry(
            locked,
            amount,
            kind=TreasuryEntry.Kind.PRIZE,
            description=_("Prize: %(reason)s") % {"reason": reason},
            by=by,
            cause=season,
            idempotency_key=f"prize:{season.pk}:{team.pk}:{reason}",
        )
    # Load, change, save under the lock: every change leaves a history record.
    locked = (
        Team.objects.select_for_update()
        .order_by("pk")
        .in_bulk(Team.objects.filter(season_entries__season=season).values_list("pk", flat=True))
    )
    trophies = [t.pk for t, _reason in plan.trophies]
    promoted = {t.pk for t in plan.promoted}
    for pk, team in locked.items():
        before = (team.trophy_rerolls, team.fan_factor)
        team.trophy_rerolls = trophies.count(pk) * r.settings.trophy_rerolls
        if pk in promoted:
            team.fan_factor += r.settings.promotion_fan_factor
        if (team.trophy_rerolls, team.fan_factor) != before:
            team.save(update_fields=["trophy_rerolls", "fan_factor"])
    keep = r.settings.niggling_kept_between_seasons
    for player in Player.objects.select_for_update().filter(pk__in=[p.pk for p, _n in plan.niggling]).order_by("pk"):
        player.niggling = keep
        player.save(update_fields=["niggling"])
    season.status = Season.Status.FINISHED
    season.ended_at = timezone.now()
    season.save(update_fields=["status", "ended_at"])
    levels = {d.level: d for d in season.divisions.all()}
    next_season = create_season(
        name=next_name,
        ruleset=season.ruleset,
        divisions=[
            DivisionPlan(level, levels[level].name, levels[level].die, plan.next_divisions[level])
            for level in sorted(levels)
        ],
        previous=season,
    )
    SeasonEnd.objects.create(
        season=season,
        committed_by=by,
        summary={
            "prizes": [[t.pk, amount, reason] for t, amount, reason in plan.prizes],
            "trophies": [[t.pk, reason] for t, reason in plan.trophies],
            "promoted": [t.pk for t in plan.promoted],
            "relegated": [t.pk for t in plan.relegated],
            "niggling_healed": [[p.pk, n] for p, n in plan.niggling],
            "next_season": next_season.pk,
        },
    )
    return next_season
