"""A division's fixtures (R31): generated, added or moved by the board; and the tiebreak game's winner."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from league import rules
from league.lib.refusals import AlreadyDone
from league.lib.writes import league_write
from league.models import Division, Notification, Season, SeasonEnd, TiebreakGame
from league.notices.services import notify
from league.seasons.services.base import (
    SeasonError,
    refuse_if_prematch_walked,
    refuse_teams_of_another_running_season,
)
from matches.models import Match
from matches.notices import coaches, words
from matches.scheduling import close_open_proposals
from teams.models import Team


@league_write
def generate_fixtures(division: Division, *, start: date | None = None, days_between: int = 14) -> list[Match]:
    """A double round robin for the division (R31); allowed until its first match is played."""
    division = Division.objects.select_for_update().select_related("season").get(pk=division.pk)
    if division.matches.exclude(status=Match.Status.SCHEDULED).exists():
        raise SeasonError([_("Fixtures cannot be regenerated after the first match of the division is played.")])
    teams = {e.team_id: e.team for e in division.entries.select_related("team")}
    if len(teams) < 2:
        raise SeasonError([_("A division needs at least two teams.")])
    refuse_if_prematch_walked(division.matches.all(), _("The fixtures cannot be regenerated."))
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
def schedule_replay(match: Match, *, by: Any, date: date | None = None) -> Match:
    """The voided match played again: the same teams, round and place in the cup, a new fixture that
    names the one it replaces; both coaches hear of it. A second press finds the replay made."""
    match = Match.objects.select_for_update(of=("self",)).select_related("season").get(pk=match.pk)
    replay = match.replays.exclude(status=Match.Status.VOID).first()
    if replay is not None:
        raise AlreadyDone(result=replay)
    if match.status != Match.Status.VOID:
        raise SeasonError([_("Only a voided match is played again.")])
    if not (match.home_id and match.away_id):
        raise SeasonError([_("Both teams must be known before the match is played.")])
    if match.season.status == Season.Status.FINISHED:
        raise SeasonError([_("%(season)s has ended.") % {"season": match.season}])
    replay = Match.objects.create(
        season=match.season,
        division_id=match.division_id,
        cup_id=match.cup_id,
        cup_slot=match.cup_slot,
        round=match.round,
        home_id=match.home_id,
        away_id=match.away_id,
        neutral=match.neutral,
        date=date,
        replay_of=match,
    )
    params = words(replay, round=replay.round)
    notify(coaches(replay, but=by), Notification.Kind.REPLAY_SCHEDULED, match=replay, params=params)
    return replay


@league_write
def move_fixture(match: Match, *, round: int, date: date | None) -> Match:
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.status != Match.Status.SCHEDULED:
        raise SeasonError([_("Only a match not yet played can be moved.")])
    if date != match.date:
        # a date the board gives ends the coaches' open proposals (matches.scheduling), and a time
        # agreed for another day no longer holds
        close_open_proposals(match, by=None)
        match.start_time = None
    moved = date != match.date
    match.round, match.date = round, date
    match.save(update_fields=["round", "date", "start_time"])
    if moved and date is not None:  # the coaches hear of the new day
        notify(coaches(match), Notification.Kind.DATE_CHANGED, match=match, params=words(match))
    return match


@league_write
def record_tiebreak(division: Division, *, winner: Team, loser: Team, by: Any) -> TiebreakGame:
    """The tiebreak game's winner (R31), while the division's season has not ended."""
    _refuse_if_season_ended(division.season_id)
    if winner.pk == loser.pk:
        raise SeasonError([_("A tiebreak game has two teams.")])
    teams = set(division.entries.values_list("team_id", flat=True))
    if not {winner.pk, loser.pk} <= teams:
        raise SeasonError([_("Both teams must play in %(division)s.") % {"division": division.name}])
    if TiebreakGame.objects.filter(division=division, winner=loser, loser=winner).exists():
        # the same game the other way round: one of the two is a mistake, taken back first
        raise SeasonError(
            [
                _("%(winner)s beat %(loser)s is recorded for these two: take it back first to record the other result.")
                % {"winner": loser.name, "loser": winner.name}
            ]
        )
    try:
        with transaction.atomic():
            return TiebreakGame.objects.create(division=division, winner=winner, loser=loser, recorded_by=by)
    except IntegrityError as exc:
        raise SeasonError([_("That tiebreak game is already recorded.")]) from exc


@league_write
def withdraw_tiebreak(game: TiebreakGame) -> None:
    """Take back a tiebreak game recorded by mistake, while its season has not ended: the table is ranked
    again without it (R31). After the season end the table is history (its prizes and promotions)."""
    _refuse_if_season_ended(game.division.season_id)
    TiebreakGame.objects.filter(pk=game.pk).delete()  # a second take-back finds nothing: done once


def _refuse_if_season_ended(season_id: int) -> None:
    """Lock the season (the season end locks it too, so neither runs half-way past the other) and refuse
    once it has ended. The lock is FOR NO KEY UPDATE: it still waits for the season end's, but not for
    (nor blocks) the key-share lock a new row of the season takes, so a board adding a division's teams
    or fixtures at the same moment cannot deadlock with it."""
    season = Season.objects.select_for_update(no_key=True).get(pk=season_id)
    if SeasonEnd.objects.filter(season=season).exists():
        raise SeasonError(
            [_("%(season)s has ended: its tables are history and their tiebreak games stay.") % {"season": season}]
        )
