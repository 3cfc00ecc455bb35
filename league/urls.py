from django.urls import path

from league import views

urlpatterns = [
    path("standings/", views.standings, name="standings"),
    path("rules/", views.rules, name="rules"),
    path("seasons/", views.season_list, name="seasons"),
    path("seasons/new/", views.season_create, name="season_create"),
    path("seasons/<int:pk>/", views.season_detail, name="season"),
    path("seasons/<int:pk>/start/", views.season_start, name="season_start"),
    path("seasons/<int:pk>/end/", views.season_end, name="season_end"),
    path("seasons/<int:pk>/cup/", views.cup_bracket, name="cup"),
    path("seasons/<int:pk>/cup/draw/", views.cup_draw, name="cup_draw"),
    path("seasons/<int:pk>/divisions/<int:division_pk>/fixtures/", views.season_fixtures, name="season_fixtures"),
    path("seasons/<int:pk>/divisions/<int:division_pk>/add/", views.season_add_fixture, name="season_add_fixture"),
    path("seasons/<int:pk>/divisions/<int:division_pk>/tiebreak/", views.season_tiebreak, name="season_tiebreak"),
    path(
        "seasons/<int:pk>/divisions/<int:division_pk>/teams/", views.season_division_teams, name="season_division_teams"
    ),
    path("api/seasons/", views.api_seasons, name="api_seasons"),
    path("api/seasons/<int:pk>/standings/", views.api_standings, name="api_standings"),
]
