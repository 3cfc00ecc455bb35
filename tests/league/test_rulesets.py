"""Rule changes in the admin: versions, publishing, and history that never changes (issue 3)."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.urls import reverse

from league import rules
from league.models import Ruleset

pytestmark = pytest.mark.django_db

ADD_URL = reverse("admin:league_ruleset_add")


def form_data(name: str = "Torshov 2027", **overrides: object) -> dict[str, str]:
    data = rules.default_data()
    post = {"name": name, "notes": "Test"}
    post["settings"] = json.dumps(data["settings"])
    for key, table in data["tables"].items():
        post[key] = json.dumps(table)
    post.update({k: v if isinstance(v, str) else json.dumps(v) for k, v in overrides.items()})
    return post


def test_the_default_version_is_created_by_migration_from_the_data_file():
    default = Ruleset.objects.get(name="Torshov 2006")
    assert default.is_published and default.published_at
    assert default.data["tables"] == rules.default_data()["tables"]
    assert Ruleset.default() == default
    assert default.rules.fan_factor_modifier(85000, 55000) == 2  # the book's example through the model


def test_a_published_version_cannot_be_saved():
    default = Ruleset.objects.get(name="Torshov 2006")
    default.notes = "rewrite history"
    with pytest.raises(ValidationError, match="publi"):
        default.save()


def test_the_database_refuses_to_change_a_published_version():
    with pytest.raises(DatabaseError), transaction.atomic():
        Ruleset.objects.filter(name="Torshov 2006").update(notes="rewrite history")
    assert Ruleset.objects.get(name="Torshov 2006").notes != "rewrite history"


def test_publish_validates_and_freezes():
    default = Ruleset.objects.get(name="Torshov 2006")
    draft = default.copy_as_draft("Torshov 2027")
    assert draft.based_on == default and not draft.is_published
    draft.data["settings"]["mvp_limit"] = 0
    draft.save()
    draft.publish()
    draft.refresh_from_db()
    assert draft.is_published and not draft.rules.receives_mvp(0)
    assert default.rules.receives_mvp(0)  # the old version is untouched


def test_a_broken_draft_cannot_be_published():
    draft = Ruleset.objects.get(name="Torshov 2006").copy_as_draft("Broken")
    draft.data["tables"]["vandalism"][2]["min"] = 20001
    draft.save()
    with pytest.raises(ValidationError, match="gap"):
        draft.publish()
    draft.refresh_from_db()
    assert not draft.is_published


# --- the admin, as the board uses it ---------------------------------------------------------------
def test_the_board_creates_a_changed_version_in_the_admin(client, board_member):
    client.force_login(board_member)
    ffm = rules.default_data()["tables"]["fan_factor_modifier"]
    ffm["cells"][0][0] = 1  # row 5, column 5: +1 instead of 0
    response = client.post(ADD_URL, form_data(fan_factor_modifier=ffm))
    assert response.status_code == 302, response.content.decode()[:2000]
    created = Ruleset.objects.get(name="Torshov 2027")
    assert created.status == "draft" and created.created_by == board_member
    assert created.rules.fan_factor_modifier(0, 0) == 1


def test_a_gap_in_a_table_is_refused_with_the_cell_and_nothing_is_saved(client, board_member):
    client.force_login(board_member)
    winnings = rules.default_data()["tables"]["winnings"]
    winnings["rows"][3]["min"] = 60005
    response = client.post(ADD_URL, form_data(winnings=winnings))
    assert response.status_code == 200
    assert "row 4: gap between 40,001–60,000 and 60,005–80,000" in response.content.decode()
    assert not Ruleset.objects.filter(name="Torshov 2027").exists()


def test_a_non_number_in_a_table_is_refused_with_the_cell(client, board_member):
    client.force_login(board_member)
    ffm = rules.default_data()["tables"]["fan_factor_modifier"]
    ffm["cells"][16][10] = "to"
    response = client.post(ADD_URL, form_data(fan_factor_modifier=ffm))
    assert response.status_code == 200
    assert "row 85, column 55: &#x27;to&#x27; is not a whole number" in response.content.decode()
    assert not Ruleset.objects.filter(name="Torshov 2027").exists()


def test_broken_structured_text_is_refused_with_line_and_column(client, board_member):
    client.force_login(board_member)
    response = client.post(ADD_URL, form_data(vandalism='[{"min": 0, "max": 9999, "target": null},'))
    assert response.status_code == 200
    assert "Not valid structured text at line 1" in response.content.decode() or "Ikke gyldig" in (
        response.content.decode()
    )
    assert not Ruleset.objects.filter(name="Torshov 2027").exists()


def test_a_published_version_cannot_be_edited_in_the_admin(client, board_member):
    client.force_login(board_member)
    default = Ruleset.objects.get(name="Torshov 2006")
    url = reverse("admin:league_ruleset_change", args=[default.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="settings"' not in page.content.decode()  # read-only view
    response = client.post(url, form_data(name="Torshov 2006"))
    assert response.status_code == 403
    assert Ruleset.objects.get(pk=default.pk).data == default.data


def test_admin_actions_publish_and_copy(client, board_member):
    client.force_login(board_member)
    default = Ruleset.objects.get(name="Torshov 2006")
    changelist = reverse("admin:league_ruleset_changelist")
    client.post(changelist, {"action": "copy_as_draft", "_selected_action": [default.pk]})
    draft = Ruleset.objects.get(name="Torshov 2006 (kopi)")
    assert draft.based_on == default and not draft.is_published
    client.post(changelist, {"action": "publish", "_selected_action": [draft.pk]})
    draft.refresh_from_db()
    assert draft.is_published


@pytest.mark.parametrize(("who", "status"), [("anonymous", 302), ("coach", 302), ("board", 200)])
def test_only_the_board_reaches_the_ruleset_admin(client, who, status, coach, board_member):
    if who != "anonymous":
        client.force_login({"coach": coach, "board": board_member}[who])
    assert client.get(ADD_URL).status_code == status
    response = client.post(ADD_URL, form_data())
    assert response.status_code in {status, 302}
    assert Ruleset.objects.filter(name="Torshov 2027").exists() == (who == "board")


# --- the public page -----------------------------------------------------------------------------
def test_rules_page_shows_the_tables_of_the_newest_published_version(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        response = client.get(reverse("rules"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Torshov 2006" in html
    assert "40\u00a0001–60\u00a0000" in html  # Kampbonus row, written the Norwegian way
    assert "Avkuttet sentralnerve" in html  # serious injury 66
    assert "Vaktmestercompagni" in html


def test_rules_page_can_show_an_older_version(client):
    default = Ruleset.objects.get(name="Torshov 2006")
    newer = default.copy_as_draft("Torshov 2027")
    newer.publish()
    assert "Torshov 2027" in client.get(reverse("rules")).content.decode()
    html = client.get(reverse("rules"), {"version": default.pk}).content.decode()
    assert f'<option value="{default.pk}" selected>' in html
