"""What the season's writes share: their refusal, R43's one running season a team plays in, and the
pre-match records a fixture keeps."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q, QuerySet
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.lib.refusals import Refusal
from league.models import Season, SeasonEntry
from matches.models import Match
from teams.models import Team


class SeasonError(Refusal):
    pass


def refuse_if_prematch_walked(matches: QuerySet[Match], refusal: str) -> None:
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
