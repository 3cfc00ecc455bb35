"""The board corrects as records: a ledger line for gold, history for counters; the admin's change
forms cannot overwrite what the services own (issue 11)."""

import pytest
from django.forms import SplitDateTimeField
from django.urls import reverse

from teams import corrections, services
from teams.ledger import treasury
from teams.models import Player, PlayerSkill, StatChange, Team, TreasuryEntry
from tests.factories import human_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(coach):
    return human_team(coach)  # 1,000,000 - 650,000 of players = 350,000 left


def test_a_treasury_correction_is_a_ledger_line_with_the_running_balance(team, board_member):
    before = team.ledger.order_by("-seq").first()
    assert before.balance == 350_000
    corrections.correct_team(team, treasury=-20_000, reason="Kiosk paid twice", by=board_member)
    entry = team.ledger.order_by("-seq").first()
    assert (entry.seq, entry.amount, entry.balance) == (before.seq + 1, -20_000, 330_000)
    assert entry.kind == TreasuryEntry.Kind.CORRECTION and "Kiosk paid twice" in entry.description
    assert entry.created_by == board_member
    corrections.correct_team(team, treasury=5_000, reason="Prize short", by=board_member)
    entry = team.ledger.order_by("-seq").first()
    assert (entry.amount, entry.balance, treasury(team)) == (5_000, 335_000, 335_000)


def test_a_correction_never_takes_the_treasury_below_zero_nor_comes_without_a_reason(team, board_member):
    count = TreasuryEntry.objects.count()
    with pytest.raises(services.TeamRuleError, match="Not enough gold"):
        corrections.correct_team(team, treasury=-350_001, reason="Too much", by=board_member)
    with pytest.raises(services.TeamRuleError, match="Say why"):
        corrections.correct_team(team, treasury=10_000, reason=" ", by=board_member)
    with pytest.raises(services.TeamRuleError, match="Nothing to correct"):
        corrections.correct_team(team, treasury=0, reason="No gold moves", by=board_member)
    assert TreasuryEntry.objects.count() == count


def test_team_counters_are_corrected_with_history_and_within_the_limits(team, board_member):
    corrections.correct_team(team, reason="FF roll entered wrong", by=board_member, changes={"fan_factor": 2})
    team.refresh_from_db()
    assert team.fan_factor == 2
    assert team.history.first().history_change_reason == "Correction: FF roll entered wrong"
    with pytest.raises(services.TeamRuleError, match="re-rolls"):
        corrections.correct_team(team, reason="x", by=board_member, changes={"rerolls": 9})  # at most 8 (R5)
    with pytest.raises(services.TeamRuleError, match="negative"):
        corrections.correct_team(team, reason="x", by=board_member, changes={"fan_factor": -3})
    assert Team.objects.get(pk=team.pk).rerolls == 0


def test_a_player_correction_changes_spp_injuries_stats_and_skills_and_leaves_history(team, board_member):
    player = team.players.order_by("number").first()
    corrections.correct_player(
        player,
        reason="A touchdown was missed in the report",
        by=board_member,
        changes={"touchdowns": 1, "niggling": 1},
        stats={"MA": -1},
        add_skills=["Block"],
    )
    player = Player.objects.get(pk=player.pk)
    assert (player.touchdowns, player.niggling, player.ma_change, player.spp) == (1, 1, -1, 3)  # a TD is 3 SPP (R28)
    assert PlayerSkill.objects.get(player=player).origin == PlayerSkill.Origin.CORRECTION
    assert StatChange.objects.get(player=player).reason == StatChange.Reason.CORRECTION
    latest = player.history.first()
    assert latest.touchdowns == 1 and "A touchdown was missed" in latest.history_change_reason
    assert latest.history_user == board_member
    corrections.correct_player(player, reason="Block came by mistake", by=board_member, remove_skills=["Block"])
    assert not PlayerSkill.objects.filter(player=player).exists()
    with pytest.raises(services.TeamRuleError, match="R29"):
        corrections.correct_player(player, reason="x", by=board_member, stats={"ST": 3})  # never past ±2
    with pytest.raises(services.TeamRuleError, match="negative"):
        corrections.correct_player(player, reason="x", by=board_member, changes={"touchdowns": -2})


def test_a_wrongly_killed_player_is_brought_back(team, board_member):
    player = team.players.order_by("number").first()
    Player.objects.filter(pk=player.pk).update(status=Player.Status.DEAD)
    corrections.correct_player(player, reason="The report had the wrong player dead", by=board_member, status="active")
    assert Player.objects.get(pk=player.pk).on_roster


def change_form_data(page) -> dict:
    """What the admin's change form would post back unchanged (inlines sent empty)."""
    form = page.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None:
            continue
        if isinstance(field, SplitDateTimeField):
            data[f"{name}_0"], data[f"{name}_1"] = value.date().isoformat(), value.time().isoformat()
            continue
        data[name] = (
            [getattr(v, "pk", v) for v in value] if isinstance(value, list | tuple) else getattr(value, "pk", value)
        )
    for inline in page.context["inline_admin_formsets"]:
        prefix = inline.formset.prefix
        data.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    return data


def test_the_admin_change_forms_cannot_overwrite_balance_counters_or_status(client, team, board_member, season_with):
    from league.seasons.services.fixtures import generate_fixtures
    from matches.models import Match

    client.force_login(board_member)
    url = reverse("admin:teams_team_change", args=[team.pk])
    data = change_form_data(client.get(url))
    data.update(fan_factor=9, rerolls=8, assistant_coaches=5, mvps_received=0, apothecary="on", treasury=9_999_999)
    assert client.post(url, data).status_code == 302
    team.refresh_from_db()
    assert (team.fan_factor, team.rerolls, team.assistant_coaches, team.apothecary) == (0, 0, 0, False)
    assert treasury(team) == 350_000

    player = team.players.order_by("number").first()
    url = reverse("admin:teams_player_change", args=[player.pk])
    data = change_form_data(client.get(url))
    data.update(touchdowns=10, mvps=3, status="dead", ma_change=2, name="Renamed")
    assert client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert (player.touchdowns, player.mvps, player.status, player.ma_change) == (0, 0, "active", 0)
    assert player.name == "Renamed"  # what the services do not own stays editable

    season, _teams = season_with(2, 0)
    generate_fixtures(season.divisions.get(level=1))
    match = Match.objects.filter(season=season).first()
    url = reverse("admin:matches_match_change", args=[match.pk])
    data = change_form_data(client.get(url))
    data.update(status="confirmed", home_score=3, away_score=0)
    assert client.post(url, data).status_code == 302
    match.refresh_from_db()
    assert (match.status, match.home_score) == (Match.Status.SCHEDULED, None)


@pytest.mark.parametrize("who", ["anonymous", "coach", "other_coach", "board"])
def test_the_admin_correction_form_permission_matrix(client, team, coach, other_coach, board_member, who):
    user = {"anonymous": None, "coach": coach, "other_coach": other_coach, "board": board_member}[who]
    if user:
        client.force_login(user)
    url = reverse("admin:teams_team_correct", args=[team.pk])
    response = client.post(url, {"treasury": 10_000, "reason": "Prize short"})
    if who == "board":
        assert response.status_code == 302
        assert treasury(team) == 360_000
        assert client.get(url).status_code == 200
    else:
        assert response.status_code == 302 and "/login/" in response["Location"]  # the admin's login
        assert treasury(team) == 350_000
    player_url = reverse("admin:teams_player_correct", args=[team.players.first().pk])
    response = client.post(player_url, {"touchdowns": 1, "status": "active", "reason": "Missed TD"})
    assert Player.objects.filter(team=team, touchdowns=1).exists() == (who == "board")


def test_a_refused_correction_shows_its_message_in_the_admin(client, team, board_member):
    client.force_login(board_member)
    url = reverse("admin:teams_team_correct", args=[team.pk])
    response = client.post(url, {"treasury": -400_000, "reason": "Too much"})
    assert response.status_code == 200 and "Not enough gold" in response.content.decode()
    assert treasury(team) == 350_000
