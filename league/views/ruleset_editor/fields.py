"""A setting as the rules editor's field: its path into the version's settings, label, unit, bounds,
ruling and rulebook section; the units and the rulebook's sections the settings and tables name."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

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
INJURIES = "Skader – Lege og Bandage Crew"

TIEBREAKERS = ("points", "head_to_head_points", "touchdown_difference", "touchdowns_for", "tiebreak_game")
