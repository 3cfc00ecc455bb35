"""What every section of the rulebook shares: a result with the table cells behind it (`Explained`),
the kinds of a phase, ticket and result, and the checks of dice and counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from league.rules.messages import N_, Msg
from league.rules.tables import D66_CODES, TABLE_NAMES, RulesetData, Settings, Tables

Phase = Literal["creation", "season", "offseason"]
Ticket = Literal["ordinary", "cheap", "expensive"]
MatchResult = Literal["win", "draw", "loss"]

# The ticket prices as the catalogue knows them.
TICKETS = {"ordinary": N_("ordinary"), "cheap": N_("cheap"), "expensive": N_("expensive")}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@dataclass(frozen=True)
class Cell:
    """One cell of one table that a result came from."""

    table: str
    row: str
    column: str | None
    value: str

    def __str__(self) -> str:
        """ "Kampbonus: row 40,001–60,000, column 100–125: +2", as a `Msg` for the reader's language."""
        label = TABLE_NAMES.get(self.table, self.table)
        if self.column:
            return Msg(
                N_("%(table)s: row %(row)s, column %(column)s: %(value)s"),
                table=label,
                row=self.row,
                column=self.column,
                value=self.value,
            )
        return Msg(N_("%(table)s: row %(row)s: %(value)s"), table=label, row=self.row, value=self.value)


@dataclass(frozen=True)
class Explained:
    """A result with where it came from: table cells and the modifiers, one by one."""

    value: Any
    cells: tuple[Cell, ...] = ()
    steps: tuple[str, ...] = ()

    def __int__(self) -> int:
        return int(self.value)

    def lines(self) -> list[str]:
        return [str(c) for c in self.cells] + list(self.steps)


class Section:
    """What a section of `Ruleset` reads: the version's settings and tables."""

    data: RulesetData
    settings: Settings
    tables: Tables


def _ticket(ticket: str) -> Msg:
    return Msg(TICKETS.get(ticket, ticket))


def _non_negative(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number of 0 or more, not {value!r}")


def _die(name: str, value: int, sides: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise ValueError(f"{name}: a D{sides} shows 1–{sides}, not {value!r}")


def _d66(value: int) -> None:
    if value not in D66_CODES:
        raise ValueError(f"a D66 is two dice 1–6 read as tens and units (11–66), not {value!r}")
