"""Match day money: the gate, the fan-factor modifier and vandalism (R12-R18), the winnings and the
kiosk (R17, R19-R21)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from league.rules.explained import Cell, Explained, Section, Ticket, _die, _non_negative, _ticket, signed
from league.rules.messages import N_, Msg


class GateRules(Section):
    """Mixed into Ruleset: gate, FFM, vandalism, winnings."""

    def ffm_table(self) -> list[tuple[int, tuple[str, ...]]]:
        grid = self.tables.fan_factor_modifier
        return [(label, tuple(signed(v) for v in row)) for label, row in zip(grid.rows, grid.cells, strict=True)]

    def winnings_table(self) -> list[tuple[str, tuple[str, ...]]]:
        grid = self.tables.winnings
        return [(r.label(), tuple(signed(v) for v in row)) for r, row in zip(grid.rows, grid.cells, strict=True)]

    def explain_gate(
        self, dice: Sequence[int], *, home: bool, ticket: Ticket = "ordinary", neutral: bool = False, die: int = 6
    ) -> Explained:
        """Sum of the dice, each modified and never below 0, × 1,000 (R12, R13, R14).
        `die` is the division's die (6 or 5), so a 6 on a D5 is refused."""
        s = self.settings
        for i, d in enumerate(dice, start=1):
            _die(f"die {i}", d, die)
        if ticket not in s.ticket_gate_modifier:
            raise ValueError(f"ticket must be ordinary, cheap or expensive, not {ticket!r}")
        steps = []
        if neutral:
            modifier = 0  # R14: no home/away modifier and ordinary ticket prices at a neutral venue
            steps.append(Msg(N_("neutral venue: no die modifier")))
        else:
            venue = s.home_gate_modifier if home else s.away_gate_modifier
            price = s.ticket_gate_modifier[ticket]
            modifier = venue + price
            where = N_("home %(modifier)s per die") if home else N_("away %(modifier)s per die")
            steps.append(Msg(where, modifier=signed(venue)))
            if price:
                steps.append(
                    Msg(N_("%(ticket)s tickets %(modifier)s per die"), ticket=_ticket(ticket), modifier=signed(price))
                )
        modified = [max(0, d + modifier) for d in dice]
        gate = sum(modified) * s.gate_unit
        steps.append(
            Msg(
                N_("dice %(dice)s → %(modified)s = %(sum)s × %(unit)s = %(gate)s"),
                dice=list(dice),
                modified=modified,
                sum=sum(modified),
                unit=s.gate_unit,
                gate=gate,
            )
        )
        return Explained(gate, (), tuple(steps))

    def gate(
        self, dice: Sequence[int], *, home: bool, ticket: Ticket = "ordinary", neutral: bool = False, die: int = 6
    ) -> int:
        return self.explain_gate(dice, home=home, ticket=ticket, neutral=neutral, die=die).value

    def gate_die(self, division: int | str) -> int:
        """D6 in the 1st division, D5 in the 2nd (R12)."""
        return self.settings.division_dice[str(division)]

    def ffm_key(self, gate: int) -> int:
        """Gate in thousands rounded up to a multiple of 5; 0 counts as 5; above the table its last row (R15)."""
        _non_negative("gate", gate)
        grid = self.tables.fan_factor_modifier
        thousands = math.ceil(gate / 1000)
        key = max(5, math.ceil(thousands / 5) * 5)
        return min(key, grid.rows[-1])

    def explain_fan_factor_modifier(self, home_gate: int, away_gate: int) -> Explained:
        grid = self.tables.fan_factor_modifier
        row, col = self.ffm_key(home_gate), self.ffm_key(away_gate)
        value = grid.cells[grid.rows.index(row)][grid.columns.index(col)]
        return Explained(value, (Cell("fan_factor_modifier", str(row), str(col), signed(value)),))

    def fan_factor_modifier(self, home_gate: int, away_gate: int) -> int:
        return self.explain_fan_factor_modifier(home_gate, away_gate).value

    def overflow(self, home_gate: int, away_gate: int, capacity: int) -> int:
        return max(0, home_gate + away_gate - capacity)

    def explain_vandalism_target(
        self, home_gate: int, away_gate: int, capacity: int, *, neutral: bool = False
    ) -> Explained:
        """None: no risk; 2–6: the D6 that avoids vandalism; 7: automatic (R18).
        At a neutral venue the capacity is 250,000 and the federation pays for any damage (R14)."""
        if neutral:
            capacity = self.settings.neutral_capacity
        over = self.overflow(home_gate, away_gate, capacity)
        if over == 0:
            seats = Msg(
                N_("%(attendance)s does not exceed %(capacity)s seats"),
                attendance=home_gate + away_gate,
                capacity=capacity,
            )
            return Explained(None, (), (seats,))
        band = self.tables.vandalism.lookup(over)
        if band.value is None:
            shown = Msg(N_("no risk"))
        elif band.value >= 7:
            shown = Msg(N_("automatic"))
        else:
            shown = Msg(N_("%(target)s+"), target=band.value)
        return Explained(
            band.value,
            (Cell("vandalism", band.range.label(), None, shown),),
            (Msg(N_("overflow %(seats)s"), seats=over),),
        )

    def vandalism_target(self, home_gate: int, away_gate: int, capacity: int, *, neutral: bool = False) -> int | None:
        return self.explain_vandalism_target(home_gate, away_gate, capacity, neutral=neutral).value

    def vandalised(self, target: int | None, roll: int | None) -> bool:
        if target is None:
            return False
        if target >= 7:
            return True
        if roll is None:
            raise ValueError("a D6 is needed to check for vandalism")
        _die("roll", roll, 6)
        return roll < target

    def seats_destroyed(
        self, home_gate: int, away_gate: int, capacity: int, *, caretakers: bool = False, neutral: bool = False
    ) -> int:
        """Half the overflow, rounded down; caretakers repair up to 5,000 (R18). 0 where there is no risk,
        and 0 at a neutral venue, where the federation pays (R14)."""
        if neutral or self.vandalism_target(home_gate, away_gate, capacity) is None:
            return 0
        lost = self.overflow(home_gate, away_gate, capacity) * self.settings.seats_destroyed_percent // 100
        if caretakers:
            lost = max(0, lost - self.settings.caretakers_repair)
        return lost

    def counted_attendance(self, attendance: int, capacity: int) -> int:
        """Attendance counts only up to 150% of capacity, rounded down (R17)."""
        return min(attendance, capacity * self.settings.overcrowding_percent // 100)

    def explain_winnings(
        self,
        roll: int,
        *,
        team_rating: int,
        attendance: int,
        capacity: int,
        won: bool,
        home: bool,
        ticket: Ticket = "ordinary",
        neutral: bool = False,
        vip: bool = False,
        die: int = 6,
    ) -> Explained:
        s = self.settings
        grid = self.tables.winnings
        _die("roll", roll, die)
        _non_negative("attendance", attendance)
        if ticket not in s.ticket_winnings_row_shift:
            raise ValueError(f"ticket must be ordinary, cheap or expensive, not {ticket!r}")
        steps = [Msg(N_("roll %(roll)s"), roll=roll)]
        if neutral:
            capacity = s.neutral_capacity  # R14: the neutral venue's capacity and ordinary prices
            ticket = "ordinary"
        counted = self.counted_attendance(attendance, capacity)
        if counted < attendance:
            steps.append(
                Msg(
                    N_("attendance %(attendance)s counted as %(counted)s (%(percent)s%% of capacity, R17)"),
                    attendance=attendance,
                    counted=counted,
                    percent=s.overcrowding_percent,
                )
            )
        row = grid.row_index(counted)
        shift = s.ticket_winnings_row_shift[ticket]
        shifted = min(max(row + shift, 0), len(grid.rows) - 1)
        col = grid.column_index(team_rating)
        table_mod = grid.cells[shifted][col]
        total = roll
        if won:
            total += s.winnings_win_bonus
            steps.append(Msg(N_("winner %(modifier)s"), modifier=signed(s.winnings_win_bonus)))
        if home and not neutral:
            total += s.winnings_home_bonus
            steps.append(Msg(N_("home %(modifier)s"), modifier=signed(s.winnings_home_bonus)))
        if shift and shifted != row:
            steps.append(
                Msg(
                    N_("%(ticket)s tickets: row %(before)s → %(after)s"),
                    ticket=_ticket(ticket),
                    before=grid.rows[row].label(),
                    after=grid.rows[shifted].label(),
                )
            )
        elif shift:
            steps.append(Msg(N_("%(ticket)s tickets: already at the table's edge, row stays"), ticket=_ticket(ticket)))
        total += table_mod
        steps.append(Msg(N_("table %(modifier)s"), modifier=signed(table_mod)))
        if vip and home and not neutral:  # R19: facilities count only in the owner's home matches
            total += s.vip_lounge_bonus
            steps.append(Msg(N_("VIP lounge %(modifier)s"), modifier=signed(s.vip_lounge_bonus)))
        money = max(0, total) * s.winnings_unit
        product = (
            N_("%(total)s × %(unit)s = %(amount)s (never below 0)")
            if total < 0
            else N_("%(total)s × %(unit)s = %(amount)s")
        )
        steps.append(Msg(product, total=total, unit=s.winnings_unit, amount=money))
        cell = Cell("winnings", grid.rows[shifted].label(), grid.columns[col].label(), signed(table_mod))
        return Explained(money, (cell,), tuple(steps))

    def winnings(self, roll: int, **kwargs: Any) -> int:
        return self.explain_winnings(roll, **kwargs).value

    def vip_lounge_applies(self, *, touchdowns: int, casualties: int) -> bool:
        t = self.settings.vip_lounge_threshold
        return touchdowns >= t or casualties >= t

    def kiosk_income(self, roll: int) -> int:
        """After each home match a D6 of 3+ gives 10,000, after the winnings floor (R19)."""
        _die("roll", roll, 6)
        return self.settings.kiosk_income if roll >= self.settings.kiosk_target else 0
