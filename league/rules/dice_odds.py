"""How the dice should fall, and whether the dice that fell fit (Pearson's chi-square test of fit).

Pure arithmetic on counts: what each kind of roll the league makes should give (a D6 each face on 1/6,
2D6 a 7 on 6/36, …), how a stored roll is read into kinds and faces, and a judgement of observed counts
against those odds that says "too few rolls to tell" rather than call a die loaded from a handful.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

__all__ = [
    "MIN_EXPECTED",
    "UNUSUAL_P",
    "VERY_UNUSUAL_P",
    "DiceFit",
    "FitVerdict",
    "chi_square",
    "chi_square_survival",
    "dice_fit",
    "expected_faces",
    "kind_name",
    "read_roll",
]

# Cochran's rule of thumb: the chi-square approximation holds when every face is expected at least
# 5 times; with fewer, the p-value is not to be trusted, so we say there are too few rolls to tell.
MIN_EXPECTED = 5
# Below these p-values a fit is unusual (fewer than 1 series in 20 falls this skewed) and very unusual
# (fewer than 1 in 1,000): the usual significance levels, so a reader can compare with what he knows.
UNUSUAL_P = 0.05
VERY_UNUSUAL_P = 0.001


class FitVerdict:
    """What a fit says, as a key the pages put into words."""

    TOO_FEW = "too_few"
    ORDINARY = "ordinary"
    UNUSUAL = "unusual"
    VERY_UNUSUAL = "very_unusual"


def kind_name(*, count: int, sides: int, d66: bool = False) -> str:
    """The kind as the rulebook writes it: D6, 2D6, D8, D66."""
    if d66:
        return "D66"
    return f"{count if count > 1 else ''}D{sides}"


def read_roll(*, count: int, sides: int, d66: bool, values: Sequence[int]) -> list[tuple[str, int]]:
    """A stored roll as the (kind, face) pairs it is judged by. A D66 is one of 36 faces (11–66), two
    six-sided dice are their total (the rulebook's 2D6: weather, kick-off, development), one die its face;
    any other roll of several dice is read die by die (the gate's FF dice, the niggling checks, the chef's),
    as each die there stands alone and their total has no table."""
    if d66:
        return [("D66", 10 * values[0] + values[1])]
    if sides < 2:
        return []  # a die of one face (an MVP among one candidate) shows nothing about luck
    if count == 2 and sides == 6:
        return [("2D6", sum(values))]
    return [(kind_name(count=1, sides=sides), v) for v in values]


@cache
def _faces(kind: str) -> tuple[tuple[int, Fraction], ...]:
    if kind == "D66":
        return tuple((10 * a + b, Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7))
    count_text, _, sides_text = kind.upper().partition("D")
    count, sides = int(count_text or 1), int(sides_text)
    if count < 1 or sides < 1:
        raise ValueError(kind)
    # the total of `count` dice: the number of ways to make each total, one die added at a time
    ways = {0: 1}
    for _ in range(count):
        added: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                added[total + face] = added.get(total + face, 0) + n
        ways = added
    every = sides**count
    return tuple((total, Fraction(n, every)) for total, n in sorted(ways.items()))


def expected_faces(kind: str) -> dict[int, Fraction]:
    """Each face of a kind and its chance, exactly: expected_faces("2D6")[7] == Fraction(6, 36)."""
    return dict(_faces(kind))


def chi_square(observed: Mapping[int, int], expected: Mapping[int, Fraction]) -> float:
    """Pearson's statistic: the sum over the faces of (observed - expected)² / expected."""
    total = sum(observed.values())
    stray = set(observed) - set(expected)
    if stray:
        raise ValueError(f"faces the die does not have: {sorted(stray)}")
    return float(sum((observed.get(face, 0) - total * p) ** 2 / (total * p) for face, p in expected.items()))


def chi_square_survival(statistic: float, dof: int) -> float:
    """P(X ≥ statistic) for a chi-square of `dof` degrees of freedom: the regularized upper incomplete
    gamma Q(dof/2, statistic/2), by its series below a + 1 and its continued fraction above
    (Numerical Recipes §6.2), which each converge fast there."""
    if dof < 1:
        raise ValueError("a chi-square has at least one degree of freedom")
    a, x = dof / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


@dataclass(frozen=True)
class DiceFit:
    """Observed counts of a kind against its odds, and the judgement. `statistic` and `p_value` are None
    when there are too few rolls to tell."""

    kind: str
    rolls: int
    observed: dict[int, int]
    expected: dict[int, Fraction]
    statistic: float | None
    p_value: float | None
    verdict: str

    @property
    def dof(self) -> int:
        return len(self.expected) - 1

    @property
    def fewest_expected(self) -> float:
        return self.rolls * float(min(self.expected.values()))


def dice_fit(kind: str, observed: Mapping[int, int] | Iterable[int]) -> DiceFit:
    """Judge counts of a kind's faces ({face: count}, or the faces rolled) against its odds."""
    if not isinstance(observed, Mapping):
        counted: dict[int, int] = {}
        for face in observed:
            counted[face] = counted.get(face, 0) + 1
        observed = counted
    expected = expected_faces(kind)
    counts = {face: observed.get(face, 0) for face in expected}
    stray = set(observed) - set(expected)
    if stray:
        raise ValueError(f"faces a {kind} does not have: {sorted(stray)}")
    rolls = sum(counts.values())
    if rolls * min(expected.values()) < MIN_EXPECTED:
        return DiceFit(kind, rolls, counts, expected, None, None, FitVerdict.TOO_FEW)
    statistic = chi_square(counts, expected)
    p = chi_square_survival(statistic, len(expected) - 1)
    if p < VERY_UNUSUAL_P:
        verdict = FitVerdict.VERY_UNUSUAL
    elif p < UNUSUAL_P:
        verdict = FitVerdict.UNUSUAL
    else:
        verdict = FitVerdict.ORDINARY
    return DiceFit(kind, rolls, counts, expected, statistic, p, verdict)
