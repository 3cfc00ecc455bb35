"""The dice pages: how a team's, a coach's and a season's dice fell against the odds, open to everyone."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from league.accounts import display_name, sees_private
from league.lib.charts import FACE_CHART, FaceBar, face_bars
from league.lib.pagecache import kept_for_visitors
from league.models import Season
from league.rules.dice_odds import VERY_UNUSUAL_P
from matches.dice_stats import KindDice, coach_rolls, dice_by_kind, season_rolls, team_rolls
from matches.models import DiceRoll
from teams.models import Team


@dataclass(frozen=True)
class KindPage:
    """One kind's table, sentence and chart as the template shows them."""

    dice: KindDice
    bars: list[FaceBar]
    top_percent: int
    uses: list[tuple[str, int]]

    @property
    def p_shown(self) -> str:
        """ "= 0,360", or "< 0,001" where three decimals would show a very unusual fit as 0."""
        p = self.dice.fit.p_value
        if p is None:
            return ""
        if p < VERY_UNUSUAL_P:
            return f"< {number_format(VERY_UNUSUAL_P, 3)}"
        return f"= {number_format(p, 3)}"


def _bars(dice: KindDice) -> tuple[list[FaceBar], int]:
    return face_bars([(f.face, f.observed_percent, f.expected_percent) for f in dice.faces])


def _kind_pages(rolls: QuerySet[DiceRoll]) -> dict[str, list[KindPage]]:
    """The server's rolls and the typed ones apart, each kind with its chart."""
    pages: dict[str, list[KindPage]] = {"rolled": [], "entered": []}
    for dice in dice_by_kind(rolls):
        bars, top = _bars(dice)
        uses = [(str(DiceRoll.PURPOSES.get(use, use)), n) for use, n in dice.uses]
        pages["entered" if dice.entered else "rolled"].append(KindPage(dice, bars, top, uses))
    return pages


def _dice_page(
    request: HttpRequest, *, title: str, rolls: QuerySet[DiceRoll], links: list[tuple[str, str]]
) -> HttpResponse:
    context = {
        "title": title,
        "links": links,
        "kinds": _kind_pages(rolls),
        "chart": FACE_CHART,
    }
    return render(request, "league/dice.html", context)


@require_GET
@kept_for_visitors
def team_dice(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.only("id", "name", "coach_id"), pk=pk)
    title = _("The dice of %(team)s") % {"team": team.name}
    links = [(team.get_absolute_url(), team.name), (reverse("coach_dice", args=[team.coach_id]), _("the coach's dice"))]
    return _dice_page(request, title=title, rolls=team_rolls(pk), links=links)


@require_GET
@kept_for_visitors
def season_dice(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.only("id", "name"), pk=pk)
    title = _("The dice of %(season)s") % {"season": season.name}
    return _dice_page(request, title=title, rolls=season_rolls(pk), links=[(season.get_absolute_url(), season.name)])


@require_GET
@kept_for_visitors
def coach_dice(request: HttpRequest, pk: int) -> HttpResponse:
    """A coach's dice over every team the coach has had. Named as the team page names a coach: by name to
    members, to a visitor by the teams only (coaches' names are private, league.accounts.sees_private),
    so a visitor never reads a username or an e-mail address."""
    coach = get_object_or_404(get_user_model().objects.only("id", "username", "first_name", "last_name"), pk=pk)
    teams = list(Team.objects.filter(coach=coach).order_by("name").values_list("name", flat=True))
    if not teams:
        raise Http404  # only coaches have dice; an account without a team is not shown
    if sees_private(request.user):
        title = _("The dice of %(coach)s") % {"coach": display_name(coach)}
    else:
        title = _("The dice of the coach of %(teams)s") % {"teams": ", ".join(teams)}
    return _dice_page(
        request, title=title, rolls=coach_rolls(pk), links=[(reverse("coach", args=[pk]), _("the coach's page"))]
    )
