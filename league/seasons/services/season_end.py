"""The season end (R32, R33): the preview of prizes, trophies, promotion and relegation and healed
niggling injuries, and its commit, which creates the next season."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from league import rules
from league.lib.writes import league_write
from league.models import Cup, Division, Season, SeasonEnd
from league.notices.webhooks import Event, Kind, announce
from league.rules.messages import N_, Msg, to_json
from league.seasons.selectors import division_lines, ties_to_settle
from league.seasons.services.base import SeasonError
from league.seasons.services.cup import cup_winner
from league.seasons.services.setup import DivisionPlan, create_season
from league.seasons.waiting import season_open
from matches.selectors import Todo
from teams.ledger import lock_team, post_entry
from teams.models import Player, Team, TreasuryEntry


@dataclass
class SeasonEndPlan:
    season: Season
    prizes: list[tuple[Team, int, str]] = field(default_factory=list)
    trophies: list[tuple[Team, str]] = field(default_factory=list)
    promoted: list[Team] = field(default_factory=list)
    relegated: list[Team] = field(default_factory=list)
    niggling: list[tuple[Player, int]] = field(default_factory=list)
    next_divisions: dict[int, list[Team]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    open: list[Todo] = field(default_factory=list)  # what is open, with who must act and where (R44)

    @property
    def open_labels(self) -> set[str]:
        return {todo.label for todo in self.open}


def season_end_preview(season: Season) -> SeasonEndPlan:
    """Everything the season end would do, without doing it."""
    r = season.ruleset.rules
    s = r.settings
    plan = SeasonEndPlan(season=season)
    divisions = list(season.divisions.order_by("level"))
    plan.open = season_open(season)  # R44: the season ends only when nothing of it is open
    plan.problems += [todo.label for todo in plan.open]
    tables = {d.level: division_lines(d) for d in divisions}
    teams = {t.pk: t for t in Team.objects.filter(season_entries__season=season)}
    for division, line in ties_to_settle(season, tables):
        plan.problems.append(
            _("%(division)s: %(team)s is tied at place %(pos)s; record the tiebreak game first.")
            % {"division": division.name, "team": teams[line.team].name, "pos": line.position}
        )
    for d in divisions:
        _division_places(plan, d, tables[d.level], teams, r)
    moves = rules.promotion_and_relegation(plan.next_divisions, s.promotion_count)  # R32
    plan.promoted += moves.promoted
    plan.relegated += moves.relegated
    plan.next_divisions = moves.divisions
    _cup_trophy(plan, season)
    plan.niggling = _niggling_to_heal(teams.values(), s.niggling_kept_between_seasons)
    return plan


def _division_places(
    plan: SeasonEndPlan,
    division: Division,
    lines: list[rules.Line],
    teams: dict[int, Team],
    r: rules.Ruleset,
) -> None:
    """A division's final table: its prizes (R33), its trophy, its teams in order for R32's moves."""
    prizes = r.prizes(division.level)
    for line, prize in zip(lines, prizes, strict=False):
        place = Msg(N_("%(division)s, place %(pos)s"), division=division.name, pos=line.position)
        plan.prizes.append((teams[line.team], prize, place))
    if lines:
        plan.trophies.append((teams[lines[0].team], division.name))
    plan.next_divisions[division.level] = [teams[x.team] for x in lines]


def _cup_trophy(plan: SeasonEndPlan, season: Season) -> None:
    """The cup's winner takes its trophy and its prize (R34); an unplayed final holds the season end."""
    cup = Cup.objects.filter(season=season).first()
    if cup is None:
        return
    winner = cup_winner(cup)
    if winner is None:
        plan.problems.append(_("The cup final is not played yet."))
        return
    winner_team = Team.objects.get(pk=winner)
    plan.trophies.append((winner_team, cup.name))
    if cup.prize:
        plan.prizes.append((winner_team, cup.prize, cup.name))


def _niggling_to_heal(teams: Iterable[Team], keep: int) -> list[tuple[Player, int]]:
    """The active players with more niggling injuries than a season end leaves them, and how many."""
    players = Player.objects.filter(team__in=teams, status=Player.Status.ACTIVE, niggling__gt=keep)
    return [(p, p.niggling) for p in players.select_related("team")]


@league_write
def commit_season_end(season: Season, *, by: Any, next_name: str) -> Season:
    """Pay the prizes, hand out trophy re-rolls, move teams up and down, heal niggling injuries
    and create the next season. A second commit does nothing and returns the next season."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if SeasonEnd.objects.filter(season=season).exists():
        return season.next
    plan = season_end_preview(season)
    if plan.problems:
        raise SeasonError(plan.problems)

    r = season.ruleset.rules
    _pay_prizes(plan, season, by)
    _trophy_rerolls_and_promotion(plan, season, r)
    _heal_niggling(plan, r.settings.niggling_kept_between_seasons)
    season.status = Season.Status.FINISHED
    season.ended_at = timezone.now()
    season.save(update_fields=["status", "ended_at"])
    next_season = _next_season(plan, season, next_name)
    SeasonEnd.objects.create(season=season, committed_by=by, summary=_summary(plan, next_season))
    _announce_tables(season)
    return next_season


def _announce_tables(season: Season) -> None:
    """The final tables in the league's chat, one section per division, in the league's language."""
    names = dict(Team.objects.filter(season_entries__season=season).values_list("pk", "name"))
    sections, tables = [], []
    with translation.override(settings.LANGUAGE_CODE):
        for division in season.divisions.order_by("level"):
            lines = division_lines(division)
            rows = [_table_row(line, names.get(line.team, "?")) for line in lines]
            sections.append((division.name, "\n".join(rows)))
            table = [{"team": names.get(line.team), **line.as_dict()} for line in lines]
            tables.append({"division": division.name, "table": table})
        text = _("The season %(season)s is over: the final tables.") % {"season": season.name}
    announce(
        Event(
            Kind.SEASON_TABLES,
            f"season_tables:{season.pk}",
            text,
            url=settings.SITE_URL + reverse("season", args=[season.pk]),
            sections=tuple(sections),
            data={"season": season.name, "divisions": tables},
        )
    )


def _table_row(line: rules.Line, team: str) -> str:
    return _("%(pos)s. %(team)s: %(points)s p (%(won)s–%(drawn)s–%(lost)s)") % {
        "pos": line.position,
        "team": team,
        "points": line.points,
        "won": line.won,
        "drawn": line.drawn,
        "lost": line.lost,
    }


def _pay_prizes(plan: SeasonEndPlan, season: Season, by: Any) -> None:
    for team, amount, reason in plan.prizes:
        locked = lock_team(team)
        post_entry(
            locked,
            amount,
            kind=TreasuryEntry.Kind.PRIZE,
            description=Msg(N_("Prize: %(reason)s"), reason=reason),
            by=by,
            cause=season,
            idempotency_key=f"prize:{season.pk}:{team.pk}:{reason}",
        )


def _trophy_rerolls_and_promotion(plan: SeasonEndPlan, season: Season, r: rules.Ruleset) -> None:
    """Each trophy gives its re-rolls for the next season (a team's old ones go), promotion raises the
    fan factor. Load, change, save under the lock: every change leaves a history record."""
    locked = (
        Team.objects.select_for_update()
        .order_by("pk")
        .in_bulk(Team.objects.filter(season_entries__season=season).values_list("pk", flat=True))
    )
    trophies = [t.pk for t, _reason in plan.trophies]
    promoted = {t.pk for t in plan.promoted}
    for pk, team in locked.items():
        before = (team.trophy_rerolls, team.fan_factor)
        team.trophy_rerolls = trophies.count(pk) * r.settings.trophy_rerolls
        if pk in promoted:
            team.fan_factor += r.settings.promotion_fan_factor
        if (team.trophy_rerolls, team.fan_factor) != before:
            team.save(update_fields=["trophy_rerolls", "fan_factor"])


def _heal_niggling(plan: SeasonEndPlan, keep: int) -> None:
    for player in Player.objects.select_for_update().filter(pk__in=[p.pk for p, _n in plan.niggling]).order_by("pk"):
        player.niggling = keep
        player.save(update_fields=["niggling"])


def _next_season(plan: SeasonEndPlan, season: Season, name: str) -> Season:
    """The next season, under the same ruleset, with the divisions as promotion and relegation left them."""
    levels = {d.level: d for d in season.divisions.all()}
    return create_season(
        name=name,
        ruleset=season.ruleset,
        divisions=[
            DivisionPlan(level, levels[level].name, levels[level].die, plan.next_divisions[level])
            for level in sorted(levels)
        ],
        previous=season,
    )


def _summary(plan: SeasonEndPlan, next_season: Season) -> dict[str, Any]:
    """What the season end did, kept in its `SeasonEnd` row."""
    return {
        "prizes": [[t.pk, amount, to_json(reason)] for t, amount, reason in plan.prizes],
        "trophies": [[t.pk, reason] for t, reason in plan.trophies],
        "promoted": [t.pk for t in plan.promoted],
        "relegated": [t.pk for t in plan.relegated],
        "niggling_healed": [[p.pk, n] for p, n in plan.niggling],
        "next_season": next_season.pk,
    }
