"""The rules editor on PostgreSQL: requests at the same moment (issue 13)."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Ruleset
from tests.concurrency import require_postgres, run_together
from tests.league.test_rules_editor import WINNINGS_CELL, editor_post

pytestmark = pytest.mark.django_db(transaction=True)


def _clients(user, n: int) -> list[Client]:
    clients = []
    for _ in range(n):
        c = Client()
        c.force_login(user)
        clients.append(c)
    return clients


def test_two_copies_of_a_version_at_once_get_two_names(board_member):
    require_postgres()
    source = Ruleset.objects.get(name="Torshov 2006")
    a, b = _clients(board_member, 2)
    url = reverse("rules_version_copy", args=[source.pk])
    results = run_together([lambda: a.post(url), lambda: b.post(url)])
    assert [r.status_code for r in results] == [302, 302]
    names = set(Ruleset.objects.filter(based_on=source).values_list("name", flat=True))
    assert names == {"Torshov 2006 (kopi)", "Torshov 2006 (kopi 2)"}


def test_saving_while_another_board_member_publishes_never_changes_a_published_version(board_member):
    require_postgres()
    draft = Ruleset.objects.get(name="Torshov 2006").copy_as_draft("Torshov 2027")
    post = editor_post(draft, **{WINNINGS_CELL: "5"})
    a, b = _clients(board_member, 2)
    save, publish = run_together(
        [
            lambda: a.post(reverse("rules_version_edit", args=[draft.pk]), post),
            lambda: b.post(reverse("rules_version_publish", args=[draft.pk]), {"confirm": "on"}),
        ]
    )
    assert publish.status_code == 302
    # saved first (302), or refused: published meanwhile, seen under the lock (404) or before the form was
    # read (302 to the version's page, "frozen"): whichever, the published version is one whole state
    assert save.status_code in {302, 404}
    published = Ruleset.objects.get(pk=draft.pk)
    assert published.is_published
    cell = published.data["tables"]["winnings"]["cells"][2][1]
    assert cell in {2, 5}
    if save.status_code == 404:
        assert cell == 2
