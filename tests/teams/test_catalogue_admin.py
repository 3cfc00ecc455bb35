"""The catalogue is editable by the board in the admin; the ledger and dice are read-only records (issue 4)."""

import pytest
from django.urls import reverse

from teams.models import Position, Race
from teams.rosters import race_spec

pytestmark = pytest.mark.django_db


def test_the_board_changes_a_position_price_in_the_admin(client, board_member):
    client.force_login(board_member)
    linemen = Position.objects.get(race__name="Human", name="Lineman")
    url = reverse("admin:teams_position_change", args=[linemen.pk])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list)}
    data.update(
        {"skills": [s.pk for s in linemen.skills.all()], "allied_races": [], "price": 55000, "race": linemen.race_id}
    )
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[-1500:]
    assert Position.objects.get(pk=linemen.pk).price == 55000
    spec = race_spec(Race.objects.get(name="Human"))
    assert spec.position(linemen.pk).price == 55000  # creation uses the edited price


@pytest.mark.parametrize("who", ["coach", "board"])
def test_only_the_board_reaches_the_catalogue_admin(client, coach, board_member, who):
    client.force_login({"coach": coach, "board": board_member}[who])
    response = client.get(reverse("admin:teams_race_changelist"))
    assert response.status_code == (200 if who == "board" else 302)


def test_the_ledger_is_read_only_in_the_admin(client, board_member):
    client.force_login(board_member)
    assert client.get(reverse("admin:teams_treasuryentry_changelist")).status_code == 200
    assert client.get(reverse("admin:teams_treasuryentry_add")).status_code == 403


def test_a_ledger_line_reads_in_the_boards_language_in_the_admin(client, board_member, coach):
    """A line a coach wrote in English reads in Norwegian in the admin's list and on its page, as on the
    ledger page (its message, league.rules.messages)."""
    from django.utils import translation

    from teams import services
    from teams.models import TreasuryEntry
    from tests.factories import human_team

    team = human_team(coach)
    with translation.override("en"):
        services.buy_assistant_coach(team, by=coach)
    line = TreasuryEntry.objects.filter(team=team).latest("seq")
    client.force_login(board_member)
    client.cookies["django_language"] = "nb"
    listed = client.get(reverse("admin:teams_treasuryentry_changelist")).content.decode()
    page = client.get(reverse("admin:teams_treasuryentry_change", args=[line.pk])).content.decode()
    assert "Assistenttrener" in listed and "Assistenttrener" in page and "Assistant coach" not in page
