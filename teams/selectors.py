"""Reads reused by pages and the API: the roster sheet ("Ditt Lag") in a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.db import models
from django.db.models import OuterRef, Subquery
from django.shortcuts import get_object_or_404
from django.utils.translation import ngettext

from league import rules
from league.accounts import person_name
from league.lib.plain_sql import aware, fetch_dicts, fetch_rows
from league.rules.records import RECORD_COUNTERS, record_spp
from teams.models import (
    Facility,
    Player,
    PlayerSkill,
    Position,
    Skill,
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
        the league (issue 25)."""
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


# The roster's gained skills and its injuries' stat changes in one statement (a UNION ALL of two plain reads),
# each row marked by its kind (1: a skill). Written out as the league board's reads are
# (league.lib.plain_sql): the team page sends it after every write, and the ORM took longer to build it than
# the database to answer.
_GAINED_AND_INJURIES = f"""
    SELECT g.player_id, s.name, 0, g.created_at, g.id, 1
    FROM {PlayerSkill._meta.db_table} g
    JOIN {Skill._meta.db_table} s ON s.id = g.skill_id
    JOIN {Player._meta.db_table} p ON p.id = g.player_id
    WHERE p.team_id = %(team)s AND p.status = %(on_roster)s
    UNION ALL
    SELECT c.player_id, c.stat, c.change, c.created_at, c.id, 0
    FROM {StatChange._meta.db_table} c
    JOIN {Player._meta.db_table} p ON p.id = c.player_id
    WHERE p.team_id = %(team)s AND p.status = %(on_roster)s AND c.reason = %(injury)s"""


def sheet_players(team: Team) -> SheetPlayers:
    players = list(Player.objects.on_roster().filter(team=team).select_related("position").order_by("number"))
    for p in players:
        p.team = team  # the sheet's players share the team (and its ruleset) already loaded
    params = {"team": team.pk, "on_roster": Player.Status.ACTIVE, "injury": StatChange.Reason.INJURY}
    gained: dict[int, list[str]] = defaultdict(list)
    injuries: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for player_id, name, change, *_when, is_skill in sorted(fetch_rows(_GAINED_AND_INJURIES, params), key=_in_order):
        if is_skill:
            gained[player_id].append(name)
        else:
            injuries[player_id].append((change, name))
    return SheetPlayers(players, gained, injuries)


def _in_order(row: tuple) -> tuple:
    """A skill or a stat change by when it came (its time, then its id), skills and changes apart."""
    *_fields, created_at, pk, is_skill = row
    return (is_skill, created_at, pk)


def choice_label(choices: type[models.Choices], value: str) -> str:
    """A stored choice as the page shows it, in the current language; a value the choices no longer
    have as it is stored (as Django's get_FOO_display does)."""
    return dict(choices.choices).get(value, value)


# Read again after every write by the team and player pages: written out, as the roster's gained skills and injuries.
_STARTING_SKILLS = f"""
    SELECT ps.position_id, s.name
    FROM {Position.skills.through._meta.db_table} ps
    JOIN {Skill._meta.db_table} s ON s.id = ps.skill_id
    ORDER BY s.name, ps.id"""


def position_skills() -> dict[int, list[str]]:
    """Every position's starting skills' names, by position id: catalogue data a page may keep per
    league version (`league.lib.pagecache.per_version`) instead of reading it for each roster."""
    out: dict[int, list[str]] = {}
    for position_id, name in fetch_rows(_STARTING_SKILLS):
        out.setdefault(position_id, []).append(name)
    return out


def bought_facility_keys() -> list[str]:
    """Every kind of facility some stadium has: with it `roster_sheet` reads a team's facilities in
    the team's own query (a page keeps it per league version; a purchase is a new version)."""
    return sorted(Facility.objects.order_by().values_list("key", flat=True).distinct())


def roster_sheet(
    team_id: int,
    *,
    starting_skills: Mapping[int, list[str]] | None = None,
    facility_keys: Sequence[str] | None = None,
) -> RosterSheet:
    """The "Ditt Lag" sheet of a team. A page passes `starting_skills` (`position_skills()`) and
    `facility_keys` (`bought_facility_keys()`) kept per league version; without them they are read here."""
    if starting_skills is None:
        starting_skills = position_skills()
    if facility_keys is None:
        facility_keys = bought_facility_keys()
    bought = Facility.objects.filter(stadium=OuterRef("stadium"))
    # the ruleset's tables unread: parsed once per process (Ruleset.rules), as a season's are
    read = Team.objects.select_related("race", "coach", "ruleset", "stadium").defer("ruleset__data")
    teams = with_treasury(read).annotate(
        **{f"facility_{i}": Subquery(bought.filter(key=key).values("pk")[:1]) for i, key in enumerate(facility_keys)}
    )
    team = get_object_or_404(teams, pk=team_id)
    found = sorted((pk, key) for i, key in enumerate(facility_keys) if (pk := getattr(team, f"facility_{i}")))
    facilities = [key for _pk, key in found]  # in the order bought
    return build_sheet(team, sheet_players(team), facilities, starting_skills)


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
        if p.miss_matches:  # written out, not the sheet's "M2M" that no one explained (issue 26)
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
# The player page's three reads of his own rows, sent after every write: written out, as the roster's are.
_HISTORY = f"""
    SELECT h.history_date, u.username, h.status, {", ".join(f"h.{name}" for name in RECORD_COUNTERS)}, h.niggling,
           h.history_change_reason, u.first_name, u.last_name
    FROM {Player.history.model._meta.db_table} h
    LEFT JOIN {Player.history.model._meta.get_field("history_user").related_model._meta.db_table} u
      ON u.id = h.history_user_id
    WHERE h.id = %s
    ORDER BY h.history_date DESC, h.history_id DESC
    LIMIT 60"""
_GAINED = f"""
    SELECT s.name, g.origin, g.roll
    FROM {PlayerSkill._meta.db_table} g JOIN {Skill._meta.db_table} s ON s.id = g.skill_id
    WHERE g.player_id = %s ORDER BY g.created_at, g.id"""
_CHANGES = f"""
    SELECT stat, change, reason, note FROM {StatChange._meta.db_table} WHERE player_id = %s ORDER BY created_at, id"""


def player_history(player: Player) -> list[dict[str, Any]]:
    """Every saved change of the player, newest first (the last 60), with the SPP he had then (R28): the
    report's deeds, MVPs, injuries, deaths and the board's corrections with their reasons. As values:
    a long career's 60 rows took longer to render as model instances than to read."""
    r = player.team.ruleset.rules
    rows = fetch_dicts(HISTORY_FIELDS, _HISTORY, [player.pk])
    for row in rows:
        row["history_date"] = aware(row["history_date"])
        row["spp"] = record_spp(r, SimpleNamespace(**row))
        row["status_label"] = choice_label(Player.Status, row["status"])
        full_name = f"{row.pop('history_user__first_name') or ''} {row.pop('history_user__last_name') or ''}"
        row["who"] = person_name(full_name, row["history_user__username"])  # as every page names a person
    return rows


PLAYER_SKILL_FIELDS = ("skill__name", "origin", "roll")
STAT_CHANGE_FIELDS = ("stat", "change", "reason", "note")


def gained_and_changes(player_id: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The skills a player gained (with where from and the dice) and every change of his stats (with its
    reason), each in the order it came; labels in the current language."""
    gained = fetch_dicts(PLAYER_SKILL_FIELDS, _GAINED, [player_id])
    for g in gained:
        g["origin_label"] = choice_label(PlayerSkill.Origin, g["origin"])
    changes = fetch_dicts(STAT_CHANGE_FIELDS, _CHANGES, [player_id])
    for c in changes:
        c["reason_label"] = choice_label(StatChange.Reason, c["reason"])
    return gained, changes
