"""Web Push beside the e-mails: what a phone subscribed to the tests' own push service (tests/push_service.py)
receives, decrypted and checked for its VAPID signature; once per device, once per match and kind, quiet
hours kept, a forgotten device removed, the reader's language. Bad subscriptions refused in Norwegian."""

import io
import re
import threading
from datetime import datetime, time, timedelta
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from py_vapid import Vapid

from league.models import NoticePreference, NoticeSettings, Notification, PushDelivery, PushSubscription
from league.notices import devices, push
from league.notices.services import notify
from matches.report.confirmation import confirm_report
from matches.report.filing import file_report
from tests import factories
from tests.match_classes import OneScheduledMatch, OneWalkedMatch
from tests.matches.test_report import a_report
from tests.push_service import Device, b64url, push_service, unb64url

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
State = PushDelivery.State
OSLO = ZoneInfo("Europe/Oslo")
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile"


@pytest.fixture
def service():
    with push_service() as running:
        yield running


def subscribed(user, service, answer=201):
    """A device of the user's, turned on through the settings page's view as the script posts it."""
    phone = service.device(answer=answer)
    client = Client(HTTP_USER_AGENT=PHONE)
    client.force_login(user)
    response = client.post(reverse("push_subscribe"), phone.subscription(), content_type="application/json")
    assert response.status_code == 201, response.content
    return phone


def board_message(user, **extra):
    [notice] = notify([user], Kind.BOARD_MESSAGE, params={"subject": "Cupfinale", "text": "Lørdag kl. 12."}, **extra)
    return notice


class TestAFiledReport(OneWalkedMatch):
    def test_the_other_coach_is_pushed_a_norwegian_link_to_the_report_and_confirms(
        self, ready_match, service, django_capture_on_commit_callbacks
    ):
        home, away = ready_match.home.coach, ready_match.away.coach
        phone = subscribed(away, service)
        with django_capture_on_commit_callbacks(execute=True):
            file_report(ready_match, a_report(ready_match), by=home)
            assert phone.received == []  # not before the commit
        assert service.refused == []
        [message] = phone.received
        assert message == {
            "title": "En rapport å bekrefte eller bestride",
            "body": f"{ready_match.home.name} har levert rapporten for {ready_match.home.name} – "
            f"{ready_match.away.name} (2–1): bekreft eller bestrid den.",
            "url": settings.SITE_URL + ready_match.get_absolute_url(),
            "tag": f"report_filed-{ready_match.pk}",
        }
        assert PushSubscription.objects.get(user=away).last_success is not None
        confirm_report(ready_match, by=away)  # what the link leads to
        ready_match.refresh_from_db()
        assert ready_match.status == ready_match.Status.CONFIRMED

    def test_an_english_reader_gets_english(self, ready_match, service, django_capture_on_commit_callbacks):
        away = ready_match.away.coach
        NoticeSettings.objects.create(user=away, language="en")
        phone = subscribed(away, service)
        with django_capture_on_commit_callbacks(execute=True):
            file_report(ready_match, a_report(ready_match), by=ready_match.home.coach)
        [message] = phone.received
        assert message["title"] == "A report to confirm or dispute"
        assert message["body"].endswith("(2–1): confirm or dispute it.")


class TestOncePerMatch(OneScheduledMatch):
    def test_each_kind_is_pushed_once_per_match_and_device(self, league_match, service):
        coach = league_match.away.coach
        phone, tablet = subscribed(coach, service), subscribed(coach, service)
        params = {"match": "A – B", "date": "1. mars"}
        first = notify([coach], Kind.DATE_PROPOSED, match=league_match, params=params)
        again = notify([coach], Kind.DATE_PROPOSED, match=league_match, params=params)
        other = notify([coach], Kind.DATE_ACCEPTED, match=league_match, params=params)
        assert PushDelivery.objects.filter(notification__in=again).count() == 0  # in the inbox, not pushed
        for delivery in PushDelivery.objects.all():
            push.deliver(delivery.pk)
        kinds = sorted(m["tag"].split("-")[0] for m in phone.received)
        assert kinds == ["date_accepted", "date_proposed"] == sorted(m["tag"].split("-")[0] for m in tablet.received)
        assert Notification.objects.filter(recipient=coach).count() == 3 and first and other


def test_a_delivery_is_pushed_once_however_often_it_is_delivered(service):
    coach = factories.user("kari")
    phone = subscribed(coach, service)
    [delivery] = PushDelivery.objects.filter(notification=board_message(coach))
    assert push.deliver(delivery.pk)[0] == State.SENT
    assert push.deliver(delivery.pk)[0] == State.SENT
    assert push.send_due(now=timezone.now() + timedelta(days=1)) == {}
    assert len(phone.received) == 1 and phone.received[0]["body"] == "Styret: Cupfinale Lørdag kl. 12."


def test_a_failed_push_is_tried_again_with_backoff_and_sent_once(service):
    coach = factories.user("kari")
    phone = subscribed(coach, service, answer=503)
    [delivery] = PushDelivery.objects.filter(notification=board_message(coach))
    now = timezone.now()
    assert push.deliver(delivery.pk, now=now) == (State.PENDING, now + timedelta(minutes=1))
    assert PushSubscription.objects.get(user=coach).failures == 1
    phone.answer = 201
    assert push.send_due(now=now + timedelta(seconds=59)) == {}
    assert push.send_due(now=now + timedelta(minutes=1)) == {State.SENT: 1}
    delivery.refresh_from_db()
    assert (delivery.attempts, len(phone.received), delivery.subscription.failures) == (2, 1, 0)


def test_a_lost_task_is_sent_by_the_sweep(service):
    coach = factories.user("kari")
    phone = subscribed(coach, service)
    board_message(coach)  # no commit in this test: its task never ran
    PushDelivery.objects.update(created_at=timezone.now() - timedelta(minutes=6))
    out = io.StringIO()
    call_command("send_notices", stdout=out)
    assert len(phone.received) == 1 and "pushes: sent 1" in out.getvalue()


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_its_push_service_forgot_is_removed(service, status):
    coach = factories.user("kari")
    subscribed(coach, service, answer=status)
    notice = board_message(coach)
    [delivery] = PushDelivery.objects.filter(notification=notice)
    assert push.deliver(delivery.pk)[0] == "gone"
    assert not PushSubscription.objects.filter(user=coach).exists()
    assert Notification.objects.filter(pk=notice.pk).exists()  # still in the inbox


def test_no_push_in_quiet_hours_it_is_sent_when_they_end(service):
    coach = factories.user("kari")
    NoticeSettings.objects.create(user=coach, quiet_from=time(22), quiet_to=time(7))
    phone = subscribed(coach, service)
    [delivery] = PushDelivery.objects.filter(notification=board_message(coach))
    late = datetime(2026, 12, 4, 23, 30, tzinfo=OSLO)
    morning = datetime(2026, 12, 5, 7, 0, tzinfo=OSLO)
    assert push.deliver(delivery.pk, now=late) == (State.PENDING, morning)
    assert push.send_due(now=morning - timedelta(minutes=1)) == {}
    assert phone.received == []
    assert push.send_due(now=morning) == {State.SENT: 1}
    delivery.refresh_from_db()
    assert (delivery.attempts, len(phone.received)) == (1, 1)  # the wait spent no attempt


def test_a_kind_turned_off_is_not_pushed(service):
    coach = factories.user("kari")
    phone = subscribed(coach, service)
    NoticePreference.objects.create(user=coach, kind=Kind.BOARD_MESSAGE, push=False)
    assert not PushDelivery.objects.filter(notification=board_message(coach)).exists()
    assert phone.received == []


def test_without_keys_nothing_is_planned(service):
    coach = factories.user("kari")
    subscribed(coach, service)
    with override_settings(VAPID_PRIVATE_KEY=""):
        assert not PushDelivery.objects.filter(notification=board_message(coach)).exists()


@pytest.mark.parametrize(
    ("clock", "ends"),
    [
        (time(21, 59), None),
        (time(22, 0), datetime(2026, 12, 5, 7, tzinfo=OSLO)),
        (time(6, 59), datetime(2026, 12, 4, 7, tzinfo=OSLO)),
        (time(7, 0), None),
        (time(12, 0), None),
    ],
)
def test_quiet_hours_over_midnight(clock, ends):
    now = datetime.combine(datetime(2026, 12, 4).date(), clock, tzinfo=OSLO)
    assert push.quiet_until(now, time(22), time(7)) == ends


@pytest.mark.parametrize(
    ("clock", "quiet"), [(time(12, 59), False), (time(13, 0), True), (time(14, 59), True), (time(15, 0), False)]
)
def test_quiet_hours_within_a_day(clock, quiet):
    now = datetime.combine(datetime(2026, 12, 4).date(), clock, tzinfo=OSLO)
    assert (push.quiet_until(now, time(13), time(15)) is not None) is quiet


# A forged or broken subscription: refused in Norwegian, nothing kept.
_GOOD_POINT = Device(endpoint="").subscription()["keys"]["p256dh"]
_OFF_CURVE = b64url(b"\x04" + bytes(range(1, 65)))


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"endpoint": "http://push.example.org/x"}, "Enhetens push-adresse er ikke en sikker (https) adresse."),
        ({"endpoint": "https://10.0.0.1/x"}, "Enhetens push-adresse er ikke en push-tjenestes."),
        ({"endpoint": "https://evil.example.org/fcm.googleapis.com"}, "er ikke en push-tjenestes."),
        ({"endpoint": "https://notfcm.googleapis.com.evil.org/x"}, "er ikke en push-tjenestes."),
        ({"endpoint": ""}, "Enhetens push-adresse mangler eller er for lang."),
        ({"keys": {"p256dh": _GOOD_POINT[:-4], "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "Enhetens krypteringsnøkkel"),
        ({"keys": {"p256dh": _OFF_CURVE, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "Enhetens krypteringsnøkkel"),
        ({"keys": {"p256dh": _GOOD_POINT, "auth": "AAAAAAAAAAAAAAAAAAAA"}}, "Enhetens autentiseringshemmelighet"),
        ({"keys": "nonsense"}, "Enhetens krypteringsnøkkel"),
    ],
)
def test_a_forged_subscription_is_refused_in_norwegian(service, change, said):
    coach = factories.user("kari")
    good = service.device().subscription()
    client = Client()
    client.force_login(coach)
    response = client.post(reverse("push_subscribe"), good | change, content_type="application/json")
    assert response.status_code == 422
    assert said in " ".join(response.json()["errors"])
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/abc",
        "https://web.push.apple.com/abc",
        "https://wns2-db5p.notify.windows.com/w/?token=abc",
    ],
)
def test_the_browsers_push_services_are_taken(endpoint):
    keys = {"p256dh": _GOOD_POINT, "auth": "A" * 22}
    assert devices.subscription_problems({"endpoint": endpoint, "keys": keys}) == []


def test_not_json_is_refused(service):
    client = Client()
    client.force_login(factories.user("kari"))
    response = client.post(reverse("push_subscribe"), "{", content_type="application/json")
    assert response.status_code == 422 and response.json()["errors"] == ["Nettleseren sendte ikke noe push-abonnement."]


def test_without_keys_subscribing_is_refused():
    client = Client()
    client.force_login(factories.user("kari"))
    response = client.post(reverse("push_subscribe"), {}, content_type="application/json")
    assert response.status_code == 422
    assert "ikke slått på for ligaen" in response.json()["errors"][0]


ROLES = ["anonymous", "other", "own", "board"]


@pytest.fixture
def people(db):
    return {
        "own": factories.user("kari"),
        "other": factories.user("ola"),
        "board": factories.user("styret", board=True, coach=False),
    }


def as_(role, people):
    client = Client(enforce_csrf_checks=False)
    if role != "anonymous":
        client.force_login(people[role])
    return client


@pytest.mark.parametrize("role", ROLES)
def test_subscribing_permission_matrix(role, people, service):
    phone = service.device()
    response = as_(role, people).post(reverse("push_subscribe"), phone.subscription(), content_type="application/json")
    if role == "anonymous":
        assert response.status_code == 302 and not PushSubscription.objects.exists()
    else:
        assert response.status_code == 201
        assert PushSubscription.objects.get().user == people[role]  # one's own, whoever is logged in


@pytest.mark.parametrize("role", ROLES)
def test_removing_a_device_permission_matrix(role, people, service):
    device = devices.subscribe(user=people["own"], data=service.device().subscription(), user_agent=PHONE)
    response = as_(role, people).post(reverse("push_device_remove", args=[device.pk]))
    kept = PushSubscription.objects.filter(pk=device.pk).exists()
    if role == "own":
        assert response.status_code == 302 and not kept
    else:
        assert kept and response.status_code == (302 if role == "anonymous" else 404)


@pytest.mark.parametrize("role", ROLES)
def test_turning_a_browser_off_permission_matrix(role, people, service):
    device = devices.subscribe(user=people["own"], data=service.device().subscription(), user_agent=PHONE)
    body = {"endpoint": device.endpoint}
    response = as_(role, people).post(reverse("push_unsubscribe"), body, content_type="application/json")
    kept = PushSubscription.objects.filter(pk=device.pk).exists()
    assert kept is (role != "own")
    assert response.status_code == (302 if role == "anonymous" else 200)


def test_the_same_browser_turned_on_by_another_coach_moves_to_them(people, service):
    subscription = service.device().subscription()
    devices.subscribe(user=people["own"], data=subscription, user_agent=PHONE)
    devices.subscribe(user=people["other"], data=subscription, user_agent=PHONE)
    assert PushSubscription.objects.get().user == people["other"]


def test_the_settings_page_lists_the_devices_and_saves_push_choices_and_quiet_hours(people, service):
    coach = people["own"]
    subscribed(coach, service)
    client = as_("own", people)
    page = client.get(reverse("notice_settings")).content.decode()
    assert f'data-vapid-key="{service.vapid_public_key}"' in page
    assert "Chrome, Android" in page and "Slå på varsler på denne enheten" in page
    form = {"email": "", "language": "nb", "email_kinds": [], "push_kinds": [Kind.REPORT_FILED]}
    response = client.post(reverse("notice_settings"), form | {"quiet_from": "22:00", "quiet_to": "07:00"})
    assert response.status_code == 302
    hours = NoticeSettings.objects.get(user=coach)
    assert (hours.quiet_from, hours.quiet_to) == (time(22), time(7))
    assert set(NoticePreference.objects.filter(user=coach, push=True).values_list("kind", flat=True)) == {
        Kind.REPORT_FILED
    }
    response = client.post(reverse("notice_settings"), form | {"quiet_from": "22:00", "quiet_to": ""})
    assert response.status_code == 422
    assert "Gi stilletimene både start og slutt" in response.content.decode()
    assert NoticeSettings.objects.get(user=coach).quiet_to == time(7)  # unchanged


def test_without_keys_the_page_says_push_is_off_and_saving_keeps_the_push_choices(people):
    coach = people["own"]
    NoticePreference.objects.create(user=coach, kind=Kind.REPORT_FILED, push=False)
    client = as_("own", people)
    page = client.get(reverse("notice_settings")).content.decode()
    assert 'id="push-off"' in page and "data-vapid-key" not in page
    client.post(reverse("notice_settings"), {"email": "", "language": "nb", "email_kinds": [Kind.BOARD_MESSAGE]})
    assert NoticePreference.objects.get(user=coach, kind=Kind.REPORT_FILED).push is False
    assert NoticePreference.objects.get(user=coach, kind=Kind.BOARD_MESSAGE).push is True


def test_vapid_keys_prints_a_pair_pywebpush_signs_with(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    assert len(unb64url(lines["VAPID_PUBLIC_KEY"])) == 65
    signer = Vapid.from_string(lines["VAPID_PRIVATE_KEY"])
    assert (
        "vapid t=" in signer.sign({"sub": lines["VAPID_SUBJECT"], "aud": "https://push.example.org"})["Authorization"]
    )


def test_the_script_s_post_needs_the_page_s_csrf_token(service):
    """The script sends the token the page carries (body hx-headers); without it the post changes nothing."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.user("kari"))
    phone = service.device()
    url = reverse("push_subscribe")
    assert client.post(url, phone.subscription(), content_type="application/json").status_code == 403
    assert not PushSubscription.objects.exists()
    page = client.get(reverse("notice_settings")).content.decode()
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}', page).group(1)
    response = client.post(url, phone.subscription(), content_type="application/json", headers={"X-CSRFToken": token})
    assert response.status_code == 201 and PushSubscription.objects.count() == 1


def test_a_coach_no_longer_active_is_not_pushed(service):
    coach = factories.user("kari")
    phone = subscribed(coach, service)
    [delivery] = PushDelivery.objects.filter(notification=board_message(coach))
    type(coach).objects.filter(pk=coach.pk).update(is_active=False)
    assert push.deliver(delivery.pk)[0] == State.SKIPPED
    assert phone.received == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
def test_two_workers_at_once_push_it_once(service):
    """Worker A holds the delivery while the push service is slow; worker B skips the locked row."""
    coach = factories.user("kari")
    phone = subscribed(coach, service)
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}):
        board_message(coach)
    [delivery] = PushDelivery.objects.all()
    sending, release = threading.Event(), threading.Event()
    real_send = push.send

    def slow_send(device, data):
        sending.set()
        release.wait(10)
        real_send(device, data)

    outcomes = {}

    def worker(name):
        try:
            outcomes[name] = push.deliver(delivery.pk)[0]
        finally:
            connection.close()

    with mock.patch.object(push, "send", slow_send):
        a = threading.Thread(target=worker, args=("a",))
        a.start()
        assert sending.wait(10)
        b = threading.Thread(target=worker, args=("b",))
        b.start()
        b.join(10)
        release.set()
        a.join(10)
    assert outcomes == {"a": State.SENT, "b": "busy"}
    assert push.deliver(delivery.pk)[0] == State.SENT and len(phone.received) == 1


@pytest.mark.django_db(transaction=True)  # the worker closes its connection between tasks
@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
def test_in_production_the_queue_s_worker_pushes_it_after_the_commit(service):
    from django_tasks_db.models import DBTaskResult

    coach = factories.user("kari")
    phone = subscribed(coach, service)
    with transaction.atomic():
        board_message(coach)
        assert DBTaskResult.objects.count() == 0  # not before the commit
    assert DBTaskResult.objects.filter(task_path="league.notices.push.send_push").count() == 1
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", stdout=mock.MagicMock())
    assert len(phone.received) == 1 and PushDelivery.objects.get().state == State.SENT
