"""Reads reused by pages and the API: the roster sheet ("Ditt Lag") in a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.db import models
from django.db.models import OuterRef, Subquery
from django.shortcuts import get_object_or_404
from django.utils.translation import ngettext

from league import rules
from league.accounts import person_name
from league.rules.records import RECORD_COUNTERS, record_spp
from teams.models import (
    Facility,
    Player,
    PlayerSkill,
    Position,
    StatChange,
    Team,
    TreasuryEntry,
)


def with_treasury(queryset):
    """Annotate each team with its treasury: the balance of its last ledger entry."""
    last = TreasuryEntry.objects.filter(team=OuterRef("pk")).order_by("-seq").values("balance")[:1]
    return queryset.annotate(treasury=Subquery(last))


@dataclass
class PlayerLine:
    player: Player
    skills: list[str]
    injuries: list[str]
    spp: int
    skill_points: int
    value: int
    available: bool

    def as_dict(self) -> dict[str, Any]:
        p = self.player
        return {
            "id": p.pk,
            "number": p.number,
            "name": p.name,
            "position": p.position.name,
            "ma": p.ma,
            "st": p.st,
            "ag": p.ag,
            "av": p.av,
            "skills": self.skills,
            "injuries": self.injuries,
            "niggling": p.niggling,
            "miss_matches": p.miss_matches,
            **{c: getattr(p, c) for c in RECORD_COUNTERS},
            "spp": self.spp,
            "skill_points": self.skill_points,
            "value": self.value,
            "available": self.available,
        }


@dataclass
class RosterSheet:
    team: Team
    lines: list[PlayerLine]
    treasury: int
    team_rating: rules.Explained
    staff: list[tuple[str, int, int, int]]  # label, count, unit price, value
    players_value: int
    total_cost: int
    facilities: list[str] = field(default_factory=list)  # the keys, in the order bought

    def shown(self) -> str:
        """Everything the roster table shows, as text: the key of its rendered HTML in the team page's
        `{% cache %}`, so a roster nothing changed in is not rendered again after a write elsewhere in
        the league."""
        changes = ("ma_change", "st_change", "ag_change", "av_change", "mutation_choice_pending")
        return repr([(line.as_dict(), [getattr(line.player, c) for c in changes]) for line in self.lines])

    @property
    def facility_names(self) -> list[str]:
        r = self.team.ruleset.rules
        return [r.facility(key).name for key in self.facilities]

    def as_dict(self) -> dict[str, Any]:
        t = self.team
        return {
            "id": t.pk,
            "name": t.name,
            "race": t.race.name,
            "coach": t.coach.get_username(),
            "head_coach": t.race.get_head_coach_display(),
            "team_rating": self.team_rating.value,
            "treasury": self.treasury,
            "total_team_cost": self.total_cost,
            "rerolls": t.rerolls,
            "reroll_price": t.race.reroll_price,
            "fan_factor": t.fan_factor,
            "assistant_coaches": t.assistant_coaches,
            "cheerleaders": t.cheerleaders,
            "apothecary": t.apothecary,
            "mvps_received": t.mvps_received,
            "stadium": {
                "capacity": t.stadium.capacity,
                "roof": t.stadium.roof,
                "facilities": list(self.facilities),
            },
            "players": [line.as_dict() for line in self.lines],
        }


@dataclass
class SheetPlayers:
    """A roster's players with the skills they gained and their lasting injuries' stat changes, each
    in the order it came. The two lists are plain names and numbers, read as values: the sheet
    shows nothing else of them."""

    players: list[Player]
    gained: dict[int, list[str]]  # skill names by player id
    injuries: dict[int, list[tuple[int, str]]]  # (change, stat) by player id


def sheet_players(team: Team) -> SheetPlayers:
    players = list(Player.objects.on_roster().filter(team=team).select_related("position").order_by("number"))
    for p in players:
        p.team = team  # the sheet's players share the team (and its ruleset) already loaded
    ids = [p.pk for p in players]
    gained: dict[int, list[str]] = defaultdict(list)
    skills = PlayerSkill.objects.filter(player__in=ids).order_by("created_at", "id")
    for player_id, name in skills.values_list("player_id", "skill__name"):
        gained[player_id].append(name)
    injuries: dict[int, list[tuple[int, str]]] = defaultdict(list)
    changes = StatChange.objects.filter(player__in=ids, reason=StatChange.Reason.INJURY).order_by("created_at", "id")
    for player_id, change, stat in changes.values_list("player_id", "change", "stat"):
        injuries[player_id].append((change, stat))
    return SheetPlayers(players, gained, injuries)


def choice_label(choices: type[models.Choices], value: str) -> str:
    """A stored choice as the page shows it, in the current language; a value the choices no longer
    have as it is stored (as Django's get_FOO_display does)."""
    return dict(choices.choices).get(value, value)


def position_skills(*positions: int) -> dict[int, list[str]]:
    """These positions' starting skills' names, by position id."""
    starting = Position.skills.through.objects.filter(position__in=positions).order_by("skill__name", "id")
    out: dict[int, list[str]] = {}
    for position_id, name in starting.values_list("position_id", "skill__name"):
        out.setdefault(position_id, []).append(name)
    return out


def sheet_team(team_id: int) -> Team:
    """The team as its sheet reads it: race, coach, ruleset, stadium and treasury in one query."""
    # the ruleset's tables unread: parsed once per process (Ruleset.rules), as a season's are
    read = Team.objects.select_related("race", "coach", "ruleset", "stadium").defer("ruleset__data")
    return get_object_or_404(with_treasury(read), pk=team_id)


def roster_sheet(team_id: int) -> RosterSheet:
    """The "Ditt Lag" sheet of a team, in six queries whatever its size."""
    return team_sheet(sheet_team(team_id))


def team_sheet(team: Team) -> RosterSheet:
    """The sheet of a team read by `sheet_team`, in five more queries."""
    facilities = list(Facility.objects.filter(stadium=team.stadium).order_by("pk").values_list("key", flat=True))
    found = sheet_players(team)
    starting = position_skills(*{p.position_id for p in found.players})
    return build_sheet(team, found, facilities, starting)


def rating_staff(team: Team) -> dict[str, Any]:
    """What a team's rating counts beside its players (R1): re-rolls at the race's price, fan factor,
    assistant coaches, cheerleaders, the apothecary."""
    return {
        "rerolls": team.rerolls,
        "reroll_price": team.race.reroll_price,
        "fan_factor": team.fan_factor,
        "assistant_coaches": team.assistant_coaches,
        "cheerleaders": team.cheerleaders,
        "apothecary": team.apothecary,
    }


def squad_team_rating(r: rules.Ruleset, team: Team, players: list[tuple[int, int]]) -> rules.Explained:
    """The TR of the team with these players, each (value, SPP), as its squad (R1-R3): the one helper the
    roster sheet, the pre-match and the post-match read."""
    return r.explain_team_rating(players, **rating_staff(team))


def build_sheet(
    team: Team, found: SheetPlayers, facilities: list[str], starting_skills: Mapping[int, list[str]]
) -> RosterSheet:
    r = team.ruleset.rules
    s = r.settings
    lines = []
    for p in found.players:
        spp = p.spp
        injuries = []
        if p.niggling:
            injuries.append(f"{p.niggling} NI")
        injuries.extend(f"{change:+d} {stat}" for change, stat in found.injuries.get(p.pk, ()))
        if p.miss_matches:  # written out, not the sheet's "M2M" that no one explained
            n = p.miss_matches
            injuries.append(ngettext("misses %(n)s match", "misses %(n)s matches", n) % {"n": n})
        lines.append(
            PlayerLine(
                player=p,
                skills=[*starting_skills.get(p.position_id, []), *found.gained.get(p.pk, ())],
                injuries=injuries,
                spp=spp,
                skill_points=r.skill_points(spp),
                value=p.value,
                available=p.miss_matches == 0,
            )
        )
    staff = [
        ("rerolls", team.rerolls, team.race.reroll_price, team.rerolls * team.race.reroll_price),
        ("fan_factor", team.fan_factor, s.fan_factor_value, team.fan_factor * s.fan_factor_value),
        (
            "assistant_coaches",
            team.assistant_coaches,
            s.assistant_coach_price,
            team.assistant_coaches * s.assistant_coach_price,
        ),
        ("cheerleaders", team.cheerleaders, s.cheerleader_step, r.cheerleaders_value(team.cheerleaders)),
        ("apothecary", int(team.apothecary), s.apothecary_value, s.apothecary_value if team.apothecary else 0),
    ]
    players_value = sum(line.value for line in lines)
    # R3: outside a match the squad is the available players, the 16 most valuable.
    tr = squad_team_rating(r, team, [(line.value, line.spp) for line in lines if line.available])
    return RosterSheet(
        team=team,
        lines=lines,
        treasury=getattr(team, "treasury", None) or 0,
        team_rating=tr,
        staff=staff,
        players_value=players_value,
        total_cost=players_value + sum(v for *_, v in staff),
        facilities=facilities,
    )


def ledger_entries(team: Team) -> models.QuerySet[TreasuryEntry]:
    """The team's treasury entries as its ledger page and file list them: the newest first, with who
    wrote each."""
    return team.ledger.select_related("created_by").order_by("-seq")


def team_list():
    return with_treasury(Team.objects.active().select_related("race", "coach", "stadium")).order_by("name")


HISTORY_FIELDS = ("history_date", "history_user__username", "status", *RECORD_COUNTERS, "niggling")
HISTORY_FIELDS += ("history_change_reason", "history_user__first_name", "history_user__last_name")


def player_history(player: Player) -> list[dict[str, Any]]:
    """Every saved change of the player, newest first (the last 60), with the SPP he had then (R28): the
    report's deeds, MVPs, injuries, deaths and the board's corrections with their reasons. As values:
    a long career's 60 rows took longer to render as model instances than to read."""
    r = player.team.ruleset.rules
    saved = Player.history.filter(id=player.pk).order_by("-history_date", "-history_id")
    rows = list(saved.values(*HISTORY_FIELDS)[:60])
    for row in rows:
        row["spp"] = record_spp(r, SimpleNamespace(**row))
        row["status_label"] = choice_label(Player.Status, row["status"])
        full_name = f"{row.pop('history_user__first_name') or ''} {row.pop('history_user__last_name') or ''}"
        row["who"] = person_name(full_name, row["history_user__username"])  # as every page names a person
    return rows


PLAYER_SKILL_FIELDS = ("skill__name", "origin", "roll", "match_id")  # the match: the SPP chart marks its level-ups
STAT_CHANGE_FIELDS = ("stat", "change", "reason", "note", "match_id")


def gained_and_changes(player_id: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The skills a player gained (with where from and the dice) and every change of his stats (with its
    reason), each in the order it came; labels in the current language."""
    gained = list(
        PlayerSkill.objects.filter(player=player_id).order_by("created_at", "id").values(*PLAYER_SKILL_FIELDS)
    )
    for g in gained:
        g["origin_label"] = choice_label(PlayerSkill.Origin, g["origin"])
    changes = list(StatChange.objects.filter(player=player_id).order_by("created_at", "id").values(*STAT_CHANGE_FIELDS))
    for c in changes:
        c["reason_label"] = choice_label(StatChange.Reason, c["reason"])
    return gained, changes
