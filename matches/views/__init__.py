"""The match pages, one module per page: the match list and board actions, the report and its photos, the
pre-match and post-match sequences. The names are re-exported here for `matches.urls`."""

from matches.views.base import HtmxHttpRequest, can_report
from matches.views.board import (
    BOARD_REPORT_ACTIONS,
    match_board_action,
    match_detail,
    match_forfeit,
    match_list,
    match_move,
    match_replay,
    match_result,
)
from matches.views.calendars import calendar_page, calendar_renew, coach_calendar, league_calendar, team_calendar
from matches.views.photos import match_photo, match_photo_add, match_photo_delete
from matches.views.postmatch import POSTMATCH_STEPS, match_postmatch, match_postmatch_step
from matches.views.prematch import (
    PREMATCH_STEPS,
    SHEET_SKILLS,
    StepAction,
    match_prematch,
    match_prematch_step,
    referee_sheet,
    run_step,
)
from matches.views.report import APOTHECARY_ROWS, match_confirm, match_dispute, match_report
from matches.views.scheduling import match_accept, match_board_date, match_propose, season_deadline, season_schedule

__all__ = [
    "APOTHECARY_ROWS",
    "BOARD_REPORT_ACTIONS",
    "POSTMATCH_STEPS",
    "PREMATCH_STEPS",
    "SHEET_SKILLS",
    "HtmxHttpRequest",
    "StepAction",
    "calendar_page",
    "calendar_renew",
    "can_report",
    "coach_calendar",
    "league_calendar",
    "match_accept",
    "match_board_action",
    "match_board_date",
    "match_confirm",
    "match_detail",
    "match_dispute",
    "match_forfeit",
    "match_list",
    "match_move",
    "match_photo",
    "match_photo_add",
    "match_photo_delete",
    "match_postmatch",
    "match_postmatch_step",
    "match_prematch",
    "match_prematch_step",
    "match_propose",
    "match_replay",
    "match_report",
    "match_result",
    "referee_sheet",
    "run_step",
    "season_deadline",
    "season_schedule",
    "team_calendar",
]
