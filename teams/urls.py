from django.urls import path

from teams.views import api, exports, management, pages, players

urlpatterns = [
    path("races/", pages.race_list, name="races"),
    path("races/<slug:slug>/", pages.race_detail, name="race"),
    path("teams/", pages.team_list, name="teams"),
    path("teams/new/", management.team_create, name="team_create"),
    path("teams/register/", management.team_register, name="team_register"),
    path("teams/import/", management.team_import, name="team_import"),
    path("teams/<int:pk>/", pages.team_detail, name="team"),
    path("teams/<int:pk>/ledger/", pages.team_ledger, name="team_ledger"),
    path("teams/<int:pk>/ledger.csv", exports.team_ledger_csv, name="team_ledger_csv"),
    path("teams/<int:pk>/roster.csv", exports.team_roster_csv, name="team_roster_csv"),
    path("teams/<int:pk>/history/", pages.team_history, name="team_history"),
    path("teams/<int:pk>/manage/", management.team_manage, name="team_manage"),
    path("teams/<int:pk>/hire/", management.team_hire, name="team_hire"),
    path("teams/<int:pk>/buy/<slug:what>/", management.team_buy, name="team_buy"),
    path("players/<int:pk>/", players.player_detail, name="player"),
    path("players/<int:pk>/edit/", players.player_edit, name="player_edit"),
    path("players/<int:pk>/mutation/", players.player_mutation, name="player_mutation"),
    path("players/<int:pk>/<slug:how>/", players.player_leave, name="player_leave"),
    path("api/races/", api.api_races, name="api_races"),
    path("api/teams/", api.api_teams, name="api_teams"),
    path("api/teams/<int:pk>/", api.api_team, name="api_team"),
]
