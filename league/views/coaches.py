"""A coach's page (his teams, seasons, record, titles and prizes), his matches against another coach, and
the league's champions through the years: open to everyone, coaches named as the team page names them
(league.accounts.coach_name)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from league.accounts import sees_private
from league.lib.inputs import query_id
from league.lib.pagecache import lazy
from league.models import SeasonEnd
from league.seasons.archive import season_honours
from league.seasons.careers import Career, HeadToHead, SeasonRecord, career, head_to_head, named_coaches

# The record chart's drawing box (SVG user units; it scales to its column, 390 px on a phone): a row per
# season, its name on the left and its wins, draws and losses as one bar to the right.
CHART_WIDTH, LABEL_WIDTH, ROW, BAR, AXIS = 360, 112, 24, 16, 16
PLOT = CHART_WIDTH - LABEL_WIDTH - 4
NAME_CHARS = 18  # a longer season name is cut, whole in the table below the chart
NUMBER_ROOM = 14  # a part narrower than this shows no number (the table has it)


def outcomes() -> list[tuple[str, str, str]]:
    """Each outcome's field, word and letter: the letter is the word's first (S/U/T in Norwegian, W/D/L
    in English), so the two never disagree."""
    words = [("won", _("Wins")), ("drawn", _("Draws")), ("lost", _("Losses"))]
    return [(name, word, word[:1]) for name, word in words]


@dataclass(frozen=True)
class Part:
    outcome: str
    count: int
    x: float
    width: float
    center: float
    shown: bool  # wide enough for its number


@dataclass(frozen=True)
class Row:
    label: str
    y: float
    text_y: float
    parts: list[Part]


def record_chart(seasons: list[SeasonRecord]) -> dict:
    """Each season's wins, draws and losses as a bar of three parts, on one scale: the most matches of a
    season fill the plot."""
    top = max([s.total.played for s in seasons] + [1])
    rows = []
    for i, season in enumerate(seasons):
        x = float(LABEL_WIDTH)
        parts = []
        for name, _word, _letter in outcomes():
            count = getattr(season.total, name)
            width = PLOT * count / top
            parts.append(Part(name, count, round(x, 1), round(width, 1), round(x + width / 2, 1), width >= NUMBER_ROOM))
            x += width
        label = season.name if len(season.name) <= NAME_CHARS else season.name[: NAME_CHARS - 1] + "…"
        y = i * ROW + (ROW - BAR) / 2
        rows.append(Row(label, y, round(y + BAR / 2 + 4, 1), [p for p in parts if p.count]))
    height = len(seasons) * ROW + AXIS
    return {
        "width": CHART_WIDTH,
        "height": height,
        "rows": rows,
        "top": top,
        "left": LABEL_WIDTH,
        "right": LABEL_WIDTH + PLOT,
        "axis_y": len(seasons) * ROW,
        "scale_y": height - 3,
    }


def _career_page(career: Career) -> dict:
    return {"career": career, "chart": record_chart(career.seasons), "outcomes": outcomes()}


@require_GET
def coach_page(request: HttpRequest, pk: int) -> HttpResponse:
    private = sees_private(request.user)
    name = named_coaches([pk], private=private).get(pk)
    if name is None:
        raise Http404  # an account without a team has no career to show
    page = lazy(lambda: _career_page(career(pk, private=private)))
    return render(request, "league/coach.html", {"name": name, "page": page})


@require_GET
def coach_vs_pick(request: HttpRequest, pk: int) -> HttpResponse:
    """The coach page's GET form: the other coach chosen, to his head-to-head's own address."""
    other = query_id(request.GET.get("other"))
    if other is None:
        return redirect("coach", pk=pk)
    return redirect("coach_vs", pk=pk, other=other)


def _marked(meeting: HeadToHead) -> HeadToHead:
    """Each match with its outcome's word and letter for the first coach."""
    marks = {name: (name, word, letter) for name, word, letter in outcomes()}
    for m in meeting.matches:
        m["mark"] = marks[m["outcome"]]
    return meeting


@require_GET
def coach_vs(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    private = sees_private(request.user)
    names = named_coaches([pk, other], private=private)
    if pk == other or len(names) < 2:
        raise Http404  # two coaches, each with a team
    meeting = lazy(lambda: _marked(head_to_head(pk, other, private=private)))
    context = {"coach": (pk, names[pk]), "other": (other, names[other]), "h2h": meeting, "outcomes": outcomes()}
    return render(request, "league/coach_vs.html", context)


@require_GET
def champions(request: HttpRequest) -> HttpResponse:
    """Every ended season's champions and cup winner, newest first."""
    private = sees_private(request.user)

    def read() -> list:
        return list(reversed(season_honours(SeasonEnd.objects.all(), private=private).seasons))

    return render(request, "league/champions.html", {"seasons": lazy(read)})
