"""The rulebook's tables as frozen dataclasses: their names, the rows, bands and grids they are made of,
and the error that names a broken table and cell."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from league.rules.messages import N_, Msg

T = TypeVar("T")

TABLE_NAMES: dict[str, str] = {
    "fan_factor_modifier": "Fan Factor-modifier",
    "winnings": "Kampbonus",
    "vandalism": "Vandalisering",
    "handicap_count": "Handicap tabell 1",
    "handicap_results": "Handicap tabell 2",
    "skill_points": "Skillpoeng",
    "spp_awards": "Star Player Points",
    "development": "Utvikling",
    "mutations": "Mutasjon",
    "tzeentch_mutations": "Tzeentch mutasjonstabell",
    "mutation_positions": "Tzeentch mutasjoner (posisjoner)",
    "injury": "IR",
    "serious_injury": "Alvorlig skade-tabell",
    "revival": "Gjenoppliving-tabell",
    "apothecary_costs": "Healing (Lege)",
    "weather": "Vær",
    "roof_cancels_weather": "Tak (vær)",
    "kickoff": "Kick-Off",
    "facilities": "Stadion-fasiliteter",
    "fan_factor_change": "Fan Factor endring",
    "settings": "Innstillinger",
}

D66_CODES: tuple[int, ...] = tuple(10 * a + b for a in range(1, 7) for b in range(1, 7))
TWO_D6: tuple[int, ...] = tuple(range(2, 13))
STATS = ("MA", "ST", "AG", "AV")


class RulesetError(ValueError):
    """A table or setting that cannot be used, with where it is wrong."""

    def __init__(self, table: str, message: str, cell: str | None = None) -> None:
        self.table = table
        self.cell = cell
        self.message = message
        label = TABLE_NAMES.get(table, table)
        where = f"{label} ({table})" + (f", {cell}" if cell else "")
        super().__init__(f"{where}: {message}")


def fmt_int(value: int) -> str:
    return f"{value:,}"


@dataclass(frozen=True)
class Range:
    """Inclusive bounds; None is open-ended."""

    min: int | None
    max: int | None

    def contains(self, value: int) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def label(self) -> str:
        """ "40,001–60,000", "≤99", "26+": a `Msg`, so its numbers are written in the reader's language."""
        if self.min is None and self.max is None:
            return Msg(N_("all"))
        if self.min is None:
            return Msg(N_("≤%(max)s"), max=self.max)
        if self.max is None:
            return Msg(N_("%(min)s+"), min=self.min)
        if self.min == self.max:
            return Msg(N_("%(number)s"), number=self.min)
        return Msg(N_("%(min)s–%(max)s"), min=self.min, max=self.max)


@dataclass(frozen=True)
class Band(Generic[T]):
    range: Range
    value: T


@dataclass(frozen=True)
class BandTable(Generic[T]):
    """Rows keyed by an inclusive range of a number (SPP, overflow, a 2D6 or D66 result)."""

    key: str
    bands: tuple[Band[T], ...]

    def lookup(self, number: int) -> Band[T]:
        for band in self.bands:
            if band.range.contains(number):
                return band
        raise ValueError(f"{TABLE_NAMES.get(self.key, self.key)}: no row for {number}")


@dataclass(frozen=True)
class Grid:
    """A two-way table: row ranges × column ranges → integer cells (Kampbonus)."""

    key: str
    rows: tuple[Range, ...]
    columns: tuple[Range, ...]
    cells: tuple[tuple[int, ...], ...]

    def row_index(self, value: int) -> int:
        return next(i for i, r in enumerate(self.rows) if r.contains(value))

    def column_index(self, value: int) -> int:
        return next(i for i, c in enumerate(self.columns) if c.contains(value))


@dataclass(frozen=True)
class FanFactorGrid:
    """The FFM table: home gate (thousands, multiples of 5) down, away gate across."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    cells: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class HandicapColumn:
    tr: Range
    bands: tuple[Range, ...]  # index = number of rolls on table 2


@dataclass(frozen=True)
class HandicapResult:
    key: str
    name: str
    effect: str
    d66: Range
    effect_en: str = ""  # the effect in English, beside the Norwegian `effect`


@dataclass(frozen=True)
class SeriousInjury:
    name: str
    name_en: str
    miss_matches: int
    niggling: bool
    stat: str | None
    dead: bool
    d66: Range

    @property
    def badly_hurt_only(self) -> bool:
        return not (self.miss_matches or self.niggling or self.stat or self.dead)


@dataclass(frozen=True)
class Revival:
    """A revived player's injury: out `plus` + `dice`d`die` matches."""

    name: str
    dice: int
    die: int
    plus: int
    niggling: bool
    stat: str | None
    d66: Range

    def miss_matches(self, rolls: Sequence[int]) -> int:
        if len(rolls) != self.dice:
            raise ValueError(f"{self.name}: {self.dice} dice of D{self.die} needed, got {len(rolls)}")
        for roll in rolls:
            if not 1 <= roll <= self.die:
                raise ValueError(f"{self.name}: a D{self.die} shows 1–{self.die}, not {roll}")
        return self.plus + sum(rolls)

    def formula(self) -> str:
        if not self.dice:
            return str(self.plus)
        return f"{self.dice}D{self.die} + {self.plus}"


@dataclass(frozen=True)
class Named:
    key: str
    name: str
    effect: str = ""
    effect_en: str = ""


@dataclass(frozen=True)
class Facility:
    key: str
    name: str
    price: int
    price_per_seat: int
    effect: str
    effect_en: str = ""


@dataclass(frozen=True)
class Tables:
    fan_factor_modifier: FanFactorGrid
    winnings: Grid
    vandalism: BandTable[int | None]
    handicap_count: tuple[HandicapColumn, ...]
    handicap_results: BandTable[HandicapResult]
    skill_points: BandTable[tuple[int, str]]
    spp_awards: Mapping[str, int]
    development: BandTable[str]
    mutations: Mapping[str, tuple[str, ...]]
    tzeentch_mutations: BandTable[str]
    mutation_positions: tuple[str, ...]
    injury: BandTable[Named]
    serious_injury: BandTable[SeriousInjury]
    revival: BandTable[Revival]
    apothecary_costs: Mapping[str, int]
    weather: BandTable[Named]
    roof_cancels_weather: tuple[str, ...]
    kickoff: BandTable[Named]
    facilities: tuple[Facility, ...]
