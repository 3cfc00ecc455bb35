"""The treasury ledger, the money API every app calls: a team's balance, its row locked, a line posted once.

Every write locks the team row (select_for_update) inside one transaction, so two purchases at the
same moment are serialized and cannot together spend more than the treasury holds; the ledger's
unique (team, seq) and balance ≥ 0 constraints are the database's backstop. A write that comes from a
rendered form takes its one-time token as `idempotency_key` (league.lib.once): the same form sent twice
acts once, the second is AlreadyDone."""

from __future__ import annotations

from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from league.lib.numbers import money, signed
from league.lib.once import FORM_KEY_PREFIX
from league.lib.refusals import AlreadyDone
from league.rules.messages import Msg
from teams.models import Team, TreasuryEntry
from teams.rosters import TeamRuleError

# --- the ledger ----------------------------------------------------------------------------------


def treasury(team: Team) -> int:
    last = team.ledger.order_by("-seq").values_list("balance", flat=True).first()
    return last or 0


def lock_team(team: Team | int) -> Team:
    """Lock the team row for the rest of the transaction; every gold movement goes through here."""
    pk = team.pk if isinstance(team, Team) else team
    return Team.objects.select_for_update().select_related("race", "ruleset").get(pk=pk)


def ensure_not_done(idempotency_key: str | None) -> None:
    """Refuse a form already carried out. Call after lock_team(): the lock orders two sends of one form,
    so the second sees the first's ledger line; the unique key in the database is the last guard."""
    if not idempotency_key:
        return
    entry = TreasuryEntry.objects.filter(idempotency_key=idempotency_key).first()
    if entry is not None:
        raise AlreadyDone(f"{entry.text}, {signed(entry.amount)}", result=entry)


def post_entry(
    team: Team,
    amount: int,
    *,
    kind: str,
    description: str,
    by: Any = None,
    cause: Model | None = None,
    idempotency_key: str | None = None,
) -> TreasuryEntry:
    """Add one ledger row. Call inside a transaction after lock_team(). Refuses to go below zero."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("post_entry must run inside transaction.atomic() with the team locked")
    if idempotency_key and TreasuryEntry.objects.filter(idempotency_key=idempotency_key).exists():
        return TreasuryEntry.objects.get(idempotency_key=idempotency_key)
    last = team.ledger.order_by("-seq").values_list("seq", "balance").first()
    seq, balance = last if last else (0, 0)
    if balance + amount < 0:
        raise TeamRuleError(
            [
                _("Not enough gold: %(cost)s needed, the treasury holds %(balance)s.")
                % {"cost": money(-amount), "balance": money(balance)}
            ]
        )
    entry = TreasuryEntry(
        team=team,
        seq=seq + 1,
        amount=amount,
        balance=balance + amount,
        kind=kind,
        description=str(description)[:200],  # a message's English text
        message=description if isinstance(description, Msg) else None,
        created_by=by if getattr(by, "is_authenticated", False) else None,
        cause_type=ContentType.objects.get_for_model(cause) if cause is not None else None,
        cause_id=cause.pk if cause is not None else None,
        idempotency_key=idempotency_key,
    )
    if not idempotency_key or not idempotency_key.startswith(FORM_KEY_PREFIX):
        # The sequences' own keys (winnings:<match>:<team>, healer:…) are ordered by their step's row lock.
        entry.save()
        return entry
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        # Another transaction wrote the same key first (one not ordered by this team's lock).
        ensure_not_done(idempotency_key)
        raise
    return entry


def pay(
    team: Team,
    cost: int,
    description: str,
    *,
    by: Any,
    cause: Model | None = None,
    idempotency_key: str | None = None,
) -> TreasuryEntry:
    return post_entry(
        team,
        -cost,
        kind=TreasuryEntry.Kind.PURCHASE,
        description=description,
        by=by,
        cause=cause,
        idempotency_key=idempotency_key,
    )
