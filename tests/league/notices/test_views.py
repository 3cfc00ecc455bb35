"""The notices' pages (issue 27), each write's permission matrix: the inbox and opening a notification,
marking all read, a coach's choices, the e-mail's unsubscribe link (logged out, RFC 8058), and the
board's message to all coaches. Bad input: a Norwegian message, nothing changed."""

import re
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.lib.once import new_token
from league.models import NoticePreference, NoticeSettings, Notification
from league.notices import tokens
from league.notices.forms import BOARD_KINDS
from league.notices.services import notify
from tests import factories

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
ROLES = ["anonymous", "other", "own", "board"]


@pytest.fixture
def people(db):
    return {
        "own": factories.user("kari", email="kari@example.org"),
        "other": factories.user("ola"),
        "board": factories.user("styret", board=True, coach=False),
    }


@pytest.fixture
def notice(people):
    [made] = notify(
        [people["own"]], Kind.REPORT_CONFIRMED, url="/matches/1/", params={"match": "A – B", "score": "2–1"}
    )
    return made


def as_(role, people):
    client = Client()
    if role != "anonymous":
        client.force_login(people[role])
    return client


@pytest.mark.parametrize("role", ROLES)
def test_opening_a_notification_permission_matrix(role, people, notice):
    response = as_(role, people).get(reverse("notice_open", args=[notice.pk]))
    notice.refresh_from_db()
    if role == "own":
        assert response.status_code == 302 and response["Location"] == "/matches/1/"
        assert notice.read_at is not None
    else:
        assert response.status_code == (302 if role == "anonymous" else 404)
        assert notice.read_at is None


@pytest.mark.parametrize("role", ROLES)
def test_mark_all_read_permission_matrix(role, people, notice):
    [theirs] = notify([people["other"]], Kind.BOARD_MESSAGE, params={"subject": "s", "text": "t"})
    response = as_(role, people).post(reverse("notice_read_all"))
    assert response.status_code == 302
    unread = set(Notification.objects.filter(read_at__isnull=True).values_list("pk", flat=True))
    expected = {
        "anonymous": {notice.pk, theirs.pk},
        "other": {notice.pk},
        "own": {theirs.pk},
        "board": {notice.pk, theirs.pk},
    }
    assert unread == expected[role]


def test_the_inbox_shows_ones_own_in_norwegian_and_the_count(people, notice):
    notify([people["other"]], Kind.BOARD_MESSAGE, params={"subject": "Hemmelig", "text": "t"})
    client = as_("own", people)
    html = client.get(reverse("notices")).content.decode()
    assert "Rapporten din for A – B (2–1) er bekreftet." in html
    assert "Hemmelig" not in html
    assert 'class="nav-count">1<' in html
    client.get(reverse("notice_open", args=[notice.pk]))
    assert "nav-count" not in client.get(reverse("notices")).content.decode()
    assert as_("anonymous", people).get(reverse("notices")).status_code == 302


def test_mitt_lag_shows_the_notifications(people, notice):
    team = factories.human_team(people["own"])
    html = as_("own", people).get(reverse("coach_home")).content.decode()
    assert team.name in html and "Rapporten din for A – B (2–1) er bekreftet." in html
    assert reverse("notice_settings") in html


@pytest.mark.parametrize("role", ROLES)
def test_choices_permission_matrix(role, people):
    data = {"email": "ny@example.org", "language": "en", "email_kinds": [Kind.REPORT_FILED, Kind.BOARD_MESSAGE]}
    response = as_(role, people).post(reverse("notice_settings"), data)
    if role == "anonymous":
        assert response.status_code == 302 and "login" in response["Location"]
        assert not NoticePreference.objects.exists()
        return
    assert response.status_code == 302
    user = get_user_model().objects.get(pk=people[role].pk)
    assert user.email == people[role].email  # the new address waits for its link
    assert NoticeSettings.objects.get(user=user).pending_email == "ny@example.org"
    assert NoticeSettings.objects.get(user=user).language == "en"
    off = set(NoticePreference.objects.filter(user=user, email=False).values_list("kind", flat=True))
    assert off == set(Kind.values) - {Kind.REPORT_FILED, Kind.BOARD_MESSAGE}
    assert not NoticePreference.objects.exclude(user=user).exists()  # his own, no one else's


def test_choices_shown_with_every_kind_ticked_by_default(people):
    html = as_("own", people).get(reverse("notice_settings")).content.decode()
    offered = len(Kind.values) - len(BOARD_KINDS)  # a coach is offered none of the board's own kinds
    assert html.count('name="email_kinds"') == offered
    assert html.count("checked") == offered
    assert 'value="kari@example.org"' in html


def test_a_bad_address_is_refused_in_norwegian_and_nothing_changes(people):
    response = as_("own", people).post(reverse("notice_settings"), {"email": "not an address", "language": "nb"})
    assert response.status_code == 422
    assert "Oppgi en gyldig e-postadresse" in response.content.decode()
    assert get_user_model().objects.get(pk=people["own"].pk).email == "kari@example.org"
    assert not NoticePreference.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_unsubscribe_permission_matrix(role, people):
    """The token is the authority: whoever opens it (logged out, or as anyone) turns off that kind for
    the coach it names, and only for him."""
    url = reverse("notice_unsubscribe", args=[tokens.make(people["own"].pk, Kind.REPORT_FILED)])
    client = as_(role, people)
    page = client.get(url)
    assert page.status_code == 200 and "Meld av" in page.content.decode()
    assert not NoticePreference.objects.exists()  # a GET (a link scanner) changes nothing
    response = client.post(url)
    assert response.status_code == 200 and "Du får ikke lenger e-post" in response.content.decode()
    assert list(NoticePreference.objects.values_list("user_id", "kind", "email")) == [
        (people["own"].pk, Kind.REPORT_FILED, False)
    ]


def test_one_click_unsubscribe_from_a_mail_client_rfc_8058(people):
    url = reverse("notice_unsubscribe", args=[tokens.make(people["own"].pk, Kind.BOARD_MESSAGE)])
    client = Client(enforce_csrf_checks=True)  # a mail client sends no CSRF token
    response = client.post(url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert NoticePreference.objects.get(user=people["own"], kind=Kind.BOARD_MESSAGE).email is False


@pytest.mark.parametrize(
    "token",
    [
        "forged",
        tokens.make(1, "report_filed")[:-2] + "xx",
        signing.dumps([1, "report_filed"]),  # wrong salt
    ],
    ids=[
        "forged",
        "tampered",
        "wrong-salt",
    ],  # the signed ones hold a timestamp: xdist's workers must agree on the names
)
def test_a_forged_unsubscribe_link_is_refused_in_norwegian(people, token):
    response = Client().post(reverse("notice_unsubscribe", args=[token]))
    assert response.status_code == 422
    assert "Denne avmeldingslenken er ikke gyldig" in response.content.decode()
    assert not NoticePreference.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_board_message_permission_matrix(role, people, django_capture_on_commit_callbacks):
    inactive = factories.user("gammel", email="gammel@example.org")
    inactive.is_active = False
    inactive.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = as_(role, people).post(
            reverse("board_message"), {"subject": "Cupfinale", "text": "Lørdag kl. 12.", "token": new_token()}
        )
    made = Notification.objects.filter(kind=Kind.BOARD_MESSAGE)
    if role != "board":
        assert response.status_code == (302 if role == "anonymous" else 403)
        assert not made.exists()
        return
    assert response.status_code == 302
    assert set(made.values_list("recipient__username", flat=True)) == {"kari", "ola"}
    assert made.get(recipient=people["own"]).email_state == Notification.Email.SENT  # at once, in development
    assert made.get(recipient=people["other"]).email_state == Notification.Email.NONE  # no address


def test_an_empty_board_message_is_refused_in_norwegian(people):
    response = as_("board", people).post(reverse("board_message"), {"subject": " ", "text": "", "token": new_token()})
    assert response.status_code == 422
    assert "Feltet er påkrevet." in response.content.decode()
    assert not Notification.objects.exists()


def test_the_board_message_page_is_the_boards(people):
    assert reverse("board_message") in as_("board", people).get(reverse("notices")).content.decode()
    assert reverse("board_message") not in as_("own", people).get(reverse("notices")).content.decode()
    assert as_("board", people).get(reverse("board_message")).status_code == 200
    assert as_("own", people).get(reverse("board_message")).status_code == 403


def test_the_board_message_sent_twice_goes_out_once(people):
    """A double tap (the same form, its one-time token) tells each coach once, and says it went."""
    board = as_("board", people)
    form = {"subject": "Cupfinale", "text": "Lørdag kl. 12.", "token": new_token()}
    first, second = board.post(reverse("board_message"), form), board.post(reverse("board_message"), form, follow=True)
    assert first.status_code == 302 and second.status_code == 200
    assert Notification.objects.filter(kind=Kind.BOARD_MESSAGE, recipient=people["own"]).count() == 1
    assert "Meldingen gikk til 2 trenere." in second.content.decode()
    board.post(reverse("board_message"), {**form, "token": new_token()})  # a new form: a new message
    assert Notification.objects.filter(kind=Kind.BOARD_MESSAGE, recipient=people["own"]).count() == 2


# --- a new address, confirmed by the link sent to it ------------------------------------------------


@pytest.fixture
def mails(mailoutbox):
    return mailoutbox


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    """A POST and what runs after its commit (the link is sent then)."""

    def send(client, url, data=None, **extra):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url, data or {}, **extra)

    return send


def confirmation_link(message) -> str:
    return re.search(r"https?://[^/\s]+(/notices/confirm/[^\s]+/)", message.body).group(1)


def test_a_new_address_gets_a_link_and_mail_goes_to_the_old_one_until_it_is_opened(
    people, mails, post, django_capture_on_commit_callbacks
):
    """A mistyped address gets no notification: the new one is kept waiting, its link sent to it (in his
    language), the league's e-mails still go to the old one; the link's GET asks, its POST confirms, logged
    in or not; opened again, it changes nothing more."""
    kari = people["own"]
    client = as_("own", people)
    response = post(
        client,
        reverse("notice_settings"),
        {"email": "kari@ny.example.org", "language": "nb", "email_kinds": [Kind.BOARD_MESSAGE]},
        follow=True,
    )
    assert "Vi har sendt en lenke til kari@ny.example.org" in response.content.decode()
    assert "kari@ny.example.org venter på at du åpner lenken" in response.content.decode()
    [link_mail] = mails
    assert link_mail.to == ["kari@ny.example.org"] and "bekreft e-postadressen" in link_mail.subject
    with django_capture_on_commit_callbacks(execute=True):
        notify([kari], Kind.BOARD_MESSAGE, params={"subject": "Møte", "text": "Tirsdag"})
    assert mails[-1].to == ["kari@example.org"]  # the old address, until the new one is confirmed
    link = confirmation_link(link_mail)
    anonymous = Client()
    asked = anonymous.get(link).content.decode()
    assert "Gjøre kari@ny.example.org til adressen ligaens e-poster går til?" in asked and "Bekreft adressen" in asked
    assert get_user_model().objects.get(pk=kari.pk).email == "kari@example.org"  # a GET confirms nothing
    done = anonymous.post(link)
    assert done.status_code == 200 and "kari@ny.example.org er adressen din nå" in done.content.decode()
    assert get_user_model().objects.get(pk=kari.pk).email == "kari@ny.example.org"
    assert NoticeSettings.objects.get(user=kari).pending_email == ""
    assert anonymous.post(link).status_code == 200  # opened twice: the same answer, nothing more
    with django_capture_on_commit_callbacks(execute=True):
        notify([kari], Kind.BOARD_MESSAGE, params={"subject": "Møte", "text": "Onsdag"})
    assert mails[-1].to == ["kari@ny.example.org"]


def test_a_link_for_an_address_given_up_or_forged_or_expired_confirms_nothing(people, mails, post):
    client = as_("own", people)
    post(client, reverse("notice_settings"), {"email": "forst@example.org", "language": "nb"})
    first = confirmation_link(mails[-1])
    NoticeSettings.objects.filter(user=people["own"]).update(pending_sent_at=timezone.now() - timedelta(minutes=21))
    post(client, reverse("notice_settings"), {"email": "andre@example.org", "language": "nb"})
    given_up = Client().post(first)
    assert given_up.status_code == 422 and "venter ikke lenger på bekreftelse" in given_up.content.decode()
    forged = Client().post(reverse("notice_confirm", args=["forged"]))
    assert forged.status_code == 422 and "ugyldig eller utløpt" in forged.content.decode()
    old = signing.dumps([people["own"].pk, "andre@example.org"], salt=tokens.CONFIRM_SALT, compress=False)
    with mock.patch("django.core.signing.time.time", return_value=time.time() + 4 * 24 * 3600):
        expired = Client().post(reverse("notice_confirm", args=[old]))
    assert expired.status_code == 422 and "ugyldig eller utløpt" in expired.content.decode()
    assert get_user_model().objects.get(pk=people["own"].pk).email == "kari@example.org"


def test_an_empty_address_stops_the_mail_at_once_and_the_same_address_sends_no_link(people, mails, post):
    client = as_("own", people)
    post(client, reverse("notice_settings"), {"email": "kari@example.org", "language": "nb"})
    assert mails == []
    post(client, reverse("notice_settings"), {"email": "", "language": "nb"})
    assert get_user_model().objects.get(pk=people["own"].pk).email == ""
    assert mails == []


@pytest.mark.parametrize("role", ROLES)
def test_sending_the_link_again_permission_matrix(role, people, mails, post):
    """Each coach sends his own waiting address's link again; no one sends another's; without one waiting,
    a message says so."""
    post(as_("own", people), reverse("notice_settings"), {"email": "kari@ny.example.org", "language": "nb"})
    NoticeSettings.objects.filter(user=people["own"]).update(pending_sent_at=timezone.now() - timedelta(minutes=21))
    sent = len(mails)
    response = post(as_(role, people), reverse("notice_confirm_again"), follow=True)
    if role == "anonymous":
        assert len(mails) == sent
        return
    if role == "own":
        assert mails[-1].to == ["kari@ny.example.org"] and len(mails) == sent + 1
        assert "Vi har sendt lenken til kari@ny.example.org igjen" in response.content.decode()
    else:
        assert len(mails) == sent and "Ingen ny adresse venter på bekreftelse" in response.content.decode()


def test_saving_other_choices_keeps_the_address_waiting_and_its_link(people, mails, post):
    """The field shows the address waiting: saving the language or the kinds keeps it waiting and its link
    good (no second mail); his own address typed again gives the new one up."""
    client = as_("own", people)
    post(client, reverse("notice_settings"), {"email": "kari@ny.example.org", "language": "nb"})
    link = confirmation_link(mails[-1])
    page = client.get(reverse("notice_settings")).content.decode()
    assert 'value="kari@ny.example.org"' in page and "til da går ligaens e-poster til kari@example.org" in page
    saved = post(client, reverse("notice_settings"), {"email": "kari@ny.example.org", "language": "en"}, follow=True)
    assert len(mails) == 1 and "Vi har sendt" not in saved.content.decode()
    assert NoticeSettings.objects.get(user=people["own"]).pending_email == "kari@ny.example.org"
    assert Client().post(link).status_code == 200  # the first link still confirms it
    post(client, reverse("notice_settings"), {"email": "kari@neste.example.org", "language": "nb"})
    post(client, reverse("notice_settings"), {"email": "kari@ny.example.org", "language": "nb"})  # his own again
    assert NoticeSettings.objects.get(user=people["own"]).pending_email == ""


LIMIT_SAID = "Vi sender høyst én lenke for å bekrefte en adresse hvert 20. minutt: prøv igjen senere."


def test_the_link_is_sent_again_at_most_every_20_minutes(people, mails, post):
    client = as_("own", people)
    post(client, reverse("notice_settings"), {"email": "kari@ny.example.org", "language": "nb"})
    NoticeSettings.objects.filter(user=people["own"]).update(pending_sent_at=timezone.now() - timedelta(minutes=19))
    too_soon = post(client, reverse("notice_confirm_again"), follow=True)
    assert len(mails) == 1 and LIMIT_SAID in too_soon.content.decode()
    NoticeSettings.objects.filter(user=people["own"]).update(pending_sent_at=timezone.now() - timedelta(minutes=21))
    post(client, reverse("notice_confirm_again"))
    assert len(mails) == 2 and mails[-1].to == ["kari@ny.example.org"]


def test_saving_the_choices_twenty_times_between_two_addresses_sends_one_link(people, mails, post):
    """Before, each save sent a link: twenty e-mails to addresses that may be someone else's. The form says
    the limit beforehand, and again when it refuses (nothing saved)."""
    client = as_("own", people)
    page = client.get(reverse("notice_settings")).content.decode()
    assert "høyst én hvert 20. minutt" in page
    answers = [
        post(client, reverse("notice_settings"), {"email": f"{name}@example.org", "language": "nb"})
        for name in ["per", "pal"] * 10
    ]
    assert len(mails) == 1 and mails[0].to == ["per@example.org"]
    # each "pal" refused, said on the form; "per" again is the address already waiting: saved, no new link
    assert all(LIMIT_SAID in answer.content.decode() for answer in answers[1::2])
    assert NoticeSettings.objects.get(user=people["own"]).pending_email == "per@example.org"
    NoticeSettings.objects.filter(user=people["own"]).update(pending_sent_at=timezone.now() - timedelta(minutes=21))
    post(client, reverse("notice_settings"), {"email": "pal@example.org", "language": "nb"})
    assert len(mails) == 2 and mails[-1].to == ["pal@example.org"]


def test_the_link_leaves_through_the_task_queue_after_the_commit(people, post):
    """As the notices do: the request does not wait for the mail server (the worker sends it in production)."""
    from league.notices import delivery

    with mock.patch.object(delivery, "send_confirmation") as task:
        post(as_("own", people), reverse("notice_settings"), {"email": "kari@ny.example.org", "language": "nb"})
    task.enqueue.assert_called_once_with(people["own"].pk, "kari@ny.example.org")
