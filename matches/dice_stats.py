"""How a team's, a coach's or a season's dice fell, kind by kind, against the odds (league.rules.dice_odds).

One query whatever the number of rolls: the stored rolls grouped by how they were made (typed at the
table or rolled by the server), their dice and what they were for, counted by the database; the
grouping's rows (a few hundred at most: each kind has a handful of faces) are read into faces here.
Typed and rolled dice are never added together: the typed test the coaches' own dice and typing,
the server's test the server.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Value
from django.db.models.functions import Concat, Left, StrIndex

from league import rules
from matches.models import DiceRoll

# the kinds in the order a page shows them: the D6 and 2D6 first, as the rulebook rolls them most
KIND_ORDER = {"D6": 0, "2D6": 1, "D66": 2}


@dataclass(frozen=True)
class FaceRow:
    face: int
    observed: int
    observed_percent: float
    expected_percent: float


@dataclass(frozen=True)
class KindDice:
    """The dice of one kind, typed or rolled: each face's count and share against its odds, the fit, and
    what they were rolled for (DiceRoll.PURPOSES' keys with their number of rolls, most first)."""

    kind: str
    entered: bool
    fit: rules.DiceFit
    faces: list[FaceRow]
    uses: list[tuple[str, int]]


def _purpose_key() -> Left:
    """A purpose without its ids ("niggling:12" → "niggling"), for grouping by what a roll was for."""
    return Left("purpose", StrIndex(Concat("purpose", Value(":")), Value(":")) - 1)


def dice_by_kind(rolls: QuerySet[DiceRoll]) -> list[KindDice]:
    """The rolls' dice counted by kind and face, the server's rolls first, then the typed ones."""
    grouped = (
        rolls.order_by()  # the model's ordering would be grouped by too
        .annotate(use=_purpose_key())
        .values("entered", "count", "sides", "d66", "values", "use")
        .annotate(n=Count("id"))
    )
    faces: dict[tuple[bool, str], dict[int, int]] = defaultdict(dict)
    uses: dict[tuple[bool, str], dict[str, int]] = defaultdict(dict)
    for row in grouped:
        read = rules.read_roll(count=row["count"], sides=row["sides"], d66=row["d66"], values=row["values"])
        for kind, face in read:
            counted = faces[row["entered"], kind]
            counted[face] = counted.get(face, 0) + row["n"]
        for kind in {kind for kind, _face in read}:
            used = uses[row["entered"], kind]
            used[row["use"]] = used.get(row["use"], 0) + row["n"]
    return [
        _kind_dice(kind, entered, faces[entered, kind], uses[entered, kind])
        for entered, kind in sorted(faces, key=lambda key: (key[0], KIND_ORDER.get(key[1], 9), _sides(key[1])))
    ]


def _sides(kind: str) -> int:
    return int(kind.rpartition("D")[2])


def _kind_dice(kind: str, entered: bool, counted: dict[int, int], used: dict[str, int]) -> KindDice:
    fit = rules.dice_fit(kind, counted)
    faces = [
        FaceRow(
            face=face,
            observed=fit.observed[face],
            observed_percent=100 * fit.observed[face] / fit.rolls if fit.rolls else 0.0,
            expected_percent=float(100 * p),
        )
        for face, p in fit.expected.items()
    ]
    return KindDice(kind, entered, fit, faces, sorted(used.items(), key=lambda item: (-item[1], item[0])))


def team_rolls(team_id: int) -> QuerySet[DiceRoll]:
    """A team's dice: those rolled for it, and its players' (the injuries' dice name the player only).
    A match's own dice (the weather) belong to no team."""
    return DiceRoll.objects.filter(Q(team_id=team_id) | Q(team__isnull=True, player__team_id=team_id))


def coach_rolls(coach_id: int) -> QuerySet[DiceRoll]:
    """The dice of every team the coach has had."""
    return DiceRoll.objects.filter(Q(team__coach_id=coach_id) | Q(team__isnull=True, player__team__coach_id=coach_id))


def season_rolls(season_id: int) -> QuerySet[DiceRoll]:
    """Every die of the season's matches, the weather's too."""
    return DiceRoll.objects.filter(match__season_id=season_id)
