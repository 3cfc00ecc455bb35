"""The geometry of the charts the templates draw as SVG: a drawing box in the SVG's user units, a value's
place on a scale, round ticks, the points of a line broken where a value is missing, the bands of a series
grouped (a season's matches), and a table race's lines. Plain Python, no Django: the charts are tested
without a page (tests/league/test_charts.py), and a template only writes the numbers out.

Coordinates are rounded to one decimal: the SVG stays small, and a test can compare them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

# Dark enough to read as text on the cards' white (WCAG 2.1 AA: 4.5:1 and more, tested), so a line's
# colour is also its team name's; they differ in hue, and the names say which line is whose anyway.
PALETTE = (
    "#1f5d2e",  # the pitch's green
    "#1f4e99",
    "#a12622",
    "#7a5a00",
    "#6a1b9a",
    "#00695c",
    "#ad1457",
    "#4e342e",
    "#283593",
    "#bf360c",
    "#37474f",
    "#33691e",
)
CHAR_WIDTH = 0.62  # a character's mean width in the charts' sans-serif, in ems (wide enough for "Grünerløkka")
TICK_FONT = 10  # the value labels' size (.chart__tick), in the SVG's units
TICK_GAP = 5  # between a value label and the plot (Box.tick_x)


@dataclass(frozen=True)
class Box:
    """A chart's drawing (its viewBox; the page scales it to its column) and the plot inside its
    margins: the value labels on the left, room under and above for the other labels."""

    width: int = 360
    height: int = 120
    left: int = 44
    right: int = 8
    top: int = 16
    bottom: int = 10

    @property
    def plot_left(self) -> int:
        return self.left

    @property
    def plot_right(self) -> int:
        return self.width - self.right

    @property
    def plot_top(self) -> int:
        return self.top

    @property
    def plot_bottom(self) -> int:
        return self.height - self.bottom

    @property
    def tick_x(self) -> int:
        """Where the value labels end, right-aligned beside the plot."""
        return self.left - TICK_GAP

    @property
    def band_y(self) -> int:
        """The baseline of the bands' labels, above the plot."""
        return self.top - 5


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: float


@dataclass(frozen=True)
class Tick:
    value: float
    y: float

    @property
    def label_y(self) -> float:
        """The baseline that centres a 10-unit label on the tick's line."""
        return _round(self.y + 3.5)


@dataclass(frozen=True)
class Band:
    """The slots of one group (a season's matches) from edge to edge, its label where it fits."""

    label: str
    x0: float
    x1: float
    first: bool

    @property
    def label_x(self) -> float:
        return _round(self.x0 + 3)


@dataclass(frozen=True)
class LineChart:
    box: Box
    xs: list[float]  # each slot's centre
    points: list[Point | None]  # one a slot; None where the value is unknown
    segments: list[str]  # each run of known points as an SVG `points` attribute
    ticks: list[Tick]


def _round(v: float) -> float:
    return round(v, 1)


def nice_step(span: float, most: int) -> float:
    """The smallest of 1, 2 and 5 times a power of ten that cuts `span` into at most `most` steps."""
    if span <= 0:
        return 1
    power = 10 ** math.floor(math.log10(span / most))
    for factor in (1, 2, 5, 10):
        if span / (factor * power) <= most:
            return factor * power
    return 10 * power  # pragma: no cover - 10 × power always fits


def ticks(lo: float, hi: float, most: int = 4, *, whole: bool = True) -> list[float]:
    """Round values from at or below `lo` to at or above `hi`, at most `most` steps apart: the scale's
    labels. `whole`: counts and gold have no fractions, so a step is never below 1."""
    step = nice_step(hi - lo, most)
    if whole:
        step = max(1, step)
    first = math.floor(lo / step) * step
    last = math.ceil(hi / step) * step
    if last == first:
        last = first + step
    n = round((last - first) / step)
    marks = [first + i * step for i in range(n + 1)]
    return [round(m) for m in marks] if whole else [round(m, 10) for m in marks]


def scale(value: float, lo: float, hi: float, a: float, b: float) -> float:
    """`value`'s place between a and b as it lies between lo and hi (the middle where they are equal)."""
    if hi == lo:
        return _round((a + b) / 2)
    return _round(a + (value - lo) * (b - a) / (hi - lo))


def slots(n: int, left: float, right: float) -> list[float]:
    """The centres of n equal slots from left to right."""
    width = (right - left) / n if n else 0
    return [_round(left + width * (i + 0.5)) for i in range(n)]


def segments(points: Sequence[Point | None]) -> list[str]:
    """Each run of known points as an SVG polyline's `points`, broken where a value is missing."""
    runs: list[list[Point]] = [[]]
    for p in points:
        if p is None:
            runs.append([])
        else:
            runs[-1].append(p)
    return [" ".join(f"{p.x},{p.y}" for p in run) for run in runs if run]


def room_for_ticks(box: Box, marks: Sequence[float], font: float = TICK_FONT) -> Box:
    """The box with its left margin wide enough for the longest value label, grouped by thousands as the
    page writes it ("1 000 000"): a treasury past a million was cut to "000 000" on a phone."""
    longest = max((len(f"{round(m):,}") for m in marks), default=0)
    need = math.ceil(longest * font * CHAR_WIDTH + TICK_GAP + 2)
    return replace(box, left=need) if need > box.left else box


def line_chart(
    values: Sequence[float | None], box: Box = Box(), *, from_zero: bool = False, most: int = 4
) -> LineChart:
    """A value a slot (a match) as a line on a scale of round ticks; `from_zero` for amounts that start
    at nothing (SPP, gold)."""
    known = [v for v in values if v is not None]
    lo, hi = (min(known), max(known)) if known else (0, 1)
    if from_zero:
        lo = min(lo, 0)
    marks = ticks(lo, hi, most)
    bottom, top = marks[0], marks[-1]
    box = room_for_ticks(box, marks)
    xs = slots(len(values), box.plot_left, box.plot_right)

    def y(v: float) -> float:
        return scale(v, bottom, top, box.plot_bottom, box.plot_top)

    points = [None if v is None else Point(x, y(v), v) for x, v in zip(xs, values, strict=True)]
    return LineChart(box, xs, points, segments(points), [Tick(v, y(v)) for v in marks])


def fits(label: str, room: float, font: float) -> bool:
    return len(label) * font * CHAR_WIDTH <= room


def shorten(label: str, room: float, font: float) -> str:
    """The label cut with an ellipsis to what fits in `room` units at `font` size."""
    most = max(1, int(room / (font * CHAR_WIDTH)))
    return label if len(label) <= most else label[: most - 1].rstrip() + "…"


def bands(groups: Sequence[str], xs: Sequence[float], box: Box, *, font: float = 10) -> list[Band]:
    """The slots grouped by their consecutive equal `groups` (a team's seasons), edge to edge; a label
    only where it fits its band (the table under the chart names every season)."""
    if not xs:
        return []
    half = (xs[1] - xs[0]) / 2 if len(xs) > 1 else (box.plot_right - box.plot_left) / 2
    found: list[Band] = []
    start = 0
    for i in range(1, len(groups) + 1):
        if i == len(groups) or groups[i] != groups[start]:
            x0 = _round(max(box.plot_left, xs[start] - half))
            x1 = _round(min(box.plot_right, xs[i - 1] + half))
            label = groups[start] if fits(groups[start], x1 - x0 - 4, font) else ""
            found.append(Band(label, x0, x1, first=start == 0))
            start = i
    return found


@dataclass(frozen=True)
class RaceLine:
    """A team's positions round by round, its colour, and its name beside the plot in the row of its
    place in the table now (teams level share a position but not a row)."""

    name: str
    label: str  # the name as it fits beside the plot
    colour: str
    points: list[Point | None]
    segments: list[str]
    label_y: float
    last: Point | None  # where the line ends, joined to its name when the row is not its own

    @property
    def label_baseline(self) -> float:
        return _round(self.label_y + 3.5)


@dataclass(frozen=True)
class RaceChart:
    box: Box
    xs: list[float]
    rounds: list[int]
    positions: list[Tick]  # 1 at the top, the last place at the bottom
    lines: list[RaceLine]
    label_x: float

    @property
    def round_y(self) -> float:
        """The baseline of the rounds' numbers under the plot."""
        return self.box.plot_bottom + 13

    @property
    def rounds_at(self) -> list[tuple[int, float]]:
        """Each round's number and where it goes: every round's where there is room, else every other."""
        step = 1 if len(self.xs) < 2 or self.xs[1] - self.xs[0] >= 14 else 2
        return [(n, x) for i, (n, x) in enumerate(zip(self.rounds, self.xs, strict=True)) if i % step == 0]


RACE_ROW = 18  # a place's height: room for a name at the charts' 10-unit font


def race_chart(
    rounds: Sequence[int], teams: Sequence[tuple[str, Sequence[int | None]]], *, width: int = 360, font: float = 10
) -> RaceChart:
    """A division's table race: each team's position after each round, 1 at the top. `teams` in the
    order of the table now, each with its name and its position after each of `rounds`."""
    places = max(len(teams), 1)
    box = Box(width=width, height=RACE_ROW * places + 24, left=18, right=124, top=10, bottom=18)
    xs = slots(len(rounds), box.plot_left, box.plot_right)

    def y(position: float) -> float:
        return scale(position, 1, places, box.plot_top + 4, box.plot_bottom - 4)

    lines = []
    for row, (name, positions) in enumerate(teams, start=1):
        points = [None if p is None else Point(x, y(p), p) for x, p in zip(xs, positions, strict=True)]
        last = next((p for p in reversed(points) if p is not None), None)
        lines.append(
            RaceLine(
                name=name,
                label=shorten(name, box.right - 10, font),
                colour=PALETTE[(row - 1) % len(PALETTE)],
                points=points,
                segments=segments(points),
                label_y=y(row),
                last=last,
            )
        )
    marks = [Tick(p, y(p)) for p in range(1, places + 1)]
    return RaceChart(box, xs, list(rounds), marks, lines, label_x=box.plot_right + 8)


# A stacked bar chart's drawing box (a coach's record by season): a row a bar, its name on the left, its
# parts to the right on one scale.
BARS_WIDTH, BARS_LABEL, BARS_ROW, BAR, BARS_AXIS = 360, 112, 24, 16, 16
BARS_PLOT = BARS_WIDTH - BARS_LABEL - 4
BAR_NAME_CHARS = 18  # a longer name is cut, whole in the table below the chart
BAR_NUMBER_ROOM = 14  # a part narrower than this shows no number (the table has it)


@dataclass(frozen=True)
class BarPart:
    outcome: str
    count: int
    x: float
    width: float
    center: float
    shown: bool  # wide enough for its number


@dataclass(frozen=True)
class BarRow:
    label: str
    y: float
    text_y: float
    parts: list[BarPart]


@dataclass(frozen=True)
class StackedBars:
    width: int
    height: int
    rows: list[BarRow]
    top: int
    left: int
    right: int
    axis_y: int
    scale_y: int


def stacked_bars(rows: Sequence[tuple[str, Sequence[tuple[str, int]]]]) -> StackedBars:
    """Each row's named counts as one bar of parts, on one scale: the largest total fills the plot; a part of
    none is left out."""
    top = max([sum(count for _name, count in parts) for _label, parts in rows] + [1])
    drawn = []
    for i, (label, counts) in enumerate(rows):
        x = float(BARS_LABEL)
        parts = []
        for name, count in counts:
            width = BARS_PLOT * count / top
            parts.append(
                BarPart(name, count, round(x, 1), round(width, 1), round(x + width / 2, 1), width >= BAR_NUMBER_ROOM)
            )
            x += width
        label = label if len(label) <= BAR_NAME_CHARS else label[: BAR_NAME_CHARS - 1] + "…"
        y = i * BARS_ROW + (BARS_ROW - BAR) / 2
        drawn.append(BarRow(label, y, round(y + BAR / 2 + 4, 1), [p for p in parts if p.count]))
    height = len(rows) * BARS_ROW + BARS_AXIS
    axis_y = len(rows) * BARS_ROW
    return StackedBars(BARS_WIDTH, height, drawn, top, BARS_LABEL, BARS_LABEL + BARS_PLOT, axis_y, height - 3)


# The dice pages' chart: each face's observed share as a bar, its expected share as a mark (SVG user units;
# the chart scales to its column, 390 px on a phone).
FACE_WIDTH, FACE_HEIGHT, FACE_AXIS, FACE_HEADROOM = 360, 140, 18, 14  # the faces' labels below, the scale above
FACE_CHART = {
    "width": FACE_WIDTH,
    "height": FACE_HEIGHT,
    "top": FACE_HEADROOM,
    "baseline": FACE_HEIGHT - FACE_AXIS,
    "label_y": FACE_HEIGHT - 4,
}


@dataclass(frozen=True)
class FaceBar:
    label: str  # the face under its bar, or "" where faces are too many to name each
    x: float
    width: float
    center: float
    right: float
    observed_y: float
    observed_height: float
    expected_y: float


def face_bars(faces: Sequence[tuple[int, float, float]]) -> tuple[list[FaceBar], int]:
    """Each (face, observed %, expected %) as its bar and mark, on a scale up to the next multiple of 5
    above the highest of them; the top percent with them."""
    top = max([observed for _f, observed, _e in faces] + [expected for _f, _o, expected in faces])
    top_percent = max(5, int(-(-top // 5) * 5))
    band = FACE_WIDTH / len(faces)
    plot = FACE_HEIGHT - FACE_AXIS - FACE_HEADROOM
    named = len(faces) <= 12
    bars = []
    for i, (face, observed, expected) in enumerate(faces):
        height = plot * observed / top_percent
        x = i * band + band * 0.15
        bars.append(
            FaceBar(
                label=str(face) if named or i % 6 == 0 else "",
                x=round(x, 1),
                width=round(band * 0.7, 1),
                center=round(x + band * 0.35, 1),
                right=round(x + band * 0.7, 1),
                observed_y=round(FACE_HEADROOM + plot - height, 1),
                observed_height=round(height, 1),
                expected_y=round(FACE_HEADROOM + plot - plot * expected / top_percent, 1),
            )
        )
    return bars, top_percent
