from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "league/home.html")


@require_GET
def standings(request: HttpRequest) -> HttpResponse:
    return render(request, "league/standings.html")


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "league/rules.html")
