from django.urls import path

from league import leaders_views, ruleset_views, views

urlpatterns = [
    path("my/", views.coach_home, name="coach_home"),
    path("standings/", views.standings, name="standings"),
    path("leaders/", leaders_views.leaders_page, name="leaders"),
    path("rules/", views.rules, name="rules"),
    path("rules/versions/", ruleset_views.version_list, name="rules_versions"),
    path("rules/versions/<int:pk>/", ruleset_views.version_detail, name="rules_version"),
    path("rules/versions/<int:pk>/copy/", ruleset_views.version_copy, name="rules_version_copy"),
    path("rules/versions/<int:pk>/edit/", ruleset_views.version_edit, name="rules_version_edit"),
    path("rules/versions/<int:pk>/preview/", ruleset_views.version_preview, name="rules_version_preview"),
    path("rules/versions/<int:pk>/publish/", ruleset_views.version_publish, name="rules_version_publish"),
    path("rules/versions/<int:pk>/export/", ruleset_views.version_export, name="rules_version_export"),
    path("rules/versions/<int:pk>/import/", ruleset_views.version_import, name="rules_version_import"),
    path("rules/compare/", ruleset_views.version_compare, name="rules_compare"),
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
    path("coaches/new/", views.coach_create, name="coach_create"),
    path("api/seasons/", views.api_seasons, name="api_seasons"),
    path("api/seasons/<int:pk>/standings/", views.api_standings, name="api_standings"),
]
