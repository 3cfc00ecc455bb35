"""The season in the admin (R43): its status and dates move only through its own buttons (the start and
the season end check that a team runs in one season at a time), and its ruleset is fixed once it has
begun (a season is played under one version)."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Cup, Division, Ruleset, Season, SeasonEntry, TiebreakGame
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures, record_tiebreak
from league.seasons.services.setup import DivisionPlan, create_season

pytestmark = pytest.mark.django_db


def admin_page(board, season: Season) -> str:
    client = Client()
    client.force_login(board)
    response = client.get(reverse("admin:league_season_change", args=[season.pk]))
    assert response.status_code == 200
    return response.content.decode()


def a_season(teams) -> Season:
    plan = [DivisionPlan(1, "1. divisjon", 6, teams)]
    return create_season(name="Høst", ruleset=Ruleset.default(), divisions=plan)


def test_a_planned_season_keeps_its_ruleset_open_and_its_status_to_the_buttons(make_teams, board_member):
    html = admin_page(board_member, a_season(make_teams(2)))
    assert 'name="ruleset"' in html
    assert 'name="status"' not in html and 'name="started_at"' not in html and 'name="ended_at"' not in html


def test_a_begun_season_shows_its_status_and_ruleset_without_a_field_r43(make_teams, board_member):
    season = a_season(make_teams(2))
    generate_fixtures(season.divisions.get())  # its first match: it has begun (R43), not yet started
    html = admin_page(board_member, season)
    assert 'name="ruleset"' not in html and 'name="status"' not in html
    assert Ruleset.default().name in html  # shown, read only


def test_a_planned_seasons_divisions_are_edited_added_and_deleted_inline(make_teams, board_member):
    html = admin_page(board_member, a_season(make_teams(2)))
    assert 'name="divisions-0-die"' in html and 'name="divisions-0-level"' in html
    assert 'name="divisions-0-DELETE"' in html and "divisions-__prefix__" in html


def test_a_begun_seasons_divisions_keep_their_level_and_die_r12_r20(make_teams, board_member):
    """Once begun, a division is not deleted in the admin (its matches went with it) nor added, and its
    level and die (the gate and winnings die, R12, R20) are shown, not fields; its name may be corrected."""
    season = a_season(make_teams(2))
    generate_fixtures(season.divisions.get())
    html = admin_page(board_member, season)
    assert 'name="divisions-0-name"' in html
    assert 'name="divisions-0-die"' not in html and 'name="divisions-0-level"' not in html
    assert 'name="divisions-0-DELETE"' not in html
    assert "divisions-__prefix__" not in html  # no empty row to add a division with


def test_the_entries_are_looked_up_in_the_admin_and_moved_on_the_seasons_page_r43(make_teams, board_member):
    """A team placed or moved in a division goes through set_division_teams (R43, the matches played):
    the admin shows the entries and changes none."""
    season = a_season(make_teams(2))
    entry = SeasonEntry.objects.filter(season=season).first()
    client = Client()
    client.force_login(board_member)
    page = client.get(reverse("admin:league_seasonentry_change", args=[entry.pk]))
    assert page.status_code == 200 and 'name="division"' not in page.content.decode()
    other = Division.objects.create(season=season, level=2, name="2. divisjon", die=5)
    moved = client.post(reverse("admin:league_seasonentry_change", args=[entry.pk]), {"division": other.pk})
    assert moved.status_code == 403
    assert client.get(reverse("admin:league_seasonentry_add")).status_code == 403
    assert client.post(reverse("admin:league_seasonentry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    assert SeasonEntry.objects.get(pk=entry.pk).division_id == entry.division_id


def test_a_cups_draw_is_kept_and_the_cup_is_neither_added_nor_deleted_in_the_admin_r34(make_teams, board_member):
    teams = make_teams(4)
    season = a_season(teams)
    cup = draw_cup(season, teams=teams, name="Torshov-cupen", prize=50_000, by=board_member)
    client = Client()
    client.force_login(board_member)
    html = client.get(reverse("admin:league_cup_change", args=[cup.pk])).content.decode()
    assert 'name="prize"' in html and 'name="draw"' not in html
    assert client.get(reverse("admin:league_cup_add")).status_code == 403
    assert client.post(reverse("admin:league_cup_delete", args=[cup.pk]), {"post": "yes"}).status_code == 403
    assert Cup.objects.filter(pk=cup.pk).exists()


def test_a_begun_season_is_not_deleted_in_the_admin_r43(make_teams):
    """Deleting a season deleted its divisions, entries, cup and matches: a planned one without teams may go
    (its teams leave on the season's page first: the entries are not deleted in the admin), a begun one
    stays, even for a superuser (the board's role deletes no season at all)."""
    from django.contrib.auth import get_user_model

    planned = a_season([])
    plan = [DivisionPlan(1, "1. divisjon", 6, make_teams(2, "Vår"))]
    begun = create_season(name="Vår", ruleset=Ruleset.default(), divisions=plan)
    generate_fixtures(begun.divisions.get())
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("drift", "drift@example.org", "x"))
    assert client.post(reverse("admin:league_season_delete", args=[begun.pk]), {"post": "yes"}).status_code == 403
    assert client.post(reverse("admin:league_season_delete", args=[planned.pk]), {"post": "yes"}).status_code == 302
    assert list(Season.objects.values_list("name", flat=True)) == ["Vår"]


def test_tiebreak_games_are_looked_up_in_the_admin_and_taken_back_on_the_seasons_page_r31(make_teams, board_member):
    """A tiebreak game changes a table (R31): the admin shows it and changes none; it is recorded and taken
    back through the season page's services, which keep an ended season's tables."""
    teams = make_teams(2)
    season = a_season(teams)
    game = record_tiebreak(season.divisions.get(), winner=teams[0], loser=teams[1], by=board_member)
    client = Client()
    client.force_login(board_member)
    page = client.get(reverse("admin:league_tiebreakgame_change", args=[game.pk]))
    assert page.status_code == 200 and 'name="winner"' not in page.content.decode()
    swapped = client.post(
        reverse("admin:league_tiebreakgame_change", args=[game.pk]), {"winner": teams[1].pk, "loser": teams[0].pk}
    )
    assert swapped.status_code == 403
    assert client.get(reverse("admin:league_tiebreakgame_add")).status_code == 403
    deleted = client.post(reverse("admin:league_tiebreakgame_delete", args=[game.pk]), {"post": "yes"})
    assert deleted.status_code == 403
    assert TiebreakGame.objects.get(pk=game.pk).winner_id == teams[0].pk
    client.cookies["django_language"] = "nb"
    listed = client.get(reverse("admin:league_tiebreakgame_changelist")).content.decode()
    assert all(label in listed for label in ("Vinner", "Taper", "Registrert av", "Registrert den"))
    history = client.get(reverse("admin:league_historicaltiebreakgame_changelist")).content.decode()
    assert "Tiebreak-kamper registrert og trukket tilbake" in history and "History" not in history
    assert all(label in history for label in ("Når", "Hva", "Av", "Opprettet"))
