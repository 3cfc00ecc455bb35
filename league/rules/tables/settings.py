"""The ruleset's settings: every number RULINGS.md calls a setting, how people read and edit each one (its
label, unit, bounds, ruling and the rulebook's section), and their reading from plain data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

from league.rules.messages import N_, N_plural
from league.rules.tables.cells import _bool, _dict, _int, _list, _str
from league.rules.tables.shapes import RulesetError


@dataclass(frozen=True)
class FanFactorChangeSettings:
    win: int
    draw: int
    loss: int
    touchdowns_needed: int
    touchdowns_bonus: int
    casualties_needed: int
    casualties_bonus: int
    crowd_casualty_bonus: int
    per_fan_factor: int
    per_fan_factor_modifier: int
    down_below: int
    up_above: int


@dataclass(frozen=True)
class Settings:
    """Every number RULINGS.md calls a setting; the board changes them per ruleset version."""

    tr_divisor: int
    max_squad: int
    starting_treasury: int
    min_players_creation: int
    max_players: int
    max_rerolls: int
    fan_factor_price: int
    fan_factor_value: int
    max_fan_factor_creation: int
    apothecary_price: int
    apothecary_value: int
    assistant_coach_price: int
    cheerleader_step: int
    big_guy_limit: int
    reroll_percent: Mapping[str, int]
    gate_unit: int
    home_gate_modifier: int
    away_gate_modifier: int
    ticket_gate_modifier: Mapping[str, int]
    ticket_winnings_row_shift: Mapping[str, int]
    division_dice: Mapping[str, int]
    neutral_capacity: int
    overcrowding_percent: int
    start_capacity: int
    start_capacity_first_division: int
    expansion_step: int
    expansion_rounding: int
    roof_price_per_new_seat: int
    roof_price_per_seat: int
    caretakers_repair: int
    seats_destroyed_percent: int
    home_team_rerolls: int
    winnings_unit: int
    winnings_win_bonus: int
    winnings_home_bonus: int
    vip_lounge_bonus: int
    vip_lounge_threshold: int
    kiosk_target: int
    kiosk_income: int
    tv_station_fan_factor_bonus: int
    mvp_limit: int
    points: Mapping[str, int]
    tiebreakers: tuple[str, ...]
    promotion_count: int
    promotion_fan_factor: int
    trophy_rerolls: int
    prizes: Mapping[str, tuple[int, ...]]
    apothecary_ap: int
    apothecary_target: int
    bandage_crew_fee: int
    bandage_crew_targets: tuple[int, ...]
    apprentice_fee: int
    apprentice_target: int
    apprentice_players: int
    familiar_players: int
    regeneration_target: int
    niggling_fails_on: int
    niggling_kept_between_seasons: int
    master_chef_die_price: int
    stat_limit: int
    retire_gives_assistant_coach: bool
    forfeit_fan_factor_loss: int
    forfeit_score: tuple[int, ...]
    fan_factor_change: FanFactorChangeSettings


# The rulebook's sections a setting or a table is written in, as the book titles them.
TEAMS = "Lagene"
STAFF = "Medarbeidere og trening"
STADIUM = "Stadion"
TICKETS = "Stadion – Billettpriser"
FACILITIES = "Stadion-fasiliteter"
GAME = "Spillets gang"
AFTER = "Etter kampen"
INJURIES = "Skader – Lege og Bandage Crew"
NECROMANCERS = STAFF + " – Necromancers"
LEAGUE_PLAY = "Seriespillet"
SEASON = "Sesongen"
PRIZES = AFTER + " – Premier"

# A unit is a singular and plural pair of formats of the number ("%(n)s"), shown with `ngettext`; None is
# a bare number: an amount (the book writes 60 000, no "gp") or a roll's modifier.
Unit = tuple[str, str]
PLAYERS = N_plural("%(n)s player", "%(n)s players")
REROLLS = N_plural("%(n)s re-roll", "%(n)s re-rolls")
SEATS = N_plural("%(n)s seat", "%(n)s seats")
SPECTATORS = N_plural("%(n)s spectator", "%(n)s spectators")
ROWS = N_plural("%(n)s row", "%(n)s rows")
POINTS = N_plural("%(n)s point", "%(n)s points")
TEAM_COUNT = N_plural("%(n)s team", "%(n)s teams")
MATCHES = N_plural("%(n)s match", "%(n)s matches")
DIE = N_plural("D%(n)s", "D%(n)s")
PERCENT = N_plural("%(n)s%%", "%(n)s%%")
PER_DIE = N_plural("%(n)s per die", "%(n)s per die")
AP = N_plural("%(n)s AP", "%(n)s AP")
OR_MORE = N_plural("%(n)s or more on a D6", "%(n)s or more on a D6")
OR_LESS = N_plural("%(n)s or less on a D6", "%(n)s or less on a D6")
OF_CAPACITY = N_plural("%(n)s%% of capacity", "%(n)s%% of capacity")
OF_OVERFLOW = N_plural("%(n)s%% of the overflow", "%(n)s%% of the overflow")
FROM_POSITION = N_plural("%(n)s from the position's value", "%(n)s from the position's value")
BY_ATTEMPT = N_plural("%(n)s (1st, 2nd, 3rd … attempt)", "%(n)s (1st, 2nd, 3rd … attempt)")
HOME_AWAY = N_plural("%(n)s (home, away touchdowns)", "%(n)s (home, away touchdowns)")

# The tie-breakers R31 knows, each with its label.
TIEBREAKERS: dict[str, str] = {
    "points": N_("points"),
    "head_to_head_points": N_("head-to-head points"),
    "touchdown_difference": N_("touchdown difference"),
    "touchdowns_for": N_("touchdowns scored"),
    "tiebreak_game": N_("tiebreak game"),
}


@dataclass(frozen=True)
class SettingSpec:
    """A setting as people read and edit it. The label and unit are English message ids (Norwegian in the
    catalogue); min and max bound a number, or each number of a list."""

    path: tuple[str, ...]  # into the ruleset's "settings"
    label: str
    unit: Unit | None
    min: int | None
    max: int | None
    ruling: str
    source: str  # the rulebook's section
    kind: str = "int"  # int | bool | ints (a list of numbers) | words (a list of TIEBREAKERS)


def _s(path: str, label: str, unit: Unit | None, low: int | None, high: int | None, ruling: str, source: str,
       kind: str = "int") -> SettingSpec:  # fmt: skip
    return SettingSpec(tuple(path.split(".")), label, unit, low, high, ruling, source, kind)


@dataclass(frozen=True)
class SettingGroup:
    """Settings and tables as the rulebook groups them; the rules page and the editor show them so."""

    key: str
    title: str
    settings: tuple[SettingSpec, ...]
    tables: tuple[str, ...]


SETTING_GROUPS: tuple[SettingGroup, ...] = (
    SettingGroup("team", N_("Team creation and staff"), (
        _s("tr_divisor", N_("Team rating: total value divided by"), None, 1, None, "R1", TEAMS + " – Team Rating"),
        _s("max_squad", N_("Players counted in the team rating"), PLAYERS, 1, 25, "R3", TEAMS),
        _s("starting_treasury", N_("Starting treasury"), None, 0, None, "R5", TEAMS),
        _s("min_players_creation", N_("Players at least, at creation"), PLAYERS, 0, 25, "R5", TEAMS),
        _s("max_players", N_("Players at most on a roster"), PLAYERS, 1, 99, "R5", TEAMS),
        _s("max_rerolls", N_("Team re-rolls at most"), REROLLS, 0, 99, "R5", STAFF),
        _s("reroll_percent.creation", N_("Re-roll price at creation"), PERCENT, 1, 1000, "R7", STAFF),
        _s("reroll_percent.season", N_("Re-roll price during a season"), PERCENT, 1, 1000, "R7", STAFF),
        _s("reroll_percent.offseason", N_("Re-roll price between seasons"), PERCENT, 1, 1000, "R7, R33", STAFF),
        _s("fan_factor_price", N_("Fan factor price at creation"), None, 0, None, "R5", TEAMS),
        _s("fan_factor_value", N_("Fan factor's value in the team rating"), None, 0, None, "R2", TEAMS),
        _s("max_fan_factor_creation", N_("Fan factor at most at creation"), None, 0, 99, "R5", TEAMS),
        _s("apothecary_price", N_("Apothecary price"), None, 0, None, "R5", STAFF),
        _s("apothecary_value", N_("Apothecary's value in the team rating"), None, 0, None, "R2", STAFF),
        _s("assistant_coach_price", N_("Assistant coach price"), None, 0, None, "R5", STAFF),
        _s("cheerleader_step", N_("Cheerleaders: the n-th costs n ×"), None, 0, None, "R6", STAFF),
        _s("big_guy_limit", N_("Big Guys at most per team"), None, 0, 16, "R5", TEAMS),
        _s("master_chef_die_price", N_("Master Chef: price of a die"), None, 0, None, "R9", STAFF),
        _s("retire_gives_assistant_coach", N_("A retired player becomes a free assistant coach"), None, None, None,
           "R8", STAFF, "bool"),
    ), ()),
    SettingGroup("gate", N_("Gate and fans"), (
        _s("gate_unit", N_("Gate: each point of the dice is"), SPECTATORS, 1, None, "R12", GAME),
        _s("division_dice.1", N_("Gate and winnings die, 1st division"), DIE, 2, 20, "R12", GAME),
        _s("division_dice.2", N_("Gate and winnings die, 2nd division"), DIE, 2, 20, "R12", GAME),
        _s("home_gate_modifier", N_("Home team's gate modifier"), PER_DIE, -6, 6, "R13", STADIUM),
        _s("away_gate_modifier", N_("Away team's gate modifier"), PER_DIE, -6, 6, "R13", STADIUM),
        _s("ticket_gate_modifier.cheap", N_("Cheap tickets: gate modifier"), PER_DIE, -6, 6, "R13", TICKETS),
        _s("ticket_gate_modifier.ordinary", N_("Ordinary tickets: gate modifier"), PER_DIE, -6, 6, "R13", TICKETS),
        _s("ticket_gate_modifier.expensive", N_("Expensive tickets: gate modifier"), PER_DIE, -6, 6, "R13", TICKETS),
        _s("fan_factor_change.win", N_("Fan factor roll: a win"), None, -6, 6, "R30", AFTER),
        _s("fan_factor_change.draw", N_("Fan factor roll: a draw"), None, -6, 6, "R30", AFTER),
        _s("fan_factor_change.loss", N_("Fan factor roll: a loss"), None, -6, 6, "R30", AFTER),
        _s("fan_factor_change.touchdowns_needed", N_("Touchdowns for the bonus"), None, 0, 99, "R30", AFTER),
        _s("fan_factor_change.touchdowns_bonus", N_("Bonus for the touchdowns"), None, -6, 6, "R30", AFTER),
        _s("fan_factor_change.casualties_needed", N_("Casualties caused for the bonus"), None, 0, 99, "R30, R38",
           AFTER),
        _s("fan_factor_change.casualties_bonus", N_("Bonus for the casualties"), None, -6, 6, "R30", AFTER),
        _s("fan_factor_change.crowd_casualty_bonus", N_("Your crowd caused a casualty"), None, -6, 6, "R30", AFTER),
        _s("fan_factor_change.per_fan_factor", N_("For each … points of fan factor"), None, 1, 99, "R30", AFTER),
        _s("fan_factor_change.per_fan_factor_modifier", N_("… the roll gets"), None, -6, 6, "R30", AFTER),
        _s("fan_factor_change.down_below", N_("Fan factor goes down when the total is below"), None, -20, 20, "R30",
           AFTER),
        _s("fan_factor_change.up_above", N_("Fan factor goes up when the total is above"), None, -20, 20, "R30",
           AFTER),
        _s("tv_station_fan_factor_bonus", N_("TV station: fan factor roll bonus"), None, -6, 6, "R19", STADIUM),
    ), ("fan_factor_modifier",)),
    SettingGroup("stadium", N_("Stadium"), (
        _s("start_capacity", N_("Starting capacity"), SEATS, 0, None, "R16", STADIUM),
        _s("start_capacity_first_division", N_("Starting capacity, 1st division teams when stadium rules begin"),
           SEATS, 0, None, "R16", STADIUM),
        _s("expansion_step", N_("An expansion adds"), SEATS, 1, None, "R16", STADIUM),
        _s("expansion_rounding", N_("Expansion cost rounded down to whole"), None, 1, None, "R16", STADIUM),
        _s("roof_price_per_new_seat", N_("With a roof, each new seat costs extra"), None, 0, None, "R16", STADIUM),
        _s("roof_price_per_seat", N_("A roof costs per current seat"), None, 0, None, "R16", STADIUM),
        _s("overcrowding_percent", N_("Attendance counts up to"), OF_CAPACITY, 100, 1000, "R17",
           STADIUM + " – Underkapasitet"),
        _s("seats_destroyed_percent", N_("Vandalised: seats destroyed"), OF_OVERFLOW, 0, 100, "R18",
           STADIUM + " – Vandalisering"),
        _s("caretakers_repair", N_("Caretakers repair up to"), SEATS, 0, None, "R18", FACILITIES),
        _s("neutral_capacity", N_("Neutral venue's capacity"), SEATS, 0, None, "R14",
           "Spesielle bestemmelser om cupen"),
        _s("home_team_rerolls", N_("Home team's extra re-rolls"), REROLLS, 0, 9, "R14", STADIUM + " – Hjemmebane"),
    ), ("vandalism", "facilities")),
    SettingGroup("winnings", N_("Winnings"), (
        _s("winnings_unit", N_("Each point of the winnings roll is"), None, 1, None, "R20", PRIZES),
        _s("winnings_win_bonus", N_("Winnings roll: the winner"), None, -6, 6, "R20", PRIZES),
        _s("winnings_home_bonus", N_("Winnings roll: the home team"), None, -6, 6, "R20", PRIZES),
        _s("ticket_winnings_row_shift.cheap", N_("Cheap tickets: rows moved in the winnings table"), ROWS, -9, 9,
           "R20", TICKETS),
        _s("ticket_winnings_row_shift.ordinary", N_("Ordinary tickets: rows moved in the winnings table"), ROWS, -9,
           9, "R20", TICKETS),
        _s("ticket_winnings_row_shift.expensive", N_("Expensive tickets: rows moved in the winnings table"), ROWS,
           -9, 9, "R20", TICKETS),
        _s("vip_lounge_bonus", N_("VIP lounge: winnings roll bonus"), None, -6, 6, "R19", FACILITIES),
        _s("vip_lounge_threshold", N_("VIP lounge: touchdowns or casualties needed"), None, 0, 99, "R19, R38",
           FACILITIES),
        _s("kiosk_target", N_("Kiosk: income on"), OR_MORE, 1, 7, "R19", FACILITIES),
        _s("kiosk_income", N_("Kiosk income"), None, 0, None, "R19", FACILITIES),
    ), ("winnings",)),
    SettingGroup("injuries", N_("Injuries and healers"), (
        _s("apothecary_ap", N_("Apothecary: ability points per match"), AP, 0, 99, "R26", INJURIES),
        _s("apothecary_target", N_("Apothecary: each attempt succeeds on"), OR_MORE, 1, 7, "R26", INJURIES),
        _s("bandage_crew_fee", N_("Bandage Crew: fee per attempt"), None, 0, None, "R25", INJURIES),
        _s("bandage_crew_targets", N_("Bandage Crew: attempts need"), BY_ATTEMPT, 1, 7, "R25", INJURIES, "ints"),
        _s("apprentice_fee", N_("Apprentice or Familiar: fee"), None, 0, None, "R9", NECROMANCERS),
        _s("apprentice_target", N_("Apprentice or Familiar: revives on"), OR_MORE, 1, 7, "R9", NECROMANCERS),
        _s("apprentice_players", N_("Apprentice: players per match"), PLAYERS, 0, 16, "R9", NECROMANCERS),
        _s("familiar_players", N_("Nurgle Familiar: players per match"), PLAYERS, 0, 16, "R9",
           STAFF + " – Nurgle Familiar"),
        _s("regeneration_target", N_("Regeneration succeeds on"), OR_MORE, 1, 7, "R25", "Regeneration"),
        _s("niggling_fails_on", N_("A niggling injury check fails on"), OR_LESS, 0, 6, "R36",
           GAME + " – Sjekk spillere for NI"),
        _s("niggling_kept_between_seasons", N_("Niggling injuries kept between seasons"), None, 0, 9, "R33", SEASON),
    ), ("serious_injury", "revival", "apothecary_costs")),
    SettingGroup("players", N_("Players and development"), (
        _s("stat_limit", N_("A stat changes at most"), FROM_POSITION, 0, 9, "R29", AFTER + " – STAT-økning"),
        _s("mvp_limit", N_("MVPs a team receives"), MATCHES, 0, 999, "R27", AFTER + " – MVP"),
    ), ("development", "skill_points", "spp_awards")),
    SettingGroup("handicap", N_("Handicap"), (), ("handicap_count", "handicap_results")),
    SettingGroup("season", N_("Season and cup"), (
        _s("points.win", N_("Points for a win"), POINTS, 0, 99, "R31", LEAGUE_PLAY),
        _s("points.draw", N_("Points for a draw"), POINTS, 0, 99, "R31", LEAGUE_PLAY),
        _s("points.loss", N_("Points for a loss"), POINTS, 0, 99, "R31", LEAGUE_PLAY),
        _s("tiebreakers", N_("Tie-breakers, in order"), None, None, None, "R31", LEAGUE_PLAY, "words"),
        _s("prizes.1", N_("Prizes, 1st division (1st, 2nd, 3rd …)"), None, 0, None, "R32", SEASON, "ints"),
        _s("prizes.2", N_("Prizes, 2nd division (1st, 2nd, 3rd …)"), None, 0, None, "R32", SEASON, "ints"),
        _s("promotion_count", N_("Teams promoted and relegated"), TEAM_COUNT, 0, 16, "R32", SEASON),
        _s("promotion_fan_factor", N_("Fan factor for a promoted team"), None, -9, 9, "R32", SEASON),
        _s("trophy_rerolls", N_("Trophy re-rolls for next season"), REROLLS, 0, 9, "R32", SEASON),
        _s("forfeit_fan_factor_loss", N_("A forfeit costs fan factor"), None, 0, 99, "R35", "Oberwald FAQ 3.7"),
        _s("forfeit_score", N_("A forfeit is scored"), HOME_AWAY, 0, 99, "R35", "Oberwald FAQ 3.7", "ints"),
    ), ()),
)  # fmt: skip


def _settings(data: Any) -> Settings:
    t = "settings"
    data = _dict(t, None, data)
    values: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name not in data:
            raise RulesetError(t, "missing", f.name)
        v = data[f.name]
        kind = str(f.type)
        if kind == "int":
            values[f.name] = _int(t, f.name, v)
        elif kind == "bool":
            values[f.name] = _bool(t, f.name, v)
        elif kind == "Mapping[str, int]":
            values[f.name] = MappingProxyType({k: _int(t, f"{f.name}.{k}", x) for k, x in _dict(t, f.name, v).items()})
        elif kind == "Mapping[str, tuple[int, ...]]":
            values[f.name] = MappingProxyType(
                {
                    k: tuple(_int(t, f"{f.name}.{k}[{i}]", x) for i, x in enumerate(_list(t, f"{f.name}.{k}", xs)))
                    for k, xs in _dict(t, f.name, v).items()
                }
            )
        elif kind == "tuple[int, ...]":
            values[f.name] = tuple(_int(t, f"{f.name}[{i}]", x) for i, x in enumerate(_list(t, f.name, v)))
        elif kind == "tuple[str, ...]":
            values[f.name] = tuple(_str(t, f"{f.name}[{i}]", x) for i, x in enumerate(_list(t, f.name, v)))
        elif kind == "FanFactorChangeSettings":
            sub = _dict(t, f.name, v)
            kw = {}
            for g in fields(FanFactorChangeSettings):
                if g.name not in sub:
                    raise RulesetError(t, "missing", f"{f.name}.{g.name}")
                kw[g.name] = _int(t, f"{f.name}.{g.name}", sub[g.name])
            values[f.name] = FanFactorChangeSettings(**kw)
        else:  # pragma: no cover - a new field type must be taught here
            raise TypeError(f"unsupported setting type {kind}")
    s = Settings(**values)
    for phase in ("creation", "season", "offseason"):
        if phase not in s.reroll_percent:
            raise RulesetError(t, f"missing the {phase} price", "reroll_percent")
    for ticket in ("cheap", "ordinary", "expensive"):
        for name in ("ticket_gate_modifier", "ticket_winnings_row_shift"):
            if ticket not in getattr(s, name):
                raise RulesetError(t, f"missing {ticket}", name)
    for result in ("win", "draw", "loss"):
        if result not in s.points:
            raise RulesetError(t, f"missing {result}", "points")
    for name in ("tr_divisor", "gate_unit", "winnings_unit", "expansion_step", "expansion_rounding"):
        if getattr(s, name) <= 0:
            raise RulesetError(t, "must be above 0", name)
    for die in s.division_dice.values():
        if die < 2:
            raise RulesetError(t, f"a D{die} is not a die", "division_dice")
    if not s.bandage_crew_targets:
        raise RulesetError(t, "at least one attempt", "bandage_crew_targets")
    return s
