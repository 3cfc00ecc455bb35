"""The notices' writes: `notify` inside a writing service's transaction, the inbox marked read,
a coach's choices, an unsubscribe, and the board's message to every coach.

Notification rows are on no public page: marking one read raises no league version (a coach opening his
inbox must not empty everyone's page cache), so those writes are plain transactions. What changes the
user's row (his e-mail address) is a league write, as every write of a user is."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from league.accounts import COACH, is_board, role_permission
from league.lib.once import form_key
from league.lib.refusals import AlreadyDone, Refusal
from league.lib.writes import league_write
from league.models import LeagueSettings, NoticePreference, NoticeSettings, Notification
from league.notices import push, tokens
from league.notices.delivery import enqueue, enqueue_confirmation
from league.notices.webhooks import Event, Kind, announce

# One per match and coach (the model's constraint): a second run inserts nothing.
ONCE_PER_MATCH = frozenset(
    {Notification.Kind.PREMATCH_REMINDER, Notification.Kind.POSTMATCH_REMINDER, Notification.Kind.REOPENED_OVERDUE}
)


class NoticeError(Refusal):
    pass


def notify(
    recipients: Iterable[Any],
    kind: str,
    *,
    match: Any = None,
    url: str = "",
    params: dict[str, str | int] | None = None,
    reminded_for: date | None = None,
    action: str = "",
    mail_every: timedelta | None = None,
) -> list[Notification]:
    """One notification per recipient (the inbox), stored in the caller's transaction; once it commits, the
    e-mails of those who want this kind by e-mail are queued (league.notices.delivery), and its pushes to the
    devices of those who want it pushed (league.notices.push: a kind once per match and device). Returns the rows
    made (a reminder already made for that match and coach is not made again). `action`: the key of the
    to-do it asks for (matches.selectors.action_key); the notice waits while that to-do does. `mail_every`:
    a recipient e-mailed this kind about this match within that time gets this one in the inbox only, so
    a coach's clicks cannot fill another's mailbox."""
    users = {user.pk: user for user in recipients if user is not None}
    if not users:
        return []
    kind = Notification.Kind(kind)
    muted = set(
        NoticePreference.objects.filter(user__in=list(users), kind=kind, email=False).values_list("user_id", flat=True)
    )
    if mail_every is not None and match is not None:
        muted |= set(
            Notification.objects.filter(
                recipient__in=list(users), kind=kind, match=match, created_at__gte=timezone.now() - mail_every
            )
            .exclude(email_state=Notification.Email.NONE)
            .values_list("recipient_id", flat=True)
        )
    rows = [
        Notification(
            recipient=user,
            kind=kind,
            match=match,
            url=url or (match.get_absolute_url() if match is not None else ""),
            params=dict(params or {}),
            reminded_for=reminded_for,
            action=action,
            email_state=(
                Notification.Email.PENDING
                if user.email and user.is_active and pk not in muted
                else Notification.Email.NONE
            ),
        )
        for pk, user in users.items()
    ]
    if kind in ONCE_PER_MATCH:
        made = []
        for row in rows:
            try:
                with transaction.atomic():  # a savepoint: the constraint's refusal leaves the rest standing
                    row.save()
            except IntegrityError:
                continue
            made.append(row)
        rows = made
    else:
        rows = Notification.objects.bulk_create(rows)
    if match is not None:  # what the match's newest notice says replaces older news of it
        older = Notification.objects.filter(recipient__in=list(users), match=match, action="", read_at__isnull=True)
        older.exclude(pk__in=[row.pk for row in rows]).update(read_at=timezone.now())
    pending = [row.pk for row in rows if row.email_state == Notification.Email.PENDING]
    if pending:
        transaction.on_commit(lambda: enqueue(pending))
    if pushes := push.plan(rows):
        transaction.on_commit(lambda: push.enqueue(pushes))
    return rows


def mark_read(*, user: AbstractBaseUser, notification_id: int) -> Notification:
    """The coach opened one of his notifications: read from now (another's is not found)."""
    with transaction.atomic():
        notification = Notification.objects.select_for_update().filter(recipient=user, pk=notification_id).first()
        if notification is None:
            raise Notification.DoesNotExist
        if notification.read_at is None:
            notification.read_at = timezone.now()
            notification.save(update_fields=["read_at"])
    return notification


def mark_all_read(*, user: AbstractBaseUser) -> int:
    return Notification.objects.filter(recipient=user, read_at__isnull=True).update(read_at=timezone.now())


@league_write
def save_choices(
    *,
    user: AbstractBaseUser,
    email: str,
    language: str,
    email_kinds: Iterable[str],
    push_kinds: Iterable[str] = (),
    quiet_from: time | None = None,
    quiet_to: time | None = None,
) -> str:
    """A coach's address, the language of the coach's e-mails and pushes, the kinds wanted by e-mail and
    pushed (the rest: the inbox only), and the quiet hours with no push (both or neither). A new address
    waits for the coach to open the link sent to it (`confirm_email`): until then mail goes to the one
    before, and none to an address someone mistyped. An empty one stops e-mails at once. The new address
    waiting, or "" when none is."""
    email = email.strip()
    problems = []
    if email:
        try:
            validate_email(email)
        except ValidationError:
            problems.append(_("Enter a valid e-mail address."))
    if language not in dict(NoticeSettings._meta.get_field("language").choices):
        problems.append(_("Choose a language."))
    wanted, pushed = set(email_kinds), set(push_kinds)
    if (wanted | pushed) - set(Notification.Kind.values):
        problems.append(_("Choose among the kinds listed."))
    if (quiet_from is None) != (quiet_to is None) or (quiet_from is not None and quiet_from == quiet_to):
        problems.append(_("Give the quiet hours both a start and an end, not the same time, or leave both empty."))
    if problems:
        raise NoticeError(problems)
    User = get_user_model()
    locked = User.objects.select_for_update().get(pk=user.pk)
    pending = "" if email.lower() == locked.email.lower() else email  # his own address again: none waits
    if not email and locked.email:
        locked.email = user.email = ""  # no address: no e-mail, at once
        locked.save(update_fields=["email"])
    choices, _made = NoticeSettings.objects.select_for_update().get_or_create(user=locked)
    new = bool(pending) and pending.lower() != choices.pending_email.lower()
    if new and _sent_lately(choices, timezone.now()):
        raise NoticeError([confirmation_limit_said()])
    choices.language, choices.pending_email = language, pending
    choices.quiet_from, choices.quiet_to = quiet_from, quiet_to
    if new:
        choices.pending_sent_at = timezone.now()
    choices.save(update_fields=["language", "pending_email", "pending_sent_at", "quiet_from", "quiet_to"])
    for kind in Notification.Kind.values:
        NoticePreference.objects.update_or_create(
            user=locked, kind=kind, defaults={"email": kind in wanted, "push": kind in pushed}
        )
    if new:  # its link; the same address saved again sends none ("Send the link again" does)
        transaction.on_commit(lambda: enqueue_confirmation(locked.pk, pending))
    return pending if new else ""


# A confirmation link waits this long after the last one, for a new address or sent again: at most three an
# hour, so saving the form between two addresses cannot mail someone else's inbox twenty times.
CONFIRMATION_EVERY = timedelta(minutes=20)


def confirmation_limit_said() -> str:
    return _("A link to confirm an address is sent at most once every %(minutes)s minutes: try again later.") % {
        "minutes": int(CONFIRMATION_EVERY.total_seconds() // 60)
    }


def _sent_lately(choices: NoticeSettings, now: datetime) -> bool:
    return choices.pending_sent_at is not None and now - choices.pending_sent_at < CONFIRMATION_EVERY


@league_write
def resend_confirmation(*, user: AbstractBaseUser) -> str:
    """The link for the address waiting, sent again (a lost or expired one), at most every CONFIRMATION_EVERY."""
    choices = NoticeSettings.objects.select_for_update().filter(user=user).first()
    if choices is None or not choices.pending_email:
        raise NoticeError([_("No new address waits for its confirmation.")])
    now = timezone.now()
    if _sent_lately(choices, now):
        raise NoticeError([confirmation_limit_said()])
    choices.pending_sent_at = now
    choices.save(update_fields=["pending_sent_at"])
    pending = choices.pending_email
    transaction.on_commit(lambda: enqueue_confirmation(user.pk, pending))
    return pending


@league_write
def confirm_email(*, token: str) -> AbstractBaseUser:
    """The link sent to a new address, opened: it becomes the coach's address. The signed token is the
    authority (no log-in: the link works from the mail client); it holds the address, so an older link,
    for an address he has since changed again, confirms nothing."""
    try:
        user_id, email = tokens.read_confirmation(token)
    except tokens.BadToken:
        raise NoticeError(
            [_("This link is not valid or has expired: “Send the link again” on your e-mail choices sends a new one.")]
        ) from None
    user = get_user_model().objects.select_for_update().filter(pk=user_id, is_active=True).first()
    choices = NoticeSettings.objects.select_for_update().filter(user_id=user_id).first()
    if user is not None and user.email.lower() == email.lower() and (choices is None or not choices.pending_email):
        return user  # the link opened twice: it is his address already
    if user is None or choices is None or choices.pending_email.lower() != email.lower():
        raise NoticeError([_("This address no longer waits for its confirmation: give it again on your page.")])
    user.email = choices.pending_email
    user.save(update_fields=["email"])
    choices.pending_email = ""
    choices.save(update_fields=["pending_email"])
    return user


def unsubscribe(*, token: str) -> tuple[AbstractBaseUser, str]:
    """The one-click unsubscribe of an e-mail: its kind by e-mail off for its recipient. The signed token
    is the authority (no log-in: the link works from any mail client)."""
    invalid = NoticeError([_("This unsubscribe link is not valid. Choose what you get by e-mail on your page.")])
    try:
        user_id, kind = tokens.read(token)
    except tokens.BadToken:
        raise invalid from None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise invalid
    with transaction.atomic():
        NoticePreference.objects.update_or_create(user=user, kind=kind, defaults={"email": False})
    return user, kind


def active_coaches() -> list[AbstractBaseUser]:
    """Every active user holding the coach role (directly or through a group)."""
    permission = role_permission(COACH)
    held = Q(user_permissions=permission) | Q(groups__permissions=permission)
    return list(get_user_model().objects.filter(held, is_active=True).distinct())


@league_write
def save_league_settings(*, by: AbstractBaseUser, prematch_days: int, postmatch_days: int, board_days: int) -> None:
    """The reminders' days and when an open action reaches the board's desk; the history keeps who changed
    them and when."""
    if not is_board(by):
        raise NoticeError([_("Only the board sets the reminders.")])
    row, _made = LeagueSettings.objects.select_for_update().get_or_create(pk=1)
    row.prematch_days, row.postmatch_days, row.board_days = prematch_days, postmatch_days, board_days
    row._history_user = by
    row.save()


@league_write
def message_coaches(*, by: AbstractBaseUser, subject: str, text: str, token: str = "") -> int:
    """The board's message to every active coach: in each inbox, and by e-mail to those who want it.
    Returns how many coaches it went to. The form's one-time `token` makes a second send of the same
    form tell no one again."""
    if not is_board(by):
        raise NoticeError([_("Only the board writes to all coaches.")])
    key = form_key(token, "board_message") if token else ""
    if key:
        # the sender's row locked: his two sends of one form run one after the other, the second sees the first
        get_user_model().objects.select_for_update().filter(pk=by.pk).first()
        sent = Notification.objects.filter(kind=Notification.Kind.BOARD_MESSAGE, params__key=key).count()
        if sent:
            raise AlreadyDone(result=sent)
    subject, text = subject.strip(), text.strip()
    problems = []
    if not subject:
        problems.append(_("Give the message a subject."))
    if not text:
        problems.append(_("Write the message."))
    if problems:
        raise NoticeError(problems)
    params = {"subject": subject[:150], "text": text, **({"key": key} if key else {})}
    made = notify(active_coaches(), Notification.Kind.BOARD_MESSAGE, params=params)
    with translation.override(settings.LANGUAGE_CODE):
        line = _("From the board: %(subject)s") % {"subject": params["subject"]}
    event_key = f"board_message:{key or uuid.uuid4().hex}"
    announce(Event(Kind.BOARD_MESSAGE, event_key, line, sections=((params["subject"], text),), data=params))
    return len(made)
