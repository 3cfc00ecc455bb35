"""The board's page of the coaches' accounts (league.views.accounts.coach_list): who may see it and press its
buttons (a matrix: anonymous, the coach, another coach, the board), a deactivated coach who can no longer
log in and keeps his teams, the change recorded with who and when, and the accounts it refuses."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from league.accounts import set_active
from league.models import AccountChange
from teams.models import Team
from tests.conftest import PASSWORD
from tests.factories import human_team

pytestmark = pytest.mark.django_db

WHO = ["anonymous", "the_coach", "other_coach", "board"]


@pytest.fixture
def per(make_user):
    """A coach with a team, his name and address given."""
    per = make_user("per", first_name="Per", last_name="Hansen", email="per@example.org")
    human_team(per, name="Torshov Trolls")
    return per


def login(client, who, per, other_coach, board_member):
    user = {"anonymous": None, "the_coach": per, "other_coach": other_coach, "board": board_member}[who]
    if user is not None:
        client.force_login(user)


def fresh(user):
    return get_user_model().objects.get(pk=user.pk)


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def row(html: str, user) -> str:
    return html.split(f'id="account-{user.pk}"', 1)[1].split("</tr>", 1)[0]


@pytest.mark.parametrize("who", WHO)
def test_the_page_is_the_boards(client, who, per, other_coach, board_member):
    login(client, who, per, other_coach, board_member)
    response = client.get(reverse("coaches"))
    expected = {"anonymous": 302, "the_coach": 403, "other_coach": 403, "board": 200}[who]
    assert response.status_code == expected
    if who == "anonymous":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("who", WHO)
def test_deactivate_permission_matrix(client, who, per, other_coach, board_member):
    login(client, who, per, other_coach, board_member)
    response = client.post(reverse("coach_deactivate", args=[per.pk]))
    if who == "board":
        assert response.status_code == 302 and response["Location"] == reverse("coaches")
        assert not fresh(per).is_active
        change = AccountChange.objects.get(user=per)
        assert (change.active, change.by) == (False, board_member)
    else:
        assert response.status_code == (302 if who == "anonymous" else 403)
        assert fresh(per).is_active and not AccountChange.objects.exists()


@pytest.mark.parametrize("who", WHO)
def test_reactivate_permission_matrix(client, who, per, other_coach, board_member):
    get_user_model().objects.filter(pk=per.pk).update(is_active=False)
    if who == "the_coach":  # an inactive account is logged in as no one: he is anonymous
        client.force_login(per)
        assert client.post(reverse("coach_reactivate", args=[per.pk])).status_code == 302
        assert not fresh(per).is_active
        return
    login(client, who, per, other_coach, board_member)
    response = client.post(reverse("coach_reactivate", args=[per.pk]))
    if who == "board":
        assert response.status_code == 302 and fresh(per).is_active
        assert AccountChange.objects.get(user=per).active
    else:
        assert response.status_code == (302 if who == "anonymous" else 403)
        assert not fresh(per).is_active and not AccountChange.objects.exists()


def test_a_deactivated_coach_cannot_log_in_and_keeps_his_teams(client, per, board_member):
    coach_client = type(client)()
    coach_client.force_login(per)
    client.force_login(board_member)
    response = client.post(reverse("coach_deactivate", args=[per.pk]), follow=True)
    assert "Per Hansen kan ikke lenger logge inn. Lagene blir som de er." in text(response)

    # his session ends at his next request, and his password no longer logs him in
    assert coach_client.get(reverse("coach_home"))["Location"].startswith(reverse("login"))
    refused = coach_client.post(reverse("login"), {"username": "per", "password": PASSWORD})
    assert refused.status_code == 200 and "errorlist" in refused.content.decode()
    assert coach_client.get(reverse("coach_home"))["Location"].startswith(reverse("login"))
    # the team is his, as it was
    team = Team.objects.get(name="Torshov Trolls")
    assert team.coach_id == per.pk and coach_client.get(team.get_absolute_url()).status_code == 200

    client.post(reverse("coach_reactivate", args=[per.pk]))
    coach_client.post(reverse("login"), {"username": "per", "password": PASSWORD})
    assert coach_client.session["_auth_user_id"] == str(per.pk)


def test_the_page_shows_each_account_and_its_last_change(client, per, board_member):
    board_member.first_name, board_member.last_name = "Kari", "Styre"
    board_member.save()
    per.last_login = timezone.make_aware(timezone.datetime(2026, 11, 3, 19, 30))
    per.save()
    set_active(per, active=False, by=board_member)
    client.force_login(board_member)
    html = text(client.get(reverse("coaches")))
    assert "Trenernes kontoer" in html
    line = row(html, per)
    assert "Per Hansen" in line and "<td>per</td>" in line and "per@example.org" in line
    assert "Torshov Trolls" in line and "3.11.2026 19:30" in line
    assert "Deaktivert" in line and "Endret " in line and "av Kari Styre" in line
    assert reverse("coach_reactivate", args=[per.pk]) in line and "Aktiver igjen" in line


def test_the_board_cannot_deactivate_itself_a_superuser_or_another_board_member(
    client, per, board_member, make_user, django_user_model
):
    admin = django_user_model.objects.create_superuser("admin", password=PASSWORD)
    treasurer = make_user("kasserer", board=True, coach=False)
    client.force_login(board_member)
    html = text(client.get(reverse("coaches")))
    for account, reason in [
        (board_member, "Din egen konto deaktiveres ikke her."),
        (admin, "En superbrukers konto endres bare i administrasjonen."),
        (treasurer, "Et styremedlems konto endres av en superbruker, i administrasjonen."),
    ]:
        assert reason in row(html, account) and "<form" not in row(html, account)
        response = client.post(reverse("coach_deactivate", args=[account.pk]), follow=True)
        assert reason in text(response)
        assert fresh(account).is_active
    assert reverse("coach_deactivate", args=[per.pk]) in row(html, per)
    assert not AccountChange.objects.exists()


def test_a_second_press_is_already_done(client, per, board_member):
    client.force_login(board_member)
    client.post(reverse("coach_deactivate", args=[per.pk]))
    response = client.post(reverse("coach_deactivate", args=[per.pk]), follow=True)
    assert "Dette er allerede gjort." in text(response)
    assert AccountChange.objects.filter(user=per).count() == 1


def test_the_page_reads_a_fixed_number_of_queries(client, board_member, make_user, django_assert_max_num_queries):
    for n in range(12):
        coach = make_user(f"trener{n}")
        human_team(coach, name=f"Lag {n}")
        if n % 2:
            set_active(coach, active=False, by=board_member)
    client.force_login(board_member)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("coaches")).status_code == 200


def test_the_new_coach_page_links_to_it(client, board_member):
    client.force_login(board_member)
    assert reverse("coaches") in client.get(reverse("coach_create")).content.decode()
