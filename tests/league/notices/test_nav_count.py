"""The unread count in the nav (issue 27) keeps the pages fast: one query for a member, none for a visitor,
whose public pages stay cached; a member's page is rendered for him each time. Committed
transactions (the page cache reads the league version only outside one)."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.lib.writes import raise_league_version
from league.models import Notification
from league.notices.services import notify
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _league_version(transactional_db):
    raise_league_version()  # the row the page cache keys by (a flushed database has none)
    cache.clear()


@pytest.fixture
def people():
    return {"own": factories.user("kari", email="kari@example.org")}


@pytest.fixture
def notice(people):
    [made] = notify([people["own"]], Notification.Kind.REPORT_CONFIRMED, url="/matches/1/", params={"match": "A – B"})
    return made


def as_(role, people):
    client = Client()
    client.force_login(people[role])
    return client


def test_the_count_costs_a_member_one_query_and_a_visitor_none(people, notice):
    client = as_("own", people)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("standings")).status_code == 200
    assert len([q for q in queries if "league_notification" in q["sql"]]) == 1
    visitor = Client()
    visitor.get(reverse("standings"))
    with CaptureQueriesContext(connection) as queries:
        response = visitor.get(reverse("standings"))
    assert response.status_code == 200
    assert [q for q in queries if "league_notification" in q["sql"]] == []
    assert not any("league_seasonentry" in q["sql"] for q in queries)  # the public page stays kept for visitors


def test_a_members_page_is_his_own_and_its_count_drops_once_he_reads(people, notice):
    """A member's page (his nav, his count) is rendered for him each time, so it never shows a count he
    has read since."""
    client = as_("own", people)
    page = client.get(reverse("standings"))
    assert 'class="nav-count"' in page.content.decode()
    client.get(reverse("notice_open", args=[notice.pk]))
    assert 'class="nav-count"' not in client.get(reverse("standings")).content.decode()
