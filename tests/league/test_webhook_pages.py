"""The board's webhooks page: each write's permission matrix (anonymous, a coach, the board), an address
refused with a Norwegian message and nothing saved, the secret shown once, the history of who changed it,
and the test post with the answer's status."""

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from league.models import Webhook, WebhookDelivery
from tests import factories
from tests.webhook_server import receiver

pytestmark = pytest.mark.django_db
ROLES = ["anonymous", "coach", "board"]


@pytest.fixture
def people(db):
    return {"coach": factories.user("kari"), "board": factories.user("styret", board=True, coach=False)}


def as_(role, people):
    client = Client(enforce_csrf_checks=False)
    if role != "anonymous":
        client.force_login(people[role])
    return client


def form(url, **extra):
    return {"name": "Discord", "url": url, "format": "discord", "results": "on", "active": "on", **extra}


def refused_status(role):
    return 302 if role == "anonymous" else 403


@pytest.mark.parametrize("role", ROLES)
def test_the_page_is_the_boards(role, people):
    response = as_(role, people).get(reverse("webhooks"))
    assert response.status_code == (200 if role == "board" else refused_status(role))


@pytest.mark.parametrize("role", ROLES)
def test_adding_a_webhook_permission_matrix(role, people):
    response = as_(role, people).post(reverse("webhooks"), form("http://127.0.0.1:9/hook"), follow=role == "board")
    if role != "board":
        assert response.status_code == refused_status(role)
        assert not Webhook.objects.exists()
        return
    webhook = Webhook.objects.get()
    assert (webhook.name, webhook.results, webhook.board_messages) == ("Discord", True, False)
    html = response.content.decode()
    assert webhook.secret in html  # shown once, on the page the save leads to
    assert webhook.secret not in as_("board", people).get(reverse("webhooks")).content.decode()
    assert webhook.history.get().history_user == people["board"]


@pytest.mark.parametrize("role", ROLES)
def test_changing_and_removing_permission_matrix(role, people):
    webhook = Webhook.objects.create(name="Discord", url="http://127.0.0.1:9/hook")
    client = as_(role, people)
    changed = client.post(reverse("webhook_edit", args=[webhook.pk]), form("http://127.0.0.1:9/other", name="Chat"))
    removed = client.post(reverse("webhook_delete", args=[webhook.pk]))
    if role != "board":
        assert (changed.status_code, removed.status_code) == (refused_status(role),) * 2
        assert Webhook.objects.get().name == "Discord"
        return
    assert (changed.status_code, removed.status_code) == (302, 302)
    assert not Webhook.objects.exists()
    assert [h.history_type for h in Webhook.history.order_by("history_date")] == ["+", "~", "-"]


@override_settings(DEBUG=False, WEBHOOKS_ALLOW_LOCAL=False)
@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://discord.example/api/webhooks/1", "Adressen må begynne med https://"),
        ("https://192.168.1.20/hook", "Adressen fører til denne serveren eller et lokalt nettverk"),
    ],
)
def test_a_refused_address_is_said_in_norwegian_and_nothing_saved(people, url, said):
    response = as_("board", people).post(reverse("webhooks"), form(url))
    assert response.status_code == 422
    assert said in response.content.decode()
    assert not Webhook.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_send_a_test_permission_matrix_and_the_answer_shown(role, people):
    with receiver(201) as chat:
        webhook = Webhook.objects.create(name="Discord", url=chat.url)
        response = as_(role, people).post(reverse("webhook_test", args=[webhook.pk]), follow=role == "board")
    if role != "board":
        assert response.status_code == refused_status(role)
        assert chat.requests == [] and not WebhookDelivery.objects.exists()
        return
    assert len(chat.requests) == 1
    assert "Testen nådde Discord: den svarte 201." in response.content.decode()
    assert "Test" in response.content.decode() and "201" in response.content.decode()


def test_a_failed_test_says_why(people):
    with receiver(404) as chat:
        webhook = Webhook.objects.create(name="Discord", url=chat.url)
        response = as_("board", people).post(reverse("webhook_test", args=[webhook.pk]), follow=True)
    assert "Testen nådde ikke Discord: HTTP 404" in response.content.decode()
    assert WebhookDelivery.objects.get().state == WebhookDelivery.State.FAILED


@override_settings(DEBUG=False, WEBHOOKS_ALLOW_LOCAL=False)
def test_the_admin_refuses_the_same_addresses_and_shows_the_secret(people):
    admin = Client()
    admin.force_login(factories.user("root", is_superuser=True, is_staff=True))
    add = reverse("admin:league_webhook_add")
    response = admin.post(add, form("https://10.0.0.7/hook"))
    assert response.status_code == 200 and "lokalt nettverk" in response.content.decode()
    assert not Webhook.objects.exists()
    webhook = Webhook.objects.create(name="Discord", url="https://discord.example/api/webhooks/1")
    assert webhook.secret in admin.get(reverse("admin:league_webhook_change", args=[webhook.pk])).content.decode()
    delivery = WebhookDelivery.objects.create(webhook=webhook, kind="test", key="test:1", payload={})
    shown = admin.get(reverse("admin:league_webhookdelivery_change", args=[delivery.pk]))
    assert shown.status_code == 200 and 'type="submit"' not in shown.content.decode().split("</h1>", 1)[-1]


@pytest.mark.parametrize("hooks", [1, 4])
def test_the_page_reads_the_same_few_queries_however_many_webhooks(people, hooks, django_assert_max_num_queries):
    """Each webhook with its five newest posts, newest first: the webhooks and their posts in one read each
    (the other 14 are the session, the board's roles and the nav's desk and notices counts)."""
    for n in range(hooks):
        webhook = Webhook.objects.create(name=f"Chat {n}", url=f"https://chat{n}.example/hook")
        for k in range(7):
            WebhookDelivery.objects.create(webhook=webhook, kind="result", key=f"result:{k}", payload={})
    client = as_("board", people)
    client.get(reverse("webhooks"))
    with django_assert_max_num_queries(16):
        response = client.get(reverse("webhooks"))
    shown = dict((w.pk, [d.key for d in rows]) for w, rows in response.context["hooks"])
    assert all(keys == [f"result:{k}" for k in (6, 5, 4, 3, 2)] for keys in shown.values())
    assert len(shown) == hooks
