"""The notices' pages (issue 27), each write's permission matrix: the inbox and opening a notification,
marking all read, a coach's choices, the e-mail's unsubscribe link (logged out, RFC 8058), and the
board's message to all coaches. Bad input: a Norwegian message, nothing changed."""

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client
from django.urls import reverse

from league.lib.once import new_token
from league.models import NoticePreference, NoticeSettings, Notification
from league.notices import tokens
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
    assert user.email == "ny@example.org"
    assert NoticeSettings.objects.get(user=user).language == "en"
    off = set(NoticePreference.objects.filter(user=user, email=False).values_list("kind", flat=True))
    assert off == set(Kind.values) - {Kind.REPORT_FILED, Kind.BOARD_MESSAGE}
    assert not NoticePreference.objects.exclude(user=user).exists()  # his own, no one else's


def test_choices_shown_with_every_kind_ticked_by_default(people):
    html = as_("own", people).get(reverse("notice_settings")).content.decode()
    assert html.count('name="email_kinds"') == len(Kind.values)
    assert html.count("checked") == len(Kind.values)
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
