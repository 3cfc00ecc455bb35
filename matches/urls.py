from django.urls import path

from matches import views
from matches.views import live as live_views

urlpatterns = [
    path("matches/", views.match_list, name="matches"),
    path("matches/calendar.ics", views.league_calendar, name="league_calendar"),
    path("teams/<int:pk>/calendar.ics", views.team_calendar, name="team_calendar"),
    path("calendar/<str:token>.ics", views.coach_calendar, name="coach_calendar"),
    path("my/calendar/", views.calendar_page, name="calendar_page"),
    path("my/calendar/renew/", views.calendar_renew, name="calendar_renew"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/result/", views.match_result, name="match_result"),
    path("matches/<int:pk>/forfeit/", views.match_forfeit, name="match_forfeit"),
    path("matches/<int:pk>/move/", views.match_move, name="match_move"),
    path("matches/<int:pk>/date/propose/", views.match_propose, name="match_propose"),
    path("matches/<int:pk>/date/accept/", views.match_accept, name="match_accept"),
    path("matches/<int:pk>/date/board/", views.match_board_date, name="match_board_date"),
    path("seasons/<int:pk>/schedule/", views.season_schedule, name="season_schedule"),
    path("seasons/<int:pk>/schedule/deadline/", views.season_deadline, name="season_deadline"),
    path("matches/<int:pk>/report/", views.match_report, name="match_report"),
    path("matches/<int:pk>/confirm/", views.match_confirm, name="match_confirm"),
    path("matches/<int:pk>/dispute/", views.match_dispute, name="match_dispute"),
    path("matches/<int:pk>/reopen/", views.match_board_action, {"action": "reopen"}, name="match_reopen"),
    path("matches/<int:pk>/void/", views.match_board_action, {"action": "void"}, name="match_void"),
    path("matches/<int:pk>/replay/", views.match_replay, name="match_replay"),
    path("matches/<int:pk>/prematch/", views.match_prematch, name="match_prematch"),
    path("matches/<int:pk>/prematch/<slug:step>/", views.match_prematch_step, name="match_prematch_step"),
    path("matches/<int:pk>/live/", live_views.match_live, name="match_live"),
    path("matches/<int:pk>/live/board/", live_views.match_live_board, name="match_live_board"),
    path("matches/<int:pk>/live/event/", live_views.match_live_event, name="match_live_event"),
    path("matches/<int:pk>/sheet/", views.referee_sheet, name="referee_sheet"),
    path("matches/<int:pk>/photos/", views.match_photo_add, name="match_photo_add"),
    path("matches/<int:pk>/photos/<int:photo_pk>/", views.match_photo, {"size": "full"}, name="match_photo"),
    path(
        "matches/<int:pk>/photos/<int:photo_pk>/small/", views.match_photo, {"size": "small"}, name="match_photo_small"
    ),
    path("matches/<int:pk>/photos/<int:photo_pk>/delete/", views.match_photo_delete, name="match_photo_delete"),
    path("matches/<int:pk>/after/<int:team_pk>/", views.match_postmatch, name="match_postmatch"),
    path("matches/<int:pk>/after/<int:team_pk>/<slug:step>/", views.match_postmatch_step, name="match_postmatch_step"),
]
