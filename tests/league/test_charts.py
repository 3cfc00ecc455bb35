"""The charts' geometry (league.lib.charts), without a page or a database: the numbers a template writes
into the SVG, worked out by hand, and the palette's contrast on the cards' white (WCAG 2.1 AA)."""

import pytest

from league.lib import charts
from league.lib.charts import (
    PALETTE,
    Box,
    Point,
    bands,
    line_chart,
    nice_step,
    race_chart,
    scale,
    segments,
    shorten,
    slots,
    stacked_bars,
    ticks,
)


@pytest.mark.parametrize(
    ("lo", "hi", "most", "expected"),
    [
        (112, 138, 4, [110, 120, 130, 140]),  # a TR: steps of 10
        (0, 5, 4, [0, 2, 4, 6]),  # 5 / 4 is more than 1: steps of 2
        (0, 4, 4, [0, 1, 2, 3, 4]),  # exactly four steps of 1
        (150_000, 420_000, 4, [100_000, 200_000, 300_000, 400_000, 500_000]),  # gold
        (4, 4, 4, [4, 5]),  # one value: a step above it, so the line has a scale
        (0, 0, 4, [0, 1]),
    ],
)
def test_ticks_are_round_and_cover_the_values(lo, hi, most, expected):
    assert ticks(lo, hi, most) == expected
    assert all(isinstance(t, int) for t in expected)


def test_a_step_is_one_two_or_five_times_a_power_of_ten():
    assert [nice_step(span, 4) for span in (4, 4.1, 8, 8.1, 20, 21, 0.4)] == [1, 2, 2, 5, 5, 10, 0.1]
    assert nice_step(0, 4) == 1


def test_a_value_is_placed_between_the_ends_of_its_scale():
    assert scale(120, 110, 140, 100, 10) == 70.0  # a third of the way up from 100 to 10
    assert scale(110, 110, 140, 100, 10) == 100.0 and scale(140, 110, 140, 100, 10) == 10.0
    assert scale(5, 5, 5, 100, 10) == 55.0  # no span: the middle


def test_slots_are_equal_and_centred():
    assert slots(4, 0, 100) == [12.5, 37.5, 62.5, 87.5]
    assert slots(1, 44, 352) == [198.0]
    assert slots(0, 0, 100) == []


def test_a_missing_value_breaks_the_line():
    a, b, c = Point(1, 2, 0), Point(3, 4, 0), Point(5, 6, 0)
    assert segments([a, b, None, c]) == ["1,2 3,4", "5,6"]
    assert segments([None, None]) == []


def test_a_line_chart_puts_each_match_in_its_slot_and_each_value_on_the_scale():
    box = Box(width=360, height=110, left=44, right=8, top=16, bottom=10)  # plot x 44–352, y 16–100
    chart = line_chart([110, None, 130, 140], box)
    assert chart.xs == [82.5, 159.5, 236.5, 313.5]  # four slots of 77
    assert [t.value for t in chart.ticks] == [110, 120, 130, 140]
    assert [t.y for t in chart.ticks] == [100.0, 72.0, 44.0, 16.0]  # 28 a step of 10
    assert chart.points[1] is None
    assert [(p.x, p.y, p.value) for p in chart.points if p] == [
        (82.5, 100.0, 110),
        (236.5, 44.0, 130),
        (313.5, 16.0, 140),
    ]
    assert chart.segments == ["82.5,100.0", "236.5,44.0 313.5,16.0"]
    assert chart.ticks[1].label_y == 75.5


def test_amounts_start_their_scale_at_nothing():
    chart = line_chart([3, 9], from_zero=True)
    assert chart.ticks[0].value == 0 and chart.points[0].y > chart.points[1].y
    nothing = line_chart([None, None])
    assert nothing.segments == [] and [t.value for t in nothing.ticks] == [0, 1]


def test_a_treasury_past_a_million_gets_the_room_its_labels_need():
    """A ten seasons' treasury: "1 000 000" at the tick's size is 56 units wide, more than the 39 left of
    the plot, and was cut to "000 000" on a phone; the plot moves right to give its labels room."""
    box = Box(width=360, height=110)
    small = line_chart([72, 140], box)
    assert small.box.left == 44  # a TR's labels fit the margin: nothing moves
    gold = line_chart([150_000, 1_150_000], box, from_zero=True)
    assert [t.value for t in gold.ticks][-1] == 1_500_000
    longest = len("1,500,000") * 10 * 0.62  # the tick's font (10) and the mean character's width
    assert gold.box.left - 5 >= longest  # the labels end 5 units left of the plot, their start inside
    assert gold.xs[0] > gold.box.left and gold.xs[-1] < gold.box.plot_right
    assert bands(["Sesong 2026", "Sesong 2026"], gold.xs, gold.box)[0].x0 == gold.box.left


def test_the_seasons_are_bands_edge_to_edge_labelled_where_the_name_fits():
    box = Box()  # plot x 44–352
    xs = slots(4, box.plot_left, box.plot_right)  # 82.5, 159.5, 236.5, 313.5: slots of 77
    found = bands(["S1", "S1", "S1", "Season two of the league"], xs, box)
    assert [(b.x0, b.x1, b.first) for b in found] == [(44, 275.0, True), (275.0, 352, False)]
    assert found[0].label == "S1" and found[0].label_x == 47
    assert found[1].label == ""  # 24 characters of 10 units do not fit in 77
    assert bands([], [], box) == []


def test_a_long_name_is_cut_with_an_ellipsis():
    assert shorten("Torshov Trolls", 114, 10) == "Torshov Trolls"
    assert shorten("Alexander Kiellands Mummies", 114, 10) == "Alexander Kiellan…"  # 18 characters fit
    assert len(shorten("Alexander Kiellands Mummies", 114, 10)) == int(114 / (10 * 0.62))


def test_the_race_puts_first_at_the_top_and_each_name_in_the_row_of_its_place_now():
    chart = race_chart([1, 2, 3], [("A", [2, 1, 1]), ("B", [1, 2, 1]), ("C", [3, 3, 3])])
    top, bottom = chart.positions[0].y, chart.positions[-1].y
    assert [t.value for t in chart.positions] == [1, 2, 3] and top < bottom
    a, b, c = chart.lines
    assert [p.y for p in a.points] == [chart.positions[1].y, top, top]
    # A and B share the first place now: A's name in the first row, B's in the second, joined to its line
    assert (a.label_y, b.label_y, c.label_y) == tuple(t.y for t in chart.positions)
    assert b.last.y == top != b.label_y
    assert len({line.colour for line in chart.lines}) == 3
    assert chart.rounds_at == [(1, chart.xs[0]), (2, chart.xs[1]), (3, chart.xs[2])]


def test_a_long_race_names_every_other_round():
    chart = race_chart(list(range(1, 31)), [("A", [1] * 30)])
    assert [n for n, _x in chart.rounds_at] == list(range(1, 31, 2))


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def test_every_colour_of_the_palette_reads_as_text_on_white():
    """WCAG 2.1 AA: 4.5:1 for text (a team's name in its line's colour), which is more than the 3:1 a
    line needs; and no two teams of a division of twelve share a colour."""
    for colour in PALETTE:
        assert (1.05) / (_luminance(colour) + 0.05) >= 4.5, colour
    assert len(set(PALETTE)) == len(PALETTE) == 12


def test_stacked_bars_share_one_scale_and_leave_out_an_empty_part():
    """A coach's record by season, worked by hand: the plot is 360 - 112 - 4 = 244 units wide, the biggest
    season (4 matches) fills it, so a match is 61 units; a season of only losses has one part."""
    chart = stacked_bars(
        [("2025", [("won", 2), ("drawn", 1), ("lost", 1)]), ("2026", [("won", 0), ("drawn", 0), ("lost", 2)])]
    )
    first, second = chart.rows
    assert [(p.outcome, p.x, p.width) for p in first.parts] == [
        ("won", 112.0, 122.0),
        ("drawn", 234.0, 61.0),
        ("lost", 295.0, 61.0),
    ]
    assert [(p.outcome, p.x, p.width, p.shown) for p in second.parts] == [("lost", 112.0, 122.0, True)]
    assert (chart.top, chart.left, chart.right, chart.axis_y, chart.height) == (4, 112, 356, 48, 64)
    assert stacked_bars([("A season with a very long name", [("won", 1)])]).rows[0].label == "A season with a v…"


def test_a_dice_chart_draws_each_face_on_a_scale_to_the_next_five_percent_worked_by_hand():
    """A D6 whose 1 came up a quarter of the time, each other face 15 %, each expected 1/6 (16.67 %): the
    scale runs to 25 %; each face has a 60-unit band of the 360, its bar 70 % of it; the plot is
    140 - 18 - 14 = 108 units high, so the 1's bar fills it and each expected mark is 108 × 16.67/25 = 72
    units up from the baseline at 122."""
    bars, top = charts.face_bars([(1, 25.0, 16.67)] + [(face, 15.0, 16.67) for face in range(2, 7)])
    assert top == 25
    first, second = bars[0], bars[1]
    assert (first.label, first.x, first.width, first.center, first.right) == ("1", 9.0, 42.0, 30.0, 51.0)
    assert (first.observed_y, first.observed_height, first.expected_y) == (14.0, 108.0, 50.0)
    assert (second.x, second.observed_height, second.observed_y) == (69.0, 64.8, 57.2)  # 108 × 15/25
    assert [b.label for b in bars] == ["1", "2", "3", "4", "5", "6"]
    many, _top = charts.face_bars([(face, 1.0, 1.0) for face in range(2, 38)])  # more faces than can be named
    assert [b.label for b in many if b.label] == ["2", "8", "14", "20", "26", "32"]
