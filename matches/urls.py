from django.urls import path

from matches.views import board, calendars, live, photos, postmatch, prematch, report, scheduling

urlpatterns = [
    path("matches/", board.match_list, name="matches"),
    path("matches/calendar.ics", calendars.league_calendar, name="league_calendar"),
    path("teams/<int:pk>/calendar.ics", calendars.team_calendar, name="team_calendar"),
    path("calendar/<str:token>.ics", calendars.coach_calendar, name="coach_calendar"),
    path("my/calendar/", calendars.calendar_page, name="calendar_page"),
    path("my/calendar/renew/", calendars.calendar_renew, name="calendar_renew"),
    path("matches/<int:pk>/", board.match_detail, name="match"),
    path("matches/<int:pk>/result/", board.match_result, name="match_result"),
    path("matches/<int:pk>/forfeit/", board.match_forfeit, name="match_forfeit"),
    path("matches/<int:pk>/move/", board.match_move, name="match_move"),
    path("matches/<int:pk>/date/propose/", scheduling.match_propose, name="match_propose"),
    path("matches/<int:pk>/date/accept/", scheduling.match_accept, name="match_accept"),
    path("matches/<int:pk>/date/board/", scheduling.match_board_date, name="match_board_date"),
    path("seasons/<int:pk>/schedule/", scheduling.season_schedule, name="season_schedule"),
    path("seasons/<int:pk>/schedule/deadline/", scheduling.season_deadline, name="season_deadline"),
    path("matches/<int:pk>/report/", report.match_report, name="match_report"),
    path("matches/<int:pk>/confirm/", report.match_confirm, name="match_confirm"),
    path("matches/<int:pk>/dispute/", report.match_dispute, name="match_dispute"),
    path("matches/<int:pk>/reopen/", board.match_board_action, {"action": "reopen"}, name="match_reopen"),
    path("matches/<int:pk>/void/", board.match_board_action, {"action": "void"}, name="match_void"),
    path("matches/<int:pk>/replay/", board.match_replay, name="match_replay"),
    path("matches/<int:pk>/prematch/", prematch.match_prematch, name="match_prematch"),
    path("matches/<int:pk>/prematch/<slug:step>/", prematch.match_prematch_step, name="match_prematch_step"),
    path("matches/<int:pk>/live/", live.match_live, name="match_live"),
    path("matches/<int:pk>/live/board/", live.match_live_board, name="match_live_board"),
    path("matches/<int:pk>/live/event/", live.match_live_event, name="match_live_event"),
    path("matches/<int:pk>/sheet/", prematch.referee_sheet, name="referee_sheet"),
    path("matches/<int:pk>/photos/", photos.match_photo_add, name="match_photo_add"),
    path("matches/<int:pk>/photos/<int:photo_pk>/", photos.match_photo, {"size": "full"}, name="match_photo"),
    path(
        "matches/<int:pk>/photos/<int:photo_pk>/small/", photos.match_photo, {"size": "small"}, name="match_photo_small"
    ),
    path("matches/<int:pk>/photos/<int:photo_pk>/delete/", photos.match_photo_delete, name="match_photo_delete"),
    path("matches/<int:pk>/after/<int:team_pk>/", postmatch.match_postmatch, name="match_postmatch"),
    path(
        "matches/<int:pk>/after/<int:team_pk>/<slug:step>/",
        postmatch.match_postmatch_step,
        name="match_postmatch_step",
    ),
]
