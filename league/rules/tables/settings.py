"""The ruleset's settings: every number RULINGS.md calls a setting, and their reading from plain data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

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
