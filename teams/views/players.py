"""The player page and what a coach does to a player."""

from __future__ import annotations

from types import SimpleNamespace

from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.db.models import F, FilteredRelation, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from league.lib.confirm import confirm_page, is_confirmed
from league.lib.pagecache import kept_for_visitors
from league.lib.redirects import safe_next
from league.lib.responses import act_and_redirect, post_form, success
from league.models import STAT_FIELDS_PLAYER
from league.rules.records import LINE_COUNTERS, block_casualties, record_spp
from league.views.charts import player_chart
from matches.charts import player_matches
from matches.models import PlayerMatch
from teams import services
from teams.forms import (
    MutationChoiceForm,
    PlayerEditForm,
)
from teams.models import Player
from teams.selectors import choice_label, gained_and_changes, player_history, position_skills
from teams.views.base import can_change

# --- players -------------------------------------------------------------------------------------


def _get_player_for_change(request: HttpRequest, pk: int) -> Player:
    player = get_object_or_404(Player.objects.select_related("team", "position"), pk=pk)
    if not can_change(request.user, player.team):
        raise PermissionDenied
    return player


@require_GET
@kept_for_visitors
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _player_page(request, pk)


def _player_page(
    request: HttpRequest,
    pk: int,
    edit_form: PlayerEditForm | None = None,
    mutation_form: MutationChoiceForm | None = None,
) -> HttpResponse:
    """The player's page; after a form of it with errors, that form again with them and what was typed."""
    player = get_object_or_404(
        with_career(
            Player.objects.select_related("team__race", "team__ruleset", "position").defer("team__ruleset__data")
        ),
        pk=pk,
    )
    r = player.team.ruleset.rules
    gained_and_changed = gained_and_changes(player.pk)
    context = {
        "player": player,
        "starting_skills": position_skills(player.position_id).get(player.position_id, []),
        "gained": gained_and_changed[0],
        "stat_changes": gained_and_changed[1],
        "spp": player.spp,
        "skill_points": r.skill_points(player.spp),
        "can_change": can_change(request.user, player.team),
        "edit_form": edit_form or PlayerEditForm(initial={"name": player.name, "number": player.number}),
        "mutation_form": mutation_form
        or (MutationChoiceForm(choices=services.tzeentch_choices(r)) if player.mutation_choice_pending else None),
        "matches": player_match_history(player, request.GET.get("page")),
        "career": {name: getattr(player, f"career_{name}") or 0 for name in STAT_FIELDS_PLAYER},
        "history": player_history(player),
        "spp_chart": player_chart(
            player_matches(player.pk, known=player.team.ruleset), gained_and_changed[0], gained_and_changed[1]
        ),
    }
    return render(request, "teams/player_detail.html", context)


MATCHES_PER_PAGE = 20


def with_career(players: QuerySet[Player]) -> QuerySet[Player]:
    """Each player with his kept career counters (matches.stats) as `career_<counter>`, read in the
    player's own query (a join on his one career row)."""
    players = players.annotate(career=FilteredRelation("stats", condition=Q(stats__season__isnull=True)))
    return players.annotate(**{f"career_{name}": F(f"career__{name}") for name in STAT_FIELDS_PLAYER})


def player_match_history(player: Player, page: str | None = None) -> Page:
    """His line in every confirmed match report, newest confirmed first, with the SPP it earned (R28);
    a page at a time. The lines are dicts of the values the page shows."""
    r = player.team.ruleset.rules
    lines = PlayerMatch.objects.filter(player=player, confirmed_at__isnull=False).order_by("-confirmed_at", "-match_id")
    rows = Paginator(lines.values(*CAREER_LINE_FIELDS, **CAREER_MATCH_FIELDS), MATCHES_PER_PAGE).get_page(page)
    for row in rows:
        line = SimpleNamespace(**row)
        row["spp"] = record_spp(r, line)
        row["all_casualties"] = block_casualties(line) + line.foul_casualties
        row["injury_label"] = choice_label(PlayerMatch.Injury, row["injury"])
    return rows


CAREER_LINE_FIELDS = ("match_id", *LINE_COUNTERS, "injury")
CAREER_MATCH_FIELDS = {
    "home": F("match__home__name"),
    "away": F("match__away__name"),
    "home_score": F("match__home_score"),
    "away_score": F("match__away_score"),
    "season": F("match__season__name"),
}


@require_POST
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    form = PlayerEditForm(request.POST)
    return post_form(
        request,
        form,
        lambda: services.update_player(player, name=form.cleaned_data["name"], number=form.cleaned_data["number"]),
        again=lambda: _player_page(request, player.pk, edit_form=form),
        done=lambda _saved: success(request, _("Saved."), safe_next(request, player)),
    )


@require_POST
def player_leave(request: HttpRequest, pk: int, how: str) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    if how not in {"retire", "fire"}:
        raise PermissionDenied
    if not is_confirmed(request):
        if how == "retire":
            question = _("Retire %(player)s? The team gets a free assistant coach. It cannot be undone.")
        else:
            question = _("Fire %(player)s? It cannot be undone.")
        return confirm_page(
            request,
            question=question % {"player": player},
            button=_("Yes, retire") if how == "retire" else _("Yes, fire"),
            cancel_url=reverse("team_manage", args=[player.team_id]),
        )

    def leave() -> str:
        if how == "retire":
            services.retire_player(player, by=request.user)
            return _("%(player)s is retired: the team gets a free assistant coach.") % {"player": player}
        services.fire_player(player, by=request.user)
        return _("%(player)s is fired.") % {"player": player}

    return act_and_redirect(request, leave, reverse("team_manage", args=[player.team_id]))


@require_POST
def player_mutation(request: HttpRequest, pk: int) -> HttpResponse:
    player = _get_player_for_change(request, pk)
    form = MutationChoiceForm(request.POST, choices=services.tzeentch_choices(player.team.ruleset.rules))
    return post_form(
        request,
        form,
        lambda: services.choose_starting_mutation(player, form.cleaned_data["skill"], by=request.user),
        again=lambda: _player_page(request, player.pk, mutation_form=form),
        done=lambda _chosen: redirect(player),  # the new skill is on his page
    )
