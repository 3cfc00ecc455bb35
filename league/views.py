from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from league.models import Ruleset


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "league/home.html")


@require_GET
def standings(request: HttpRequest) -> HttpResponse:
    return render(request, "league/standings.html")


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The tables of a published ruleset (the newest unless one is picked), as coaches look them up."""
    versions = list(Ruleset.objects.published().only("id", "name", "published_at"))
    chosen = request.GET.get("version")
    ruleset = next((v for v in versions if str(v.pk) == chosen), versions[0] if versions else None)
    if ruleset is not None:
        ruleset = Ruleset.objects.get(pk=ruleset.pk)
    return render(request, "league/rules.html", {"ruleset": ruleset, "versions": versions})
