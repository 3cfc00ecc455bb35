"""A season's standings and results as CSV files, read by the selector the standings and
season pages read (league.seasons.selectors.season_board): the file's numbers are the page's."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_GET

from league.lib.csv_files import csv_response, file_name
from league.seasons.selectors import season_board
from league.views.base import _get_season
from matches.models import Match, status_label

STANDINGS_HEADERS = (
    gettext_lazy("Division"),
    gettext_lazy("Place"),
    gettext_lazy("Tied"),
    gettext_lazy("Team"),
    gettext_lazy("Race"),
    gettext_lazy("Played"),
    gettext_lazy("Won"),
    gettext_lazy("Drawn"),
    gettext_lazy("Lost"),
    gettext_lazy("Touchdowns scored"),
    gettext_lazy("Touchdowns conceded"),
    gettext_lazy("Touchdown difference"),
    gettext_lazy("Casualties caused"),
    gettext_lazy("Casualties suffered"),
    gettext_lazy("Points"),
)


@require_GET
def season_standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's division tables as the standings page shows them, one file, a line per team."""
    season = _get_season(pk)
    board = season_board(season, latest=0, upcoming=0, bracket="none")
    rows = [
        [
            table.division.name,
            line["position"],
            line["tied"],
            team.name,
            team.race_name,
            line["played"],
            line["won"],
            line["drawn"],
            line["lost"],
            line["touchdowns_for"],
            line["touchdowns_against"],
            line["touchdown_difference"],
            line["casualties_for"],
            line["casualties_against"],
            line["points"],
        ]
        for table in board.tables
        for line, team in table.rows()
    ]
    return csv_response(STANDINGS_HEADERS, rows, file_name("torshov", pgettext("file name", "standings"), season.name))


RESULTS_HEADERS = (
    gettext_lazy("Competition"),
    gettext_lazy("Round"),
    gettext_lazy("Date"),
    gettext_lazy("Home team"),
    gettext_lazy("Away team"),
    gettext_lazy("Home score"),
    gettext_lazy("Away score"),
    gettext_lazy("Home casualties"),
    gettext_lazy("Away casualties"),
    gettext_lazy("Status"),
)


@require_GET
def season_results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's matches as its pages list them: the divisions' fixtures by round (the season page),
    then the cup's (its bracket); a score only for a confirmed match, as the pages show it, and a forfeit's
    status its walkover."""
    season = _get_season(pk)
    board = season_board(season, latest=0, upcoming=0, rounds=True)
    divisions = {table.division.pk: table.division.name for table in board.tables}
    played = [(divisions[m["division_id"]], m) for matches in board.rounds.values() for m in matches]
    # the bracket's open slots are boxes to draw, no matches of the file
    ties = [m for matches in board.bracket for m in matches if m["id"] is not None]
    played += [(board.cup.name, m) for m in ties] if board.cup else []
    rows = []
    for competition, m in played:
        score = m["status"] == Match.Status.CONFIRMED
        rows.append(
            [
                competition,
                m["round"],
                m["date"],
                m["home_name"],
                m["away_name"],
                m["home_score"] if score else None,
                m["away_score"] if score else None,
                m["home_casualties"] if score else None,
                m["away_casualties"] if score else None,
                status_label(m["status"], m["forfeited_by_id"]),  # a forfeit is a walkover (R46)
            ]
        )
    return csv_response(RESULTS_HEADERS, rows, file_name("torshov", pgettext("file name", "results"), season.name))
