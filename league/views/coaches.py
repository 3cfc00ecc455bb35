"""A coach's page (his teams, seasons, record, titles and prizes), his matches against another coach, and
the league's champions through the years: open to everyone, coaches named as the team page names them
(league.accounts.coach_name)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from league.accounts import sees_private
from league.lib.charts import StackedBars, stacked_bars
from league.lib.inputs import query_id
from league.lib.pagecache import kept_for_visitors
from league.models import SeasonEnd
from league.seasons.archive import season_honours
from league.seasons.careers import (
    Career,
    HeadToHead,
    SeasonRecord,
    career,
    coach_index,
    head_to_head,
    named_coaches,
)


def outcomes() -> list[tuple[str, str, str]]:
    """Each outcome's field, word and letter: the letter is the word's first (S/U/T in Norwegian, W/D/L
    in English), so the two never disagree."""
    words = [("won", _("Wins")), ("drawn", _("Draws")), ("lost", _("Losses"))]
    return [(name, word, word[:1]) for name, word in words]


def record_chart(seasons: list[SeasonRecord]) -> StackedBars:
    """Each season's wins, draws and losses as one bar of three parts."""
    names = [name for name, _word, _letter in outcomes()]
    return stacked_bars([(s.name, [(name, getattr(s.total, name)) for name in names]) for s in seasons])


def _career_page(career: Career) -> dict:
    return {"career": career, "chart": record_chart(career.seasons), "outcomes": outcomes()}


@require_GET
@kept_for_visitors
def coach_page(request: HttpRequest, pk: int) -> HttpResponse:
    private = sees_private(request.user)
    name = named_coaches([pk], private=private).get(pk)
    if name is None:
        raise Http404  # an account without a team has no career to show
    page = _career_page(career(pk, private=private))
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
@kept_for_visitors
def coach_vs(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    private = sees_private(request.user)
    names = named_coaches([pk, other], private=private)
    if pk == other or len(names) < 2:
        raise Http404  # two coaches, each with a team
    meeting = _marked(head_to_head(pk, other, private=private))
    context = {"coach": (pk, names[pk]), "other": (other, names[other]), "h2h": meeting, "outcomes": outcomes()}
    return render(request, "league/coach_vs.html", context)


@require_GET
@kept_for_visitors
def champions(request: HttpRequest) -> HttpResponse:
    """Every ended season's champions and cup winner, newest first."""
    private = sees_private(request.user)

    def read() -> list:
        return list(reversed(season_honours(SeasonEnd.objects.all(), private=private).seasons))

    return render(request, "league/champions.html", {"seasons": read()})


@require_GET
@kept_for_visitors
def coaches_page(request: HttpRequest) -> HttpResponse:
    """The league's coaches, each linked to a coach's page: a visitor reads them by their teams (sees_private)."""
    return render(request, "league/coaches.html", {"coaches": coach_index(private=sees_private(request.user))})
