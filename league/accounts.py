"""The league's two roles, the board (Styret) and the coaches (Trenere), as permissions.

A role is the permission `league.board` or `league.coach` (checked with has_perm), held through a
group; the group's name is only a label, so renaming it in the admin keeps its rights.
Beside the roles: the board deactivating a coach's account, and the throttles of log-ins and of the
links that choose a new password.
"""

import hashlib
from collections.abc import Iterable
from typing import Any

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.db.models import Q, QuerySet, Sum
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from league.lib.refusals import AlreadyDone, Refusal
from league.lib.writes import league_write
from league.models import AccountChange, Season  # the role permissions are declared on Season's Meta

BOARD = "board"
COACH = "coach"
# The names the two groups are created with.
BOARD_GROUP = "Styret"
COACH_GROUP = "Trenere"
ROLE_GROUPS = {BOARD: BOARD_GROUP, COACH: COACH_GROUP}
# axes: the board sees and deletes log-in lock-outs (unlocks) in the admin.
BOARD_APPS = ("league", "teams", "matches", "axes")


def roles(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    """The user's roles, as ModelBackend.has_perm would grant them (active users; superusers hold all;
    the permission held directly or through a group), read in one query and kept on the user object
    for the request, as has_perm keeps its cache; has_perm reads user and group permissions in two."""
    if not user.is_authenticated or not user.is_active:
        return frozenset()
    cached = getattr(user, "_league_roles", None)
    if cached is None:
        if user.is_superuser:
            cached = frozenset(ROLE_GROUPS)
        else:
            held = Permission.objects.filter(
                Q(user=user) | Q(group__user=user), content_type__app_label="league", codename__in=ROLE_GROUPS
            )
            cached = frozenset(held.values_list("codename", flat=True).distinct())
        user._league_roles = cached
    return cached


def is_board(user: AbstractBaseUser | AnonymousUser) -> bool:
    """The board may change anything in the league; superusers count as board."""
    return BOARD in roles(user)


def is_coach(user: AbstractBaseUser | AnonymousUser) -> bool:
    """A coach may found a team of his own; superusers count as coaches."""
    return COACH in roles(user)


def display_name(user: Any) -> str:
    """A person of the league (a coach, a board member) as every page and notice names him: his full name,
    else his username. "" for no one."""
    if user is None:
        return ""
    return person_name(getattr(user, "get_full_name", lambda: "")(), user.get_username())


def person_name(full_name: str, username: str) -> str:
    """`display_name` from the values a read without the user row has (a history's joined names)."""
    return (full_name or "").strip() or username or ""


def coach_name(full_name: str, username: str, teams: Iterable[str], *, private: bool) -> str:
    """A coach as a page names him: by `display_name` to members; to a visitor by his teams, for coaches'
    names are for members (`sees_private`), so a visitor never reads a username or an e-mail address."""
    if private:
        return person_name(full_name, username)
    return _("the coach of %(teams)s") % {"teams": ", ".join(teams)}


def sees_private(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Coaches' usernames and names, treasuries and ledgers: for logged-in members, unless the board
    publishes them (settings.PUBLIC_TEAM_DETAILS). Results, rosters and TR are public, as on paper."""
    return settings.PUBLIC_TEAM_DETAILS or user.is_authenticated


def holders(role: str) -> QuerySet:
    """The active users holding a role (directly, through a group, or as superusers), by name."""
    permission = role_permission(role)
    User = get_user_model()
    held = Q(user_permissions=permission) | Q(groups__permissions=permission)
    if role == BOARD:
        held |= Q(is_superuser=True)
    return User.objects.filter(held, is_active=True).distinct().order_by("first_name", "last_name", "username")


def role_permission(role: str) -> Permission:
    # Created here too: post_migrate may run for another app before league's permissions exist.
    permission, _ = Permission.objects.get_or_create(
        codename=role,
        content_type=ContentType.objects.get_for_model(Season),
        defaults={"name": dict(Season._meta.permissions)[role]},
    )
    return permission


def role_groups(role: str) -> QuerySet[Group]:
    return Group.objects.filter(permissions=role_permission(role))


def role_group(role: str) -> Group:
    """The group holding a role, whatever it is called now; made (by its first name) if none does."""
    group = role_groups(role).order_by("pk").first()
    if group is None:
        group, _ = Group.objects.get_or_create(name=ROLE_GROUPS[role])
        group.permissions.add(role_permission(role))
    return group


def grant_board_permissions(sender: Any = None, **kwargs: Any) -> None:
    role_group(BOARD)
    role_group(COACH)
    perms = (
        Permission.objects.filter(content_type__app_label__in=BOARD_APPS)
        | Permission.objects.filter(content_type__app_label="auth", content_type__model="user")
    ).exclude(content_type__app_label="league", codename__in=ROLE_GROUPS)  # roles come by their own groups
    for group in role_groups(BOARD):
        group.permissions.add(*perms)


def board_member_ids() -> set[int]:
    """The users who hold the board's role through a group or directly (superusers apart), in one query."""
    permission = role_permission(BOARD)
    users = get_user_model().objects.filter(Q(groups__permissions=permission) | Q(user_permissions=permission))
    return set(users.values_list("pk", flat=True))


def activation_refused(user: AbstractBaseUser, *, by: AbstractBaseUser, board_member: bool) -> str | None:
    """Why the board may not deactivate or reactivate this account in the app, or None. The admin's rule
    (league.user_admin): one board member does not shut out another, and a superuser's account is the
    superusers' own."""
    if user.pk == by.pk:
        return _("Your own account is not deactivated here.")
    if user.is_superuser:
        return _("A superuser's account is changed in the admin only.")
    if user.is_staff or board_member:
        return _("A board member's account is changed by a superuser, in the admin.")
    return None


@league_write
def set_active(user: AbstractBaseUser, *, active: bool, by: AbstractBaseUser) -> AbstractBaseUser:
    """The board deactivates a coach's account (he can no longer log in, and a session he has ends at his
    next request; his teams stay as they are) or lets him back in, recorded with who and when."""
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    refused = activation_refused(user, by=by, board_member=is_board(user))
    if refused:
        raise Refusal([refused])
    if user.is_active == active:
        raise AlreadyDone()
    user.is_active = active
    user.save(update_fields=["is_active"])
    AccountChange.objects.create(user=user, active=active, by=by)
    return user


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for log-in throttling: the peer, or the address PROXY_COUNT proxies saw.

    Each trusted proxy appends the address it received from, so the client is the PROXY_COUNT-th
    entry from the right; anything further left was sent by the client and could be forged.
    """
    if settings.PROXY_COUNT:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= settings.PROXY_COUNT:
            return forwarded[-settings.PROXY_COUNT]
    return request.META.get("REMOTE_ADDR")


# Log-in throttling. A club night shares one network, so the lock is on a username *from
# one address*: ten typos lock that coach at that address only, and no one elsewhere can lock him
# out by knowing his username. An address alone is locked after LOGIN_ADDRESS_FAILURE_LIMIT
# failures over any usernames, which stops password spraying without shutting out the club.
ACCOUNT_AT_ADDRESS = [["username", "ip_address"]]
ADDRESS = ["ip_address"]


def _recent_attempts(request: HttpRequest) -> QuerySet[AccessAttempt]:
    """The address's failed log-ins within the cool-off (older ones no longer count)."""
    since = timezone.now() - get_cool_off(request)
    return AccessAttempt.objects.filter(ip_address=client_ip(request), attempt_time__gte=since)


def address_is_locked(request: HttpRequest) -> bool:
    failures = _recent_attempts(request).aggregate(n=Sum("failures_since_start"))["n"] or 0
    return failures >= settings.LOGIN_ADDRESS_FAILURE_LIMIT


def lockout_parameters(request_or_attempt: Any, credentials: dict | None = None) -> list:
    """django-axes' AXES_LOCKOUT_PARAMETERS: what a failure counts against (see above)."""
    if isinstance(request_or_attempt, HttpRequest) and address_is_locked(request_or_attempt):
        return ADDRESS
    return ACCOUNT_AT_ADDRESS


def login_attempts(request: HttpRequest, username: str | None) -> QuerySet[AccessAttempt]:
    """The recent failed log-ins that lock this request out: the address's when it is locked as a
    whole, else the username's from this address."""
    attempts = _recent_attempts(request)
    return attempts if address_is_locked(request) else attempts.filter(username=username)


def login_tries_left(request: HttpRequest, username: str | None) -> int:
    """Wrong passwords left for this username from this address before the lock."""
    failures = login_attempts(request, username).aggregate(n=Sum("failures_since_start"))["n"] or 0
    return max(0, settings.AXES_FAILURE_LIMIT - failures)


# "Glemt passord?": links asked for within an hour, per address and per network, counted in Django's cache
# whatever the address (known or not: the answer must not tell). The local-memory cache counts per process;
# CACHE_URL shares one count between the app's processes.
RESET_PER_ADDRESS = 3
RESET_PER_NETWORK = 10
RESET_WINDOW_SECONDS = 3600


def _one_more(key: str) -> int:
    """The count under `key` after this one; its hour starts with the first."""
    cache.add(key, 0, RESET_WINDOW_SECONDS)
    try:
        return cache.incr(key)
    except ValueError:  # its hour ended between the two calls
        cache.set(key, 1, RESET_WINDOW_SECONDS)
        return 1


def password_reset_allowed(request: HttpRequest, email: str) -> bool:
    """Whether one more link may be sent for this address from this network (and count it)."""
    address = hashlib.sha256(email.strip().lower().encode()).hexdigest()
    by_address = _one_more(f"password-reset:address:{address}")
    by_network = _one_more(f"password-reset:network:{client_ip(request)}")
    return by_address <= RESET_PER_ADDRESS and by_network <= RESET_PER_NETWORK
