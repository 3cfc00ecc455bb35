from django.urls import path

from league.views import accounts, leaders, pages, rulesets, seasons

urlpatterns = [
    path("my/", pages.coach_home, name="coach_home"),
    path("standings/", pages.standings, name="standings"),
    path("leaders/", leaders.leaders_page, name="leaders"),
    path("rules/", pages.rules, name="rules"),
    path("rules/versions/", rulesets.version_list, name="rules_versions"),
    path("rules/versions/<int:pk>/", rulesets.version_detail, name="rules_version"),
    path("rules/versions/<int:pk>/copy/", rulesets.version_copy, name="rules_version_copy"),
    path("rules/versions/<int:pk>/edit/", rulesets.version_edit, name="rules_version_edit"),
    path("rules/versions/<int:pk>/preview/", rulesets.version_preview, name="rules_version_preview"),
    path("rules/versions/<int:pk>/publish/", rulesets.version_publish, name="rules_version_publish"),
    path("rules/versions/<int:pk>/export/", rulesets.version_export, name="rules_version_export"),
    path("rules/versions/<int:pk>/import/", rulesets.version_import, name="rules_version_import"),
    path("rules/compare/", rulesets.version_compare, name="rules_compare"),
    path("seasons/", seasons.season_list, name="seasons"),
    path("seasons/new/", seasons.season_create, name="season_create"),
    path("seasons/<int:pk>/", seasons.season_detail, name="season"),
    path("seasons/<int:pk>/start/", seasons.season_start, name="season_start"),
    path("seasons/<int:pk>/end/", seasons.season_end, name="season_end"),
    path("seasons/<int:pk>/cup/", seasons.cup_bracket, name="cup"),
    path("seasons/<int:pk>/cup/draw/", seasons.cup_draw, name="cup_draw"),
    path("seasons/<int:pk>/divisions/<int:division_pk>/fixtures/", seasons.season_fixtures, name="season_fixtures"),
    path("seasons/<int:pk>/divisions/<int:division_pk>/add/", seasons.season_add_fixture, name="season_add_fixture"),
    path("seasons/<int:pk>/divisions/<int:division_pk>/tiebreak/", seasons.season_tiebreak, name="season_tiebreak"),
    path(
        "seasons/<int:pk>/divisions/<int:division_pk>/teams/",
        seasons.season_division_teams,
        name="season_division_teams",
    ),
    path("coaches/new/", accounts.coach_create, name="coach_create"),
    path("api/seasons/", seasons.api_seasons, name="api_seasons"),
    path("api/seasons/<int:pk>/standings/", seasons.api_standings, name="api_standings"),
]
