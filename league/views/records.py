"""The records page ("Rekorder"): the league's records and who holds them, all time or one season."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from league.lib.inputs import query_id
from league.lib.pagecache import kept_for_visitors
from league.models import Season
from league.seasons.records import records_book


def _season(request: HttpRequest) -> Season | None:
    """?season=<id>, or all time without one; an id no season has is an unknown address."""
    if not request.GET.get("season"):
        return None
    pk = query_id(request.GET["season"])
    season = Season.objects.filter(pk=pk).only("name", "status").first() if pk is not None else None
    if season is None:
        raise Http404("No such season.")
    return season


@require_GET
@kept_for_visitors
def records_page(request: HttpRequest) -> HttpResponse:
    season = _season(request)
    context = {
        "season": season,
        "parts": records_book(season),
        "seasons": list(Season.objects.order_by("-created_at").only("name")),
    }
    return render(request, "league/records.html", context)
