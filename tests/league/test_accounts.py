"""Roles as permissions, a users' admin that grants nothing to a board member who is not superuser,
the coach page, and founding a team only as a coach (issue 14)."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from league.accounts import BOARD, COACH, is_board, is_coach, role_group
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("admin", password=PASSWORD)


@pytest.fixture
def nobody(make_user):
    return make_user("ingen", coach=False)


NEW_PASSWORD = {"password1": "new-pass-8731x", "password2": "new-pass-8731x", "usable_password": "true"}


def fresh(user):
    return type(user).objects.get(pk=user.pk)  # has_perm caches a user's permissions


# --- roles ---------------------------------------------------------------------------------------


def test_renaming_the_board_group_keeps_its_rights(board_member, coach):
    Group.objects.filter(name="Styret").update(name="Styret 2027")
    assert is_board(fresh(board_member))
    assert not is_board(fresh(coach))
    assert role_group(BOARD).name == "Styret 2027"


def test_a_group_called_styret_without_the_permission_gives_no_board_rights(make_user):
    impostor = make_user("lurendreier", coach=False)
    Group.objects.filter(name="Styret").update(name="Gammelt styre")
    impostor.groups.add(Group.objects.create(name="Styret"))
    assert not is_board(fresh(impostor))


def test_roles(board_member, coach, nobody, superuser):
    assert (is_board(board_member), is_coach(board_member)) == (True, False)
    assert (is_board(coach), is_coach(coach)) == (False, True)
    assert (is_board(nobody), is_coach(nobody)) == (False, False)
    assert (is_board(superuser), is_coach(superuser)) == (True, True)


# --- the users' admin ------------------------------------------------------------------------------


def change_user(client, user, **changes):
    data = {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "12:00:00",
        **changes,
    }
    return client.post(reverse("admin:auth_user_change", args=[user.pk]), data)


def test_a_board_member_cannot_make_himself_superuser_or_grant_groups_or_permissions(client, board_member):
    client.force_login(board_member)
    all_groups = [str(g.pk) for g in Group.objects.all()]
    response = change_user(
        client, board_member, first_name="Kari", is_superuser="on", groups=all_groups, user_permissions=["1", "2"]
    )
    assert response.status_code == 302
    me = fresh(board_member)
    assert me.first_name == "Kari"  # what he may change is changed
    assert not me.is_superuser
    assert list(me.groups.values_list("name", flat=True)) == ["Styret"]
    assert not me.user_permissions.exists()


def test_a_board_member_cannot_make_a_coach_staff_or_board(client, board_member, coach):
    client.force_login(board_member)
    change_user(client, coach, is_staff="on", is_superuser="on", groups=[str(role_group(BOARD).pk)])
    coach = fresh(coach)
    assert not (coach.is_staff or coach.is_superuser or is_board(coach))


def test_a_board_member_cannot_change_another_users_password(client, board_member, coach):
    client.force_login(board_member)
    url = reverse("admin:auth_user_password_change", args=[coach.pk])
    assert client.get(url).status_code == 403
    response = client.post(url, NEW_PASSWORD)
    assert response.status_code == 403
    assert fresh(coach).check_password(PASSWORD)
    # his own, yes
    assert client.get(reverse("admin:auth_user_password_change", args=[board_member.pk])).status_code == 200


def test_a_board_member_cannot_change_a_superuser_nor_add_or_delete_users(client, board_member, superuser, coach):
    client.force_login(board_member)
    change_user(client, superuser, is_active="")
    assert fresh(superuser).is_active
    assert client.get(reverse("admin:auth_user_add")).status_code == 403
    assert client.post(reverse("admin:auth_user_delete", args=[coach.pk]), {"post": "yes"}).status_code == 403
    assert type(coach).objects.filter(pk=coach.pk).exists()


def test_a_board_member_may_deactivate_a_coach_but_not_another_board_member(client, board_member, coach, make_user):
    other = make_user("kasserer", board=True, coach=False)
    client.force_login(board_member)
    change_user(client, coach, is_active="")
    change_user(client, other, is_active="")
    assert not fresh(coach).is_active
    assert fresh(other).is_active


def test_a_superuser_keeps_the_full_users_admin(client, superuser, coach):
    client.force_login(superuser)
    change_user(client, coach, is_staff="on", groups=[str(role_group(BOARD).pk)])
    assert is_board(fresh(coach)) and fresh(coach).is_staff
    url = reverse("admin:auth_user_password_change", args=[coach.pk])
    response = client.post(url, NEW_PASSWORD)
    assert response.status_code == 302
    assert fresh(coach).check_password("new-pass-8731x")


# --- the coach page --------------------------------------------------------------------------------

NEW_COACH = {
    "username": "nyttrener",
    "first_name": "Ny",
    "last_name": "Trener",
    "email": "ny@example.org",
    "password1": "Blodbolle-1987!",
    "password2": "Blodbolle-1987!",
}


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("nobody", 403), ("coach", 403), ("board_member", 302)]
)
def test_coach_page_permission_matrix(client, request, django_user_model, who, status):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.post(reverse("coach_create"), {**NEW_COACH, "is_staff": "on", "is_superuser": "on"})
    assert response.status_code == status
    made = django_user_model.objects.filter(username="nyttrener").first()
    if who == "board_member":
        assert made is not None
        assert is_coach(made) and not is_board(made)
        assert not (made.is_staff or made.is_superuser or made.user_permissions.exists())
        assert list(made.groups.all()) == [role_group(COACH)]
        assert made.check_password("Blodbolle-1987!")
    else:
        assert made is None
        if who == "anonymous":
            assert response["Location"].startswith(reverse("login"))


def test_coach_page_refuses_a_weak_password_and_a_taken_name_and_makes_nothing(client, board_member, coach):
    client.force_login(board_member)
    response = client.post(reverse("coach_create"), {**NEW_COACH, "password1": "123", "password2": "123"})
    assert response.status_code == 422
    assert "errorlist" in response.content.decode()
    response = client.post(reverse("coach_create"), {**NEW_COACH, "username": coach.username})
    assert response.status_code == 422 and "errorlist" in response.content.decode()
    assert not type(coach).objects.filter(username="nyttrener").exists()


# --- founding a team -------------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "status"), [("anonymous", 302), ("nobody", 403), ("coach", 200), ("superuser", 200)])
def test_founding_a_team_needs_the_coach_role(client, request, who, status):
    from teams.models import Team

    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("team_create")).status_code == status
    response = client.post(reverse("team_create"), {"race": "human", "name": "Uten rolle"})
    assert response.status_code == (422 if status == 200 else status)  # a coach gets the form back: no players
    assert not Team.objects.filter(name="Uten rolle").exists()
