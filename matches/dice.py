"""Recorded dice: entered by a coach (rolled at the table) or rolled by the server with `secrets`.

A roll made for a purpose is returned again on a refresh, a resubmitted form or a second tab:
the (match, purpose) unique constraint decides, not a check in a view.

The demo league rolls the same dice from a seeded `random.Random` (`with dice.seeded(rng):`), so
`seed_demo --seed N` builds the same league every time; a real match never has a source set.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.lib.refusals import Refusal
from matches.models import DiceRoll, Match


class DiceError(Refusal):
    pass


_source: ContextVar[random.Random | None] = ContextVar("dice_source", default=None)


@contextmanager
def seeded(source: random.Random) -> Iterator[None]:
    """Server rolls come from `source` inside the block (the demo's repeatable league)."""
    token = _source.set(source)
    try:
        yield
    finally:
        _source.reset(token)


def randbelow(n: int) -> int:
    """0 ≤ x < n from the server's source: `secrets`, or the seeded source inside `seeded()`."""
    source = _source.get()
    return source.randrange(n) if source is not None else secrets.randbelow(n)


def check_entered(values: Sequence[int], *, sides: int, count: int, d66: bool = False) -> list[int]:
    """Entered dice as the coach typed them; each must be a face of the die."""
    label = "D66" if d66 else f"D{sides}"
    if len(values) != count:
        needed = ngettext(
            "%(n)s die of %(die)s is needed, not %(got)s.", "%(n)s dice of %(die)s are needed, not %(got)s.", count
        )
        raise DiceError([needed % {"n": count, "die": label, "got": len(values)}])
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= sides:
            if d66:
                raise DiceError([_("A D66 is two dice of 1–6 (11–66), not %(v)s.") % {"v": v}])
            raise DiceError([_("A %(die)s shows 1–%(sides)s, not %(v)s.") % {"die": label, "sides": sides, "v": v}])
        out.append(v)
    return out


def parse_entered(text: str, *, sides: int, count: int, d66: bool = False) -> list[int]:
    """Dice typed in a form: "3 5 1", "3,5,1" or a D66 as "35"."""
    text = (text or "").strip()
    if d66 and text.isdigit() and len(text) == 2:
        parts = [int(text[0]), int(text[1])]
    else:
        try:
            parts = [int(p) for p in text.replace(",", " ").replace("+", " ").split()]
        except ValueError:
            raise DiceError([_("Write the dice as numbers, e.g. 3 5 1.")]) from None
    return check_entered(parts, sides=sides, count=count, d66=d66)


def roll(
    match: Match,
    purpose: str,
    *,
    step: str,
    sides: int = 6,
    count: int = 1,
    d66: bool = False,
    entered: Sequence[int] | None = None,
    by: Any = None,
    team: Any = None,
    player: Any = None,
) -> DiceRoll:
    """The dice for this purpose: the stored ones if rolled before, else the entered or a server roll."""
    if d66:
        sides, count = 6, 2
    if entered is not None:
        values = check_entered(list(entered), sides=sides, count=count, d66=d66)
    else:
        values = [randbelow(sides) + 1 for _ in range(count)]
    # Insert or keep what is there: the unique (match, purpose) decides in one statement, so a refresh,
    # a resubmit or another tab gets the dice that were rolled first.
    DiceRoll.objects.bulk_create(
        [
            DiceRoll(
                match=match,
                purpose=purpose,
                step=step,
                sides=sides,
                count=count,
                d66=d66,
                values=values,
                entered=entered is not None,
                rolled_by=by if getattr(by, "is_authenticated", False) else None,
                team=team,
                player=player,
            )
        ],
        ignore_conflicts=True,
    )
    return DiceRoll.objects.get(match=match, purpose=purpose)


def draw(*, sides: int = 6, count: int = 1, entered: Sequence[int] | None = None) -> list[int]:
    """A roll's dice before it is stored: the entered ones checked, or the server's."""
    if entered is not None:
        return check_entered(list(entered), sides=sides, count=count)
    return [randbelow(sides) + 1 for _ in range(count)]


def store(match: Match, rolls: Sequence[DiceRoll]) -> dict[str, DiceRoll]:
    """Several rolls drawn with `draw`, stored in two statements (the match log's query budget); a
    purpose rolled before keeps its first dice, as with `roll`."""
    if not rolls:
        return {}
    DiceRoll.objects.bulk_create(rolls, ignore_conflicts=True)
    stored = DiceRoll.objects.filter(match=match, purpose__in=[d.purpose for d in rolls])
    return {d.purpose: d for d in stored}
