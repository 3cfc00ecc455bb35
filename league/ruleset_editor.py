"""The board's rules editor: every setting a labelled field, every table a grid of inputs.

The layout (groups, labels, units, bounds, rulings, rulebook sections) lives here; validation is
`league.rules`' own (`parse_table`), the same code the structured-text admin and the seasons use.
A version's raw data is a JSON object; a cell is a path into it, which also gives the diff.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from league import rules

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Setting:
    path: Path  # into the ruleset's "settings"
    label: str | Promise
    unit: str | Promise = ""
    min: int | None = 0
    max: int | None = None
    ruling: str = ""
    source: str = ""  # the rulebook's section
    kind: str = "int"  # int | bool | ints (a list of numbers) | words (a list of keys)

    @property
    def name(self) -> str:
        return "s-" + "-".join(str(p) for p in self.path)


GP = _("gp")
SEATS = _("seats")
D6 = _("on a D6")
PERCENT = "%"
PER_DIE = _("per die")
TEAMS = "Lagene"
STAFF = "Medarbeidere og trening"
STADIUM = "Stadion"
TICKETS = "Stadion – Billettpriser"
GAME = "Spillets gang"
AFTER = "Etter kampen"
SEASON = "Seriespillet og Sesongen"
INJURIES = "Skader – Lege og Bandage Crew"

GROUPS: tuple[tuple[str, str | Promise, tuple[Setting, ...], tuple[str, ...]], ...] = (
    (
        "team",
        _("Team creation and staff"),
        (
            Setting(
                ("tr_divisor",), _("Team rating: total value divided by"), GP, 1, None, "R1", TEAMS + " – Team Rating"
            ),
            Setting(("max_squad",), _("Players counted in the team rating"), _("players"), 1, 25, "R3", TEAMS),
            Setting(("starting_treasury",), _("Starting treasury"), GP, 0, None, "R5", TEAMS),
            Setting(("min_players_creation",), _("Players at least, at creation"), _("players"), 0, 25, "R5", TEAMS),
            Setting(("max_players",), _("Players at most on a roster"), _("players"), 1, 99, "R5", TEAMS),
            Setting(("max_rerolls",), _("Team re-rolls at most"), _("re-rolls"), 0, 99, "R5", STAFF),
            Setting(("reroll_percent", "creation"), _("Re-roll price at creation"), PERCENT, 1, 1000, "R7", STAFF),
            Setting(("reroll_percent", "season"), _("Re-roll price during a season"), PERCENT, 1, 1000, "R7", STAFF),
            Setting(
                ("reroll_percent", "offseason"), _("Re-roll price between seasons"), PERCENT, 1, 1000, "R7, R33", STAFF
            ),
            Setting(("fan_factor_price",), _("Fan factor price at creation"), GP, 0, None, "R5", TEAMS),
            Setting(("fan_factor_value",), _("Fan factor's value in the team rating"), GP, 0, None, "R2", TEAMS),
            Setting(("max_fan_factor_creation",), _("Fan factor at most at creation"), "", 0, 99, "R5", TEAMS),
            Setting(("apothecary_price",), _("Apothecary price"), GP, 0, None, "R5", STAFF),
            Setting(("apothecary_value",), _("Apothecary's value in the team rating"), GP, 0, None, "R2", STAFF),
            Setting(("assistant_coach_price",), _("Assistant coach price"), GP, 0, None, "R5", STAFF),
            Setting(("cheerleader_step",), _("Cheerleaders: the n-th costs n ×"), GP, 0, None, "R6", STAFF),
            Setting(("big_guy_limit",), _("Big Guys at most per team"), "", 0, 16, "R5", TEAMS),
            Setting(("master_chef_die_price",), _("Master Chef: price of a die"), GP, 0, None, "R9", STAFF),
            Setting(
                ("retire_gives_assistant_coach",),
                _("A retired player becomes a free assistant coach"),
                "",
                None,
                None,
                "R8",
                STAFF,
                "bool",
            ),
        ),
        (),
    ),
    (
        "gate",
        _("Gate and fans"),
        (
            Setting(("gate_unit",), _("Gate: each point of the dice is"), _("spectators"), 1, None, "R12", GAME),
            Setting(("division_dice", "1"), _("Gate and winnings die, 1st division"), _("sides"), 2, 20, "R12", GAME),
            Setting(("division_dice", "2"), _("Gate and winnings die, 2nd division"), _("sides"), 2, 20, "R12", GAME),
            Setting(("home_gate_modifier",), _("Home team's gate modifier"), PER_DIE, -6, 6, "R13", STADIUM),
            Setting(("away_gate_modifier",), _("Away team's gate modifier"), PER_DIE, -6, 6, "R13", STADIUM),
            Setting(
                ("ticket_gate_modifier", "cheap"), _("Cheap tickets: gate modifier"), PER_DIE, -6, 6, "R13", TICKETS
            ),
            Setting(
                ("ticket_gate_modifier", "ordinary"),
                _("Ordinary tickets: gate modifier"),
                PER_DIE,
                -6,
                6,
                "R13",
                TICKETS,
            ),
            Setting(
                ("ticket_gate_modifier", "expensive"),
                _("Expensive tickets: gate modifier"),
                PER_DIE,
                -6,
                6,
                "R13",
                TICKETS,
            ),
            Setting(("fan_factor_change", "win"), _("Fan factor roll: a win"), "", -6, 6, "R30", AFTER),
            Setting(("fan_factor_change", "draw"), _("Fan factor roll: a draw"), "", -6, 6, "R30", AFTER),
            Setting(("fan_factor_change", "loss"), _("Fan factor roll: a loss"), "", -6, 6, "R30", AFTER),
            Setting(("fan_factor_change", "touchdowns_needed"), _("Touchdowns for the bonus"), "", 0, 99, "R30", AFTER),
            Setting(("fan_factor_change", "touchdowns_bonus"), _("Bonus for the touchdowns"), "", -6, 6, "R30", AFTER),
            Setting(
                ("fan_factor_change", "casualties_needed"),
                _("Casualties caused for the bonus"),
                "",
                0,
                99,
                "R30, R38",
                AFTER,
            ),
            Setting(("fan_factor_change", "casualties_bonus"), _("Bonus for the casualties"), "", -6, 6, "R30", AFTER),
            Setting(
                ("fan_factor_change", "crowd_casualty_bonus"),
                _("Your crowd caused a casualty"),
                "",
                -6,
                6,
                "R30",
                AFTER,
            ),
            Setting(
                ("fan_factor_change", "per_fan_factor"), _("For each … points of fan factor"), "", 1, 99, "R30", AFTER
            ),
            Setting(("fan_factor_change", "per_fan_factor_modifier"), _("… the roll gets"), "", -6, 6, "R30", AFTER),
            Setting(
                ("fan_factor_change", "down_below"),
                _("Fan factor goes down when the total is below"),
                "",
                -20,
                20,
                "R30",
                AFTER,
            ),
            Setting(
                ("fan_factor_change", "up_above"),
                _("Fan factor goes up when the total is above"),
                "",
                -20,
                20,
                "R30",
                AFTER,
            ),
            Setting(
                ("tv_station_fan_factor_bonus",), _("TV station: fan factor roll bonus"), "", -6, 6, "R19", STADIUM
            ),
        ),
        ("fan_factor_modifier",),
    ),
    (
        "stadium",
        _("Stadium"),
        (
            Setting(("start_capacity",), _("Starting capacity"), SEATS, 0, None, "R16", STADIUM),
            Setting(
                ("start_capacity_first_division",),
                _("Starting capacity, 1st division teams when stadium rules begin"),
                SEATS,
                0,
                None,
                "R16",
                STADIUM,
            ),
            Setting(("expansion_step",), _("An expansion adds"), SEATS, 1, None, "R16", STADIUM),
            Setting(("expansion_rounding",), _("Expansion cost rounded down to whole"), GP, 1, None, "R16", STADIUM),
            Setting(
                ("roof_price_per_new_seat",), _("With a roof, each new seat costs extra"), GP, 0, None, "R16", STADIUM
            ),
            Setting(("roof_price_per_seat",), _("A roof costs per current seat"), GP, 0, None, "R16", STADIUM),
            Setting(
                ("overcrowding_percent",),
                _("Attendance counts up to"),
                _("percent of capacity"),
                100,
                1000,
                "R17",
                STADIUM + " – Underkapasitet",
            ),
            Setting(
                ("seats_destroyed_percent",),
                _("Vandalised: seats destroyed"),
                _("percent of the overflow"),
                0,
                100,
                "R18",
                STADIUM + " – Vandalisering",
            ),
            Setting(("caretakers_repair",), _("Caretakers repair up to"), SEATS, 0, None, "R18", "Stadion-fasiliteter"),
            Setting(
                ("neutral_capacity",),
                _("Neutral venue's capacity"),
                SEATS,
                0,
                None,
                "R14",
                "Spesielle bestemmelser om cupen",
            ),
            Setting(
                ("home_team_rerolls",),
                _("Home team's extra re-rolls"),
                _("re-rolls"),
                0,
                9,
                "R14",
                STADIUM + " – Hjemmebane",
            ),
        ),
        ("vandalism", "facilities"),
    ),
    (
        "winnings",
        _("Winnings"),
        (
            Setting(
                ("winnings_unit",), _("Each point of the winnings roll is"), GP, 1, None, "R20", AFTER + " – Premier"
            ),
            Setting(("winnings_win_bonus",), _("Winnings roll: the winner"), "", -6, 6, "R20", AFTER + " – Premier"),
            Setting(
                ("winnings_home_bonus",), _("Winnings roll: the home team"), "", -6, 6, "R20", AFTER + " – Premier"
            ),
            Setting(
                ("ticket_winnings_row_shift", "cheap"),
                _("Cheap tickets: rows moved in the winnings table"),
                _("rows"),
                -9,
                9,
                "R20",
                TICKETS,
            ),
            Setting(
                ("ticket_winnings_row_shift", "ordinary"),
                _("Ordinary tickets: rows moved in the winnings table"),
                _("rows"),
                -9,
                9,
                "R20",
                TICKETS,
            ),
            Setting(
                ("ticket_winnings_row_shift", "expensive"),
                _("Expensive tickets: rows moved in the winnings table"),
                _("rows"),
                -9,
                9,
                "R20",
                TICKETS,
            ),
            Setting(
                ("vip_lounge_bonus",), _("VIP lounge: winnings roll bonus"), "", -6, 6, "R19", "Stadion-fasiliteter"
            ),
            Setting(
                ("vip_lounge_threshold",),
                _("VIP lounge: touchdowns or casualties needed"),
                "",
                0,
                99,
                "R19, R38",
                "Stadion-fasiliteter",
            ),
            Setting(("kiosk_target",), _("Kiosk: income on"), _("or more on a D6"), 1, 7, "R19", "Stadion-fasiliteter"),
            Setting(("kiosk_income",), _("Kiosk income"), GP, 0, None, "R19", "Stadion-fasiliteter"),
        ),
        ("winnings",),
    ),
    (
        "injuries",
        _("Injuries and healers"),
        (
            Setting(("apothecary_ap",), _("Apothecary: ability points per match"), _("AP"), 0, 99, "R26", INJURIES),
            Setting(
                ("apothecary_target",),
                _("Apothecary: each attempt succeeds on"),
                _("or more on a D6"),
                1,
                7,
                "R26",
                INJURIES,
            ),
            Setting(("bandage_crew_fee",), _("Bandage Crew: fee per attempt"), GP, 0, None, "R25", INJURIES),
            Setting(
                ("bandage_crew_targets",),
                _("Bandage Crew: attempts need"),
                _("1st, 2nd, 3rd … attempt"),
                1,
                7,
                "R25",
                INJURIES,
                "ints",
            ),
            Setting(
                ("apprentice_fee",), _("Apprentice or Familiar: fee"), GP, 0, None, "R9", STAFF + " – Necromancers"
            ),
            Setting(
                ("apprentice_target",),
                _("Apprentice or Familiar: revives on"),
                _("or more on a D6"),
                1,
                7,
                "R9",
                STAFF + " – Necromancers",
            ),
            Setting(
                ("apprentice_players",),
                _("Apprentice: players per match"),
                _("players"),
                0,
                16,
                "R9",
                STAFF + " – Necromancers",
            ),
            Setting(
                ("familiar_players",),
                _("Nurgle Familiar: players per match"),
                _("players"),
                0,
                16,
                "R9",
                STAFF + " – Nurgle Familiar",
            ),
            Setting(
                ("regeneration_target",),
                _("Regeneration succeeds on"),
                _("or more on a D6"),
                1,
                7,
                "R25",
                "Regeneration",
            ),
            Setting(
                ("niggling_fails_on",),
                _("A niggling injury check fails on"),
                _("or less on a D6"),
                0,
                6,
                "R36",
                GAME + " – Sjekk spillere for NI",
            ),
            Setting(
                ("niggling_kept_between_seasons",),
                _("Niggling injuries kept between seasons"),
                "",
                0,
                9,
                "R33",
                "Sesongen",
            ),
        ),
        ("serious_injury", "revival", "apothecary_costs"),
    ),
    (
        "players",
        _("Players and development"),
        (
            Setting(
                ("stat_limit",),
                _("A stat changes at most"),
                _("from the position's value"),
                0,
                9,
                "R29",
                AFTER + " – STAT-økning",
            ),
            Setting(("mvp_limit",), _("MVPs a team receives"), _("matches"), 0, 999, "R27", AFTER + " – MVP"),
        ),
        ("development", "skill_points", "spp_awards"),
    ),
    (
        "handicap",
        _("Handicap"),
        (),
        ("handicap_count", "handicap_results"),
    ),
    (
        "season",
        _("Season and cup"),
        (
            Setting(("points", "win"), _("Points for a win"), _("points"), 0, 99, "R31", "Seriespillet"),
            Setting(("points", "draw"), _("Points for a draw"), _("points"), 0, 99, "R31", "Seriespillet"),
            Setting(("points", "loss"), _("Points for a loss"), _("points"), 0, 99, "R31", "Seriespillet"),
            Setting(("tiebreakers",), _("Tie-breakers, in order"), "", None, None, "R31", "Seriespillet", "words"),
            Setting(
                ("prizes", "1"), _("Prizes, 1st division (1st, 2nd, 3rd …)"), GP, 0, None, "R32", "Sesongen", "ints"
            ),
            Setting(
                ("prizes", "2"), _("Prizes, 2nd division (1st, 2nd, 3rd …)"), GP, 0, None, "R32", "Sesongen", "ints"
            ),
            Setting(("promotion_count",), _("Teams promoted and relegated"), _("teams"), 0, 16, "R32", "Sesongen"),
            Setting(("promotion_fan_factor",), _("Fan factor for a promoted team"), "", -9, 9, "R32", "Sesongen"),
            Setting(("trophy_rerolls",), _("Trophy re-rolls for next season"), _("re-rolls"), 0, 9, "R32", "Sesongen"),
            Setting(
                ("forfeit_fan_factor_loss",), _("A forfeit costs fan factor"), "", 0, 99, "R35", "Oberwald FAQ 3.7"
            ),
            Setting(
                ("forfeit_score",),
                _("A forfeit is scored"),
                _("home, away touchdowns"),
                0,
                99,
                "R35",
                "Oberwald FAQ 3.7",
                "ints",
            ),
        ),
        (),
    ),
)

TIEBREAKERS = ("points", "head_to_head_points", "touchdown_difference", "touchdowns_for", "tiebreak_game")


# --- tables: how the book prints them ------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    key: str | None  # a record's field; None for a grid column
    label: str | Promise
    kind: str = "int"  # int | text | bool | stat | choice | range | target
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()


@dataclass
class CellSpec:
    name: str
    table: str
    path: Path  # into the table's raw data
    row: str
    column: str
    kind: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    pure: str = ""  # the cell as league.rules names it in a RulesetError


@dataclass
class TableSpec:
    key: str
    title: str
    ruling: str
    source: str
    corner: str | Promise
    columns: list[str]
    rows: list[tuple[str, list[CellSpec | None]]] = field(default_factory=list)
    note: str | Promise = ""

    def cells(self) -> Iterator[CellSpec]:
        for _label, row in self.rows:
            yield from (c for c in row if c is not None)


def _cell(table: str, path: Path, row: str, col: Column | str, pure: str, **kw: Any) -> CellSpec:
    if isinstance(col, Column):
        kw = {"kind": col.kind, "min": col.min, "max": col.max, "choices": col.choices, **kw}
        col = str(col.label)
    name = "t-" + table + "-" + "-".join(str(p) for p in path)
    return CellSpec(name=name, table=table, path=path, row=row, column=col, pure=pure, **kw)


def _record_table(key: str, raw: list[dict], columns: list[Column], *, row_key: str = "range") -> list:
    rows = []
    for i, entry in enumerate(raw):
        label = rules_range_label(entry) if row_key == "range" else str(entry.get(row_key, i + 1))
        cells = [
            _cell(key, (i, c.key), label, c, f"row {rules_range_label(entry)} {c.key}")  # type: ignore[arg-type]
            for c in columns
        ]
        rows.append((label, cells))
    return rows


def rules_range_label(entry: dict) -> str:
    return rules.tables.Range(entry.get("min"), entry.get("max")).label()


def table_specs(data: dict[str, Any]) -> dict[str, TableSpec]:
    """The editable tables of a version, laid out as the rulebook prints them."""
    t = data["tables"]
    specs: dict[str, TableSpec] = {}
    name = rules.TABLE_NAMES

    w = t["winnings"]
    cols = [rules_range_label(c) for c in w["columns"]]
    spec = TableSpec("winnings", name["winnings"], "R20, R21", AFTER + " – Premier", _("Attendance \\ TR"), cols)
    for i, r in enumerate(w["rows"]):
        label = rules_range_label(r)
        spec.rows.append(
            (
                label,
                [
                    _cell(
                        "winnings", ("cells", i, j), label, c, f"row {label}, column {c}", kind="int", min=-20, max=20
                    )
                    for j, c in enumerate(cols)
                ],
            )
        )
    specs["winnings"] = spec

    f = t["fan_factor_modifier"]
    cols = [str(c) for c in f["columns"]]
    spec = TableSpec(
        "fan_factor_modifier",
        name["fan_factor_modifier"],
        "R15",
        GAME + " – Fan Factor-modifier tabell",
        _("Home \\ away (thousands)"),
        cols,
        note=_("Home gate down, away gate across, in thousands rounded up to a multiple of 5."),
    )
    for i, r in enumerate(f["rows"]):
        spec.rows.append(
            (
                str(r),
                [
                    _cell(
                        "fan_factor_modifier",
                        ("cells", i, j),
                        str(r),
                        c,
                        f"row {r}, column {c}",
                        kind="int",
                        min=-20,
                        max=20,
                    )
                    for j, c in enumerate(cols)
                ],
            )
        )
    specs["fan_factor_modifier"] = spec

    target = Column("target", _("D6 to avoid (empty: no risk, 7: automatic)"), "target", 2, 7)
    spec = TableSpec(
        "vandalism", name["vandalism"], "R18", STADIUM + " – Vandalisering", _("Overflow"), [str(target.label)]
    )
    spec.rows = [
        (rules_range_label(e), [_cell("vandalism", (i, "target"), rules_range_label(e), target, f"row {i + 1} target")])
        for i, e in enumerate(t["vandalism"])
    ]
    specs["vandalism"] = spec

    hc = t["handicap_count"]
    width = max(len(c["bands"]) for c in hc)
    spec = TableSpec(
        "handicap_count",
        name["handicap_count"],
        "R22",
        GAME + " – Handicap tabell 1",
        _("Lower TR \\ rolls"),
        [str(n) for n in range(width)],
        note=_("Each cell is the TR difference that gives that many rolls, e.g. 26–50; the last is open, e.g. 121+."),
    )
    for i, c in enumerate(hc):
        label = "TR " + rules_range_label(c)
        cells: list[CellSpec | None] = []
        for j in range(width):
            cells.append(
                _cell(
                    "handicap_count",
                    (i, "bands", j),
                    label,
                    str(j),
                    f"column {rules_range_label(c)}, band {j + 1}",
                    kind="range",
                )
            )
        spec.rows.append((label, cells))
    specs["handicap_count"] = spec

    specs["handicap_results"] = TableSpec(
        "handicap_results",
        name["handicap_results"],
        "R22, R23",
        GAME + " – Handicap tabell 2",
        "D66",
        [str(_("Name")), str(_("Effect"))],
        _record_table(
            "handicap_results",
            t["handicap_results"],
            [Column("name", _("Name"), "text"), Column("effect", _("Effect"), "long")],
        ),
    )
    si_cols = [
        Column("name", _("Name"), "text"),
        Column("name_en", _("Name (English)"), "text"),
        Column("miss", _("Misses matches"), "int", 0, 99),
        Column("niggling", _("Niggling injury"), "bool"),
        Column("stat", _("Stat -1"), "stat"),
        Column("dead", _("Dead"), "bool"),
    ]
    specs["serious_injury"] = TableSpec(
        "serious_injury",
        name["serious_injury"],
        "R25",
        INJURIES + " – Alvorlig skade-tabell",
        "D66",
        [str(c.label) for c in si_cols],
        _record_table("serious_injury", t["serious_injury"], si_cols),
    )
    rv_cols = [
        Column("name", _("Name"), "text"),
        Column("plus", _("Matches out"), "int", 0, 99),
        Column("dice", _("+ dice"), "int", 0, 9),
        Column("die", _("D (sides)"), "int", 0, 20),
        Column("niggling", _("Niggling injury"), "bool"),
        Column("stat", _("Stat -1"), "stat"),
    ]
    specs["revival"] = TableSpec(
        "revival",
        name["revival"],
        "R25",
        INJURIES + " – Gjenoppliving-tabell",
        "D66",
        [str(c.label) for c in rv_cols],
        _record_table("revival", t["revival"], rv_cols),
    )
    specs["development"] = TableSpec(
        "development",
        name["development"],
        "R29",
        AFTER + " – Spillerutviklinger",
        "2D6",
        [str(_("Result"))],
        _record_table(
            "development",
            t["development"],
            [Column("result", _("Result"), "choice", choices=("skill", "MA", "AG", "ST", "AV"))],
        ),
        note=_("A double also allows a trait from the normal categories or a skill from any other (R29)."),
    )
    specs["skill_points"] = TableSpec(
        "skill_points",
        name["skill_points"],
        "R4",
        AFTER + " – Skillpoeng",
        "SPP",
        [str(_("Title")), str(_("Skill points"))],
        _record_table(
            "skill_points",
            t["skill_points"],
            [Column("title", _("Title"), "text"), Column("points", _("Skill points"), "int", 0, 999)],
        ),
    )
    for key, ruling, source in (
        ("spp_awards", "R28", AFTER + " – Spillerutviklinger"),
        ("apothecary_costs", "R26", INJURIES),
    ):
        spec = TableSpec(key, name[key], ruling, source, "", [str(_("Value"))])
        spec.rows = [(k, [_cell(key, (k,), k, str(_("Value")), k, kind="int", min=0, max=99)]) for k in t[key]]
        specs[key] = spec
    fac_cols = [
        Column("price", _("Price"), "int", 0, None),
        Column("price_per_seat", _("Price per seat"), "int", 0, None),
    ]
    spec = TableSpec(
        "facilities", name["facilities"], "R16, R19", "Stadion-fasiliteter", "", [str(c.label) for c in fac_cols]
    )
    spec.rows = [
        (e["name"], [_cell("facilities", (i, c.key), e["name"], c, f"row {i + 1} {c.key}") for c in fac_cols])  # type: ignore[arg-type]
        for i, e in enumerate(t["facilities"])
    ]
    specs["facilities"] = spec
    return specs


# --- reading and writing one cell ----------------------------------------------------------------


def get_path(data: Any, path: Path) -> Any:
    for p in path:
        try:
            data = data[p]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def set_path(data: Any, path: Path, value: Any) -> None:
    for p in path[:-1]:
        data = data[p]
    data[path[-1]] = value


def parse_number(text: str) -> int | None:
    """A whole number as people type it: 10 000, 10.000, 10,000, +2, \u22121. None if it is not one."""
    s = text.strip().replace("\u2212", "-").replace("\u2013", "-")
    s = re.sub(r"[\s\u00a0\u202f]", "", s)
    if re.fullmatch(r"[+-]?\d{1,3}([.,]\d{3})+", s):
        s = re.sub(r"[.,]", "", s)
    if not re.fullmatch(r"[+-]?\d+", s):
        return None
    return int(s)


def show(value: Any, kind: str = "int") -> str:
    """A raw value as the editor and the diff show it."""
    if value is None:
        return ""
    if kind == "range" and isinstance(value, list):
        lo, hi = value
        return f"{lo}+" if hi is None else f"{lo}–{hi}"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return ", ".join(show(v) for v in value)
    return str(value)


def settings_rows(data: dict[str, Any]) -> list[tuple[str, list[tuple[Setting, str]]]]:
    """A version's settings for reading: grouped as the rulebook is, each with its label and value."""
    return [
        (str(title), [(s, show(get_path(data["settings"], s.path))) for s in group_settings])
        for _key, title, group_settings, _tables in GROUPS
        if group_settings
    ]


class CellError(ValueError):
    pass


def convert(spec: CellSpec | Setting, text: Any, where: str) -> Any:
    """The form's text for one cell as the raw value, or a CellError in Norwegian naming the cell."""
    kind = spec.kind
    if kind == "bool":
        return bool(text)
    text = "" if text is None else str(text).strip()
    if kind in ("text", "long"):
        if not text:
            raise CellError(gettext("%(where)s: write a text.") % {"where": where})
        return text
    if kind in ("stat", "choice"):
        return text or None
    if kind == "words":
        words = [w.strip() for w in text.split(",") if w.strip()]
        bad = [w for w in words if w not in TIEBREAKERS]
        if bad or not words:
            raise CellError(
                gettext("%(where)s: use these words, separated by commas: %(words)s.")
                % {"where": where, "words": ", ".join(TIEBREAKERS)}
            )
        return words
    if kind == "ints":
        parts = [p for p in re.split(r"[;/]|,\s*(?!\d{3}\b)", text) if p.strip()] if text else []
        return [_number(spec, p, where) for p in parts]
    if kind == "target" and not text:
        return None
    if kind == "range":
        if not text:
            return None
        m = re.fullmatch(r"\s*(\S+?)\s*(?:[-\u2013\u2212]\s*(\S+)|(\+))\s*", text)
        if not m:
            raise CellError(
                gettext("%(where)s: “%(value)s” is not a range like 26–50 or 121+.") % {"where": where, "value": text}
            )
        lo = _number(spec, m.group(1), where)
        hi = None if m.group(3) else _number(spec, m.group(2), where)
        return [lo, hi]
    if not text:
        raise CellError(gettext("%(where)s: a number is needed.") % {"where": where})
    return _number(spec, text, where)


def _number(spec: CellSpec | Setting, text: str, where: str) -> int:
    n = parse_number(text)
    if n is None:
        raise CellError(
            gettext("%(where)s: “%(value)s” is not a whole number.") % {"where": where, "value": text.strip()}
        )
    if spec.min is not None and n < spec.min:
        raise CellError(
            gettext("%(where)s: %(value)s is below the lowest allowed, %(min)s.")
            % {"where": where, "value": n, "min": spec.min}
        )
    if spec.max is not None and n > spec.max:
        raise CellError(
            gettext("%(where)s: %(value)s is above the highest allowed, %(max)s.")
            % {"where": where, "value": n, "max": spec.max}
        )
    return n


def cell_where(spec: CellSpec) -> str:
    title = rules.TABLE_NAMES.get(spec.table, spec.table)
    if spec.column and spec.column != spec.row:
        return gettext("%(table)s, row %(row)s, column %(column)s") % {
            "table": title,
            "row": spec.row,
            "column": spec.column,
        }
    return gettext("%(table)s, row %(row)s") % {"table": title, "row": spec.row}


# --- the form ------------------------------------------------------------------------------------


def _widget(kind: str, choices: tuple[str, ...] = ()) -> forms.Widget:
    if kind == "bool":
        return forms.CheckboxInput()
    if kind in ("stat", "choice"):
        options = [("", "—")] + [(c, c) for c in (choices or rules.tables.STATS)]
        return forms.Select(choices=options)
    if kind == "text":
        return forms.TextInput(attrs={"class": "cell-text"})
    if kind == "long":
        return forms.Textarea(attrs={"class": "cell-long", "rows": 2})
    return forms.TextInput(attrs={"class": "cell-num", "inputmode": "text", "autocomplete": "off", "size": 5})


def _initial(kind: str, value: Any) -> Any:
    if kind == "bool":
        return bool(value)
    if kind == "range":
        return show(value, "range")
    if kind in ("ints", "words"):
        return ", ".join(str(v) for v in value or [])
    return "" if value is None else value


class RulesetEditorForm(forms.Form):
    """Name, notes, every setting and every editable table cell of a draft version."""

    name = forms.CharField(label=_("Name"), max_length=100)
    notes = forms.CharField(label=_("What changed and why"), required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, ruleset: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.original = copy.deepcopy(ruleset.data)
        self.fields["name"].initial = ruleset.name
        self.fields["notes"].initial = ruleset.notes
        self.tables = table_specs(self.original)
        settings = self.original["settings"]
        for _key, _title, group_settings, _tables in GROUPS:
            for s in group_settings:
                bounds = []
                if s.min is not None:
                    bounds.append(gettext("at least %(n)s") % {"n": s.min})
                if s.max is not None:
                    bounds.append(gettext("at most %(n)s") % {"n": s.max})
                help_parts = [p for p in (s.ruling, gettext("Rulebook: %(section)s") % {"section": s.source}) if p]
                if s.kind == "int" and bounds:
                    help_parts.append(", ".join(bounds))
                if s.kind == "words":
                    help_parts.append(", ".join(TIEBREAKERS))
                self.fields[s.name] = forms.CharField(
                    label=s.label,
                    required=False,
                    initial=_initial(s.kind, get_path(settings, s.path)),
                    help_text=" · ".join(str(p) for p in help_parts),
                    widget=_widget(s.kind) if s.kind == "bool" else forms.TextInput(attrs={"class": "setting-input"}),
                )
                if s.kind == "bool":
                    self.fields[s.name] = forms.BooleanField(
                        label=s.label,
                        required=False,
                        initial=bool(get_path(settings, s.path)),
                        help_text=self.fields[s.name].help_text,
                    )
        for spec in self.tables.values():
            for c in spec.cells():
                value = get_path(self.original["tables"][spec.key], c.path)
                field_class = forms.BooleanField if c.kind == "bool" else forms.CharField
                self.fields[c.name] = field_class(
                    label=cell_where(c),
                    required=False,
                    initial=_initial(c.kind, value),
                    widget=_widget(c.kind, c.choices),
                )
                self.fields[c.name].widget.attrs["aria-label"] = cell_where(c)  # the headers name it visually

    def groups(self) -> list[dict[str, Any]]:
        """The form laid out for the template: groups of settings and tables of bound fields."""
        out = []
        for key, title, group_settings, table_keys in GROUPS:
            tables = []
            for tk in table_keys:
                spec = self.tables[tk]
                tables.append(
                    {
                        "spec": spec,
                        "errors": self.errors.get(f"table-{tk}", []) if self.is_bound else [],
                        "rows": [(label, [self[c.name] if c else None for c in row]) for label, row in spec.rows],
                    }
                )
            out.append(
                {
                    "key": key,
                    "title": title,
                    "settings": [(s, self[s.name]) for s in group_settings],
                    "tables": tables,
                }
            )
        return out

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        data = copy.deepcopy(self.original)
        for _key, _title, group_settings, _tables in GROUPS:
            for s in group_settings:
                try:
                    set_path(data["settings"], s.path, convert(s, cleaned.get(s.name), str(s.label)))
                except CellError as exc:
                    self.add_error(s.name, str(exc))
        for spec in self.tables.values():
            raw = data["tables"][spec.key]
            if spec.key == "handicap_count":
                for col in raw:
                    col["bands"] = []  # rebuilt from the cells: an empty cell means no more rolls
            for c in spec.cells():
                try:
                    value = convert(c, cleaned.get(c.name), cell_where(c))
                except CellError as exc:
                    self.add_error(c.name, str(exc))
                    continue
                if c.kind == "range":
                    if value is not None:
                        raw[c.path[0]]["bands"].append(value)
                else:
                    set_path(raw, c.path, value)
        if self.errors:
            return cleaned
        # The same checks league.rules makes on any version: a table as a whole (gaps, overlaps, …).
        for key in ("settings", *self.tables):
            value = data["settings"] if key == "settings" else data["tables"][key]
            try:
                rules.parse_table(key, value)
            except rules.RulesetError as exc:
                self._add_rules_error(key, exc)
        if not self.errors:
            data["name"] = cleaned.get("name", "")
            try:
                rules.parse_ruleset_data(data)
            except rules.RulesetError as exc:
                self.add_error(None, str(exc))
        self.data_out = data
        return cleaned

    def _add_rules_error(self, key: str, exc: rules.RulesetError) -> None:
        exc = rules.RulesetError(exc.table, rules_message(exc.message), exc.cell)
        """Put league.rules' message on the cell it names, else on the table (or the form)."""
        if key == "settings":
            target = next(
                (
                    s.name
                    for *_x, group_settings, _t in GROUPS
                    for s in group_settings
                    if exc.cell and exc.cell.startswith(s.path[0])
                ),
                None,
            )
            self.add_error(
                target,
                gettext("%(where)s: %(message)s") % {"where": rules.TABLE_NAMES["settings"], "message": exc.message},
            )
            return
        spec = self.tables[key]
        cells = list(spec.cells())
        cell = next((c for c in cells if exc.cell == c.pure), None) or next(
            (c for c in cells if exc.cell and exc.cell.startswith(c.pure + " ")), None
        )
        where = cell_where(cell) if cell else spec.title
        message = gettext("%(where)s: %(message)s") % {"where": where, "message": exc.message}
        if cell is not None:
            self.add_error(cell.name, message)
        else:
            self.add_error(None, message)


# league.rules' checks of a whole table, in the interface's language (the package stays English).
RULES_MESSAGES: tuple[tuple[str, str], ...] = (
    (r"^gap between (.+) and (.+)$", gettext_noop("gap between %s and %s")),
    (r"^overlap between (.+) and (.+)$", gettext_noop("overlap between %s and %s")),
    (r"^must start at (.+), starts at (.+)$", gettext_noop("must start at %s, starts at %s")),
    (r"^an open-ended range must be the last$", gettext_noop("an open-ended range must be the last")),
    (r"^the last .+ must be open-ended \((.+)\)$", gettext_noop("the last must be open-ended (%s)")),
    (r"^must be above 0$", gettext_noop("must be above 0")),
    (r"^min (.+) is above max (.+)$", gettext_noop("min %s is above max %s")),
)


def rules_message(message: str) -> str:
    for pattern, template in RULES_MESSAGES:
        m = re.match(pattern, message)
        if m:
            return gettext(template) % m.groups()
    return message


# --- the differences between two versions ------------------------------------------------------


@dataclass(frozen=True)
class Change:
    section: str
    label: str
    old: str
    new: str


def _flatten(value: Any, prefix: Path = ()) -> dict[Path, Any]:
    if isinstance(value, dict):
        out: dict[Path, Any] = {}
        for k, v in value.items():
            out.update(_flatten(v, (*prefix, k)))
        return out
    if isinstance(value, list) and value and all(isinstance(v, dict | list) for v in value):
        out = {}
        for i, v in enumerate(value):
            out.update(_flatten(v, (*prefix, i)))
        return out
    return {prefix: value}


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Every setting and table cell that differs, labelled as the editor labels it (label, old → new)."""
    changes: list[Change] = []
    known: set[Path] = set()
    for _key, title, group_settings, _tables in GROUPS:
        for s in group_settings:
            path = ("settings", *s.path)
            known.add(path)
            a, b = get_path(old, path), get_path(new, path)
            if a != b:
                changes.append(Change(str(title), str(s.label), show(a), show(b)))
    for key, spec in table_specs(new).items():
        for c in spec.cells():
            path = ("tables", key, *c.path)
            known.add(path)
            a, b = get_path(old, path), get_path(new, path)
            if c.kind == "range" and a is None and b is None:
                continue
            if a != b:
                label = cell_where(c)
                changes.append(Change(spec.title, label, show(a, c.kind), show(b, c.kind)))
    # Everything else (the tables only the advanced view edits), by its place in the data.
    flat_old, flat_new = _flatten(old), _flatten(new)
    for path in sorted(set(flat_old) | set(flat_new), key=lambda p: [str(x) for x in p]):
        if path[:1] == ("name",) or any(path[: len(k)] == k or k[: len(path)] == path for k in known):
            continue
        if path[:2] == ("tables", "handicap_count"):
            continue  # compared cell by cell above
        a, b = flat_old.get(path), flat_new.get(path)
        if a != b:
            section = rules.TABLE_NAMES.get(str(path[1]), str(path[1])) if len(path) > 1 else str(path[0])
            changes.append(Change(section, " > ".join(str(p) for p in path[2:]) or section, show(a), show(b)))
    return changes
