"""No dead setting: changing any setting or table cell of a version changes something league.rules
computes (issue 13). Each setting and each table is one case; inside it, every value is changed in
turn and the results of a fixed set of rulebook calculations (with their explanations, which name the
table cells) must differ from the default version's."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from league import rules
from league.rules.roster import PositionSpec, RaceSpec, RosterPlan
from league.rules.tables import D66_CODES

DEFAULT = rules.default_data()
DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]

HUMAN = RaceSpec(
    "Human",
    50_000,
    True,
    (PositionSpec("lineman", "Lineman", 16, 50_000),),
    (PositionSpec("ogre", "Ogre", 1, 140_000, big_guy=True, allied=("Human",)),),
)
# Plans on both sides of each limit of R5 (11 players at least, 25 at most, 8 re-rolls, FF 9, 1 Big Guy).
PLANS = [
    RosterPlan({"lineman": n}, rerolls=r, fan_factor=ff, assistant_coaches=1, cheerleaders=2, apothecary=True)
    for n, r, ff in ((11, 8, 9), (12, 9, 10), (25, 0, 0), (26, 0, 0), (10, 0, 0))
] + [RosterPlan({"lineman": 11, "ogre": 2}), RosterPlan({"lineman": 11, "ogre": 1})]

# A squad of 20 (R3 counts the 16 most valuable): values and SPP across the skill-point bands (R4).
SQUAD = [(50_000 + 10_000 * (i % 5), 6 * i) for i in range(20)]


def _team_rating(r: rules.Ruleset) -> Any:
    return r.explain_team_rating(
        SQUAD, rerolls=3, reroll_price=50_000, fan_factor=5, assistant_coaches=2, cheerleaders=3, apothecary=True
    ).lines()


def _winnings_grid(r: rules.Ruleset) -> Any:
    grid = r.tables.winnings
    out = []
    for row in grid.rows:
        for col in grid.columns:
            tr = col.max if col.max is not None else col.min
            out.append(r.explain_winnings(6, team_rating=tr, attendance=row.min, capacity=10**6, won=True, home=True))
    return [e.lines() for e in out]


def _winnings_variants(r: rules.Ruleset) -> Any:
    out = []
    for ticket in ("cheap", "ordinary", "expensive"):
        for neutral in (False, True):
            e = r.explain_winnings(
                3, team_rating=112, attendance=95_000, capacity=60_000, won=True, home=True, ticket=ticket,
                neutral=neutral, vip=True,
            )  # fmt: skip
            out.append((e.value, e.lines()))
    return out


def _ffm(r: rules.Ruleset) -> Any:
    g = r.tables.fan_factor_modifier
    return [r.fan_factor_modifier(h * 1000, a * 1000) for h in g.rows for a in g.columns]


def _vandalism(r: rules.Ruleset) -> Any:
    out = []
    for band in r.tables.vandalism.bands:
        over = band.range.min + 1
        out.append(r.explain_vandalism_target(over, 0, 0).lines())
    out.append(r.explain_vandalism_target(200_000, 100_000, 60_000, neutral=True).lines())
    out.append([r.seats_destroyed(45_000, 40_000, 60_000, caretakers=c) for c in (False, True)])
    return out


def _handicap(r: rules.Ruleset) -> Any:
    out = []
    for column in rules.default_ruleset().tables.handicap_count:  # the book's bounds, fixed inputs
        lower = column.tr.max if column.tr.max is not None else column.tr.min
        for band in column.bands:
            for diff in {band.min, band.max if band.max is not None else band.min + 1}:
                out.append(r.handicap_rolls(lower, lower + diff))
    return out


def _fan_factor(r: rules.Ruleset) -> Any:
    out = []
    for result in ("win", "draw", "loss"):
        for ff in (0, 10):
            e = r.explain_fan_factor_change(
                3, fan_factor=ff, result=result, touchdowns=2, casualties=2, crowd_casualty=True, tv_station=True
            )
            out.append(e.lines())
    return out


def _standings(r: rules.Ruleset) -> Any:
    rows = [rules.StandingRow("A", 3, 5, 4), rules.StandingRow("B", 3, 3, 1)]
    return [[row.team for row in group] for group in r.order_standings(rows)]


PROBES: dict[str, Callable[[rules.Ruleset], Any]] = {
    "team rating": _team_rating,
    "roster checks": lambda r: (
        [[p.code for p in r.creation_problems(HUMAN, plan)] for plan in PLANS]
        + [str(r.creation_problems(HUMAN, PLANS[0], budget=None)), r.creation_cost(HUMAN, PLANS[0])]
    ),
    "re-roll prices": lambda r: [r.reroll_price(50_000, p) for p in ("creation", "season", "offseason")],
    "cheerleaders": lambda r: [r.cheerleader_price(n) for n in range(4)],
    "match re-rolls": lambda r: (r.match_rerolls(3, home=True), r.match_rerolls(3, home=False)),
    "gate": lambda r: (
        [
            r.explain_gate([3, 1], home=h, ticket=t, die=r.gate_die(d)).lines()
            for h in (True, False)
            for t in ("cheap", "ordinary", "expensive")
            for d in (1, 2)
        ]
        + [r.gate_die(1), r.gate_die(2)]
    ),
    "fan factor modifier": _ffm,
    "vandalism": _vandalism,
    "attendance": lambda r: r.counted_attendance(100_000, 60_000),
    "stadium": lambda r: (
        [
            r.start_capacity(first_division=False),
            r.start_capacity(first_division=True),  # R16
            r.expansion_cost(65_000, 2),
            r.expansion_cost(65_000, 2, roof=True),
            r.roof_cost(60_000),
        ]
        + [r.facility_price(f.key, capacity=60_000) for f in r.tables.facilities]
        + [r.facility(f.key) for f in r.tables.facilities]
    ),
    "winnings table": _winnings_grid,
    "winnings modifiers": _winnings_variants,
    "VIP lounge and kiosk": lambda r: (
        [r.vip_lounge_applies(touchdowns=t, casualties=0) for t in range(6)] + [r.kiosk_income(d) for d in range(1, 7)]
    ),
    "handicap table 1": _handicap,
    "handicap table 2": lambda r: [r.handicap_result(d) for d in D66_CODES],
    "fan factor change": _fan_factor,
    "SPP and skill points": lambda r: (
        [r.explain_skill_points(b.range.min).lines() for b in r.tables.skill_points.bands]
        + [r.spp_award(k) for k in r.tables.spp_awards]
    ),
    "development": lambda r: (
        [r.development(a, b) for a, b in DICE] + [r.stat_change_allowed(3, 3 + c, 1) for c in range(5)]
    ),
    "mutations": lambda r: (
        [r.mutation(c, d) for c in r.mutation_categories() for d in range(1, 5)]
        + [r.tzeentch_mutation(a, b) for a, b in DICE]
        + [r.may_always_mutate(p) for p in DEFAULT["tables"]["mutation_positions"]]
    ),
    "injuries": lambda r: (
        [r.injury(a, b) for a, b in DICE]
        + [r.serious_injury(d) for d in D66_CODES]
        + [r.revival(d) for d in D66_CODES]
        + [r.apothecary_cost(k) for k in r.tables.apothecary_costs]
    ),
    "healers": lambda r: (
        [
            (r.apothecary_succeeds(d), r.apprentice_outcome(d), r.regenerates(d), r.niggling_check_fails(d))
            for d in range(1, 7)
        ]
        + [r.bandage_crew_target(n) for n in range(1, len(r.settings.bandage_crew_targets) + 1)]
    ),
    "weather and kick-off": lambda r: (
        [r.weather(a, b, roof=roof) for a, b in DICE for roof in (False, True)] + [r.kickoff(a, b) for a, b in DICE]
    ),
    "MVP": lambda r: [r.receives_mvp(n) for n in range(7)],
    "season": lambda r: [r.points(x) for x in ("win", "draw", "loss")] + [r.prizes(1), r.prizes(2)] + _standings(r),
}


def probed(probe: Callable[[rules.Ruleset], Any], r: rules.Ruleset) -> str:
    try:
        return repr(probe(r))
    except (ValueError, KeyError, StopIteration, IndexError) as exc:
        return f"error: {exc!r}"


def signature(data: dict[str, Any]) -> dict[str, Any]:
    r = rules.Ruleset.from_data(data)
    return {name: probed(probe, r) for name, probe in PROBES.items()}


BASE = signature(DEFAULT)


def changed_probe(r: rules.Ruleset, first: str | None = None) -> str | None:
    """The first probe whose result differs from the default version's, trying `first` first (the probe
    that saw the setting's last change: a table's cells are seen by the same one); None if none does.
    The same answer as comparing whole signatures, in a probe or two instead of all 25 (issue 25: the
    fan-factor table's 100 cells took half a minute)."""
    order = sorted(PROBES, key=lambda name: name != first)
    return next((name for name in order if probed(PROBES[name], r) != BASE[name]), None)


def test_the_probes_compute_without_errors_under_the_default_version():
    assert not [name for name, value in BASE.items() if value.startswith("error")]


# --- every value of the data, and a changed value for it --------------------------------------------

RANGE_KEYS = {"min", "max"}  # a table's row bounds: structure, changed only as a whole (advanced view)


def leaves(value: Any, path: tuple = ()) -> Iterator[tuple]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in RANGE_KEYS:
                yield from leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, (*path, i))
    else:
        yield path


def get(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


def candidates(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if value is None:
        return [2, "MA"]
    return [value + " (endret)", "AV", "skill", "MA", None]


def copy_for(section: str, key: str) -> dict[str, Any]:
    """The default version with a copy of its own of the setting or table a change writes to; the rest is
    shared, as a parse never writes to its data (a deep copy of the whole rulebook per changed value was
    a third of this file's time)."""
    if section == "settings":
        return {**DEFAULT, "settings": copy.deepcopy(DEFAULT["settings"])}
    return {**DEFAULT, "tables": {**DEFAULT["tables"], key: copy.deepcopy(DEFAULT["tables"][key])}}


def changed_versions(section: str, key: str) -> Iterator[tuple[str, rules.Ruleset]]:
    """Each valid version that differs from the default in one value of this setting or table, parsed."""
    root = DEFAULT[section] if section == "settings" else DEFAULT["tables"]
    if section == "settings" and key == "tiebreakers":
        data = copy_for(section, key)
        data["settings"][key] = list(reversed(data["settings"][key]))
        yield "reversed", rules.Ruleset.from_data(data)
        return
    if key == "handicap_count":
        # A band's upper bound moves down one, and the next band starts one earlier (R22).
        for i, column in enumerate(root[key]):
            for j in range(len(column["bands"]) - 1):
                data = copy_for(section, key)
                bands = data["tables"][key][i]["bands"]
                bands[j][1] -= 1
                bands[j + 1][0] -= 1
                yield f"column {i}, band {j}", rules.Ruleset.from_data(data)
        return
    skip = {"rows", "columns"} if key in ("fan_factor_modifier", "winnings") else set()
    for path in leaves(root[key]):
        if path[:1] and path[0] in skip:
            continue
        original = get(root[key], path)
        for value in [v for v in candidates(original) if v != original]:
            data = copy_for(section, key)
            target = data["settings"] if section == "settings" else data["tables"]
            parent = get(target[key], path[:-1]) if path else target
            parent[path[-1] if path else key] = value
            try:
                changed = rules.Ruleset.from_data(data)
            except rules.RulesetError:
                continue
            yield " > ".join(map(str, path)) or key, changed
            break
        else:
            if key == "revival" and path[-1] in ("dice", "die"):
                # No dice (a fixed number of matches) has no die either: both change together.
                data = copy_for(section, key)
                data["tables"][key][path[0]].update(dice=1, die=6)
                yield " > ".join(map(str, path)), rules.Ruleset.from_data(data)
                continue
            raise AssertionError(f"{section}.{key} {path}: no valid change found to test")


# Settings that the services compute with, not a league.rules function: the service that reads them.
SERVICE_ONLY = {
    "promotion_count": "league/seasons/services/season_end.py",
    "promotion_fan_factor": "league/seasons/services/season_end.py",
    "trophy_rerolls": "league/seasons/services/season_end.py",
    "niggling_kept_between_seasons": "league/seasons/services/season_end.py",
    "apothecary_ap": "matches/prematch/ratings.py",  # the niggling checks
    "master_chef_die_price": "matches/prematch/chef.py",
    "bandage_crew_fee": "league/rules/injuries.py",  # healer_attempts, paid by the injuries step
    "apprentice_fee": "league/rules/injuries.py",
    "apprentice_players": "league/rules/injuries.py",
    "familiar_players": "league/rules/injuries.py",
    "retire_gives_assistant_coach": "teams/services.py",
    "forfeit_fan_factor_loss": "matches/results.py",  # R35: record_forfeit
    "forfeit_score": "matches/results.py",
}
DEAD = {}


def _cases() -> Iterator[Any]:
    for key in DEFAULT["settings"]:
        if key in SERVICE_ONLY:
            continue
        marks = [pytest.mark.xfail(strict=True, reason=DEAD[key])] if key in DEAD else []
        yield pytest.param("settings", key, id=f"settings.{key}", marks=marks)
    for key in DEFAULT["tables"]:
        yield pytest.param("tables", key, id=f"tables.{key}")


@pytest.mark.parametrize(("section", "key"), list(_cases()))
def test_changing_any_value_changes_a_result(section, key):
    dead = []
    tried = 0
    seen_by = None
    for where, changed in changed_versions(section, key):
        tried += 1
        probe = changed_probe(changed, seen_by)
        if probe is None:
            dead.append(where)
        else:
            seen_by = probe
    assert tried
    assert not dead, f"{section}.{key}: changing {dead[:10]} changes nothing league.rules computes"


@pytest.mark.parametrize(("key", "module"), sorted(SERVICE_ONLY.items()))
def test_settings_only_the_services_use_are_read_there(key, module):
    """No pure function computes with these (yet): at least the service that applies them reads them."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / module).read_text(encoding="utf-8")
    assert f".{key}" in source
    changed = copy.deepcopy(DEFAULT)
    value = changed["settings"][key]
    if isinstance(value, bool):
        changed["settings"][key] = not value
    elif isinstance(value, list):
        changed["settings"][key] = [value[0] + 1, *value[1:]]
    else:
        changed["settings"][key] = value + 1
    assert signature(changed) == BASE  # if a league.rules function starts using it, move it to the walk above


def test_every_setting_is_walked():
    walked = {k for k in DEFAULT["settings"] if k not in SERVICE_ONLY}
    assert walked | set(SERVICE_ONLY) == set(DEFAULT["settings"])
    assert set(DEAD) <= walked
