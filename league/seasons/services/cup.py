"""The cup (R34): drawn at random or in the board's order, and its winner."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from league import rules
from league.lib.writes import league_write
from league.models import Cup, Season, SeasonEntry
from league.seasons.services.base import SeasonError, refuse_teams_of_another_running_season
from matches.cup import advance_cup
from matches.models import Match
from teams.models import Team


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
    _refuse_teams_outside_the_season(season, teams)
    refuse_teams_of_another_running_season(season, _("The cup cannot be drawn."))
    drawn = _drawn_order(ids, order)
    try:
        with transaction.atomic():
            cup = Cup.objects.create(
                season=season, name=name, prize=prize, draw=drawn, drawn_randomly=order is None, drawn_by=by
            )
    except IntegrityError as exc:  # another board drew it a moment ago
        raise SeasonError([_("The cup of this season is already drawn.")]) from exc
    _first_round(season, cup, drawn)
    return cup


def _refuse_teams_outside_the_season(season: Season, teams: Sequence[Team]) -> None:
    entered = set(SeasonEntry.objects.filter(season=season).values_list("team_id", flat=True))
    outside = sorted(t.name for t in teams if t.pk not in entered)
    if outside:
        raise SeasonError(
            [
                _("Not a team of %(season)s: %(teams)s. The cup is drawn among its season's teams (R43).")
                % {"season": season.name, "teams": get_text_list(outside, _("and"))}
            ]
        )


def _drawn_order(ids: list[int], order: Sequence[int] | None) -> list[int]:
    """The board's order, or the teams shuffled."""
    if order is not None:
        if sorted(order) != sorted(ids):
            raise SeasonError([_("The order must list every cup team once.")])
        return list(order)
    drawn = list(ids)
    secrets.SystemRandom().shuffle(drawn)
    return drawn


def _first_round(season: Season, cup: Cup, drawn: list[int]) -> None:
    """The first round's matches in the drawn order; a team without an opponent has a bye and goes on."""
    for slot, (home, away) in enumerate(rules.cup_first_round(drawn)):
        match = Match.objects.create(season=season, cup=cup, round=1, cup_slot=slot, home_id=home, away_id=away)
        if away is None:
            match.status = Match.Status.BYE
            match.save(update_fields=["status"])
            advance_cup(match)


def cup_winner(cup: Cup) -> int | None:
    final = cup.matches.filter(round=rules.cup_rounds(len(cup.draw))).exclude(status=Match.Status.VOID).first()
    return final.winner_id if final else None
