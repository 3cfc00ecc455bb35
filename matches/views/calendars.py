"""The calendar feeds: a team's and the league's, public; a coach's own, behind the secret in its
address, which he renews on his calendar page ("Legg til i kalender")."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from league.lib.responses import act_and_redirect
from matches import calendars
from teams.models import Team


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def team_calendar(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(Team, pk=pk)
    body = calendars.feed(team.name, calendars.team_matches(team.pk), base_url=_base_url(request))
    return _ics(body, f"team-{team.pk}.ics")


@require_GET
def league_calendar(request: HttpRequest) -> HttpResponse:
    body = calendars.feed(_("Torshov Touchdown"), calendars.league_matches(), base_url=_base_url(request))
    return _ics(body, "torshov-league.ics")


@require_GET
def coach_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """A coach's own feed: his teams' matches and the rounds' deadlines. A forged or renewed secret is
    not found, whoever asks."""
    owner = calendars.feed_owner(token)
    if owner is None:
        raise Http404
    body = calendars.feed(
        _("My matches · Torshov Touchdown"),
        calendars.coach_matches(owner),
        base_url=_base_url(request),
        deadlines=calendars.coach_deadlines(owner),
    )
    return _ics(body, "my-matches.ics")


@login_required
@require_GET
def calendar_page(request: HttpRequest) -> HttpResponse:
    """ "Legg til i kalender": the coach's private address, his teams' and the league's."""
    private = request.build_absolute_uri(calendars.private_path(request.user))
    teams = Team.objects.filter(coach=request.user).order_by("name")
    return render(
        request,
        "matches/calendar.html",
        {
            "private": private,
            "webcal": private.replace("https://", "webcal://", 1).replace("http://", "webcal://", 1),
            "teams": teams,
        },
    )


@login_required
@require_POST
def calendar_renew(request: HttpRequest) -> HttpResponse:
    def renew() -> str:
        calendars.renew_calendar_token(user=request.user)
        return _("Your calendar has a new address: the old one no longer works. Add the new one to your calendar.")

    return act_and_redirect(request, renew, "calendar_page")
