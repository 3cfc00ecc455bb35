from django.urls import path

from teams import views

urlpatterns = [
    path("races/", views.race_list, name="races"),
    path("races/<slug:slug>/", views.race_detail, name="race"),
    path("teams/", views.team_list, name="teams"),
    path("teams/new/", views.team_create, name="team_create"),
    path("teams/register/", views.team_register, name="team_register"),
    path("teams/import/", views.team_import, name="team_import"),
    path("teams/<int:pk>/", views.team_detail, name="team"),
    path("teams/<int:pk>/ledger/", views.team_ledger, name="team_ledger"),
    path("teams/<int:pk>/ledger.csv", views.team_ledger_csv, name="team_ledger_csv"),
    path("teams/<int:pk>/roster.csv", views.team_roster_csv, name="team_roster_csv"),
    path("teams/<int:pk>/history/", views.team_history, name="team_history"),
    path("teams/<int:pk>/manage/", views.team_manage, name="team_manage"),
    path("teams/<int:pk>/hire/", views.team_hire, name="team_hire"),
    path("teams/<int:pk>/buy/<slug:what>/", views.team_buy, name="team_buy"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("players/<int:pk>/edit/", views.player_edit, name="player_edit"),
    path("players/<int:pk>/mutation/", views.player_mutation, name="player_mutation"),
    path("players/<int:pk>/<slug:how>/", views.player_leave, name="player_leave"),
    path("api/races/", views.api_races, name="api_races"),
    path("api/teams/", views.api_teams, name="api_teams"),
    path("api/teams/<int:pk>/", views.api_team, name="api_team"),
]
