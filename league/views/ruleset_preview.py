"""A draft's worked examples beside the published version's, so the board sees what a change does.

Every number comes from `league.rules` methods of each version; nothing is re-implemented here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league import rules
from league.lib.inputs import IdModelChoiceField
from league.lib.numbers import money
from matches.models import Match
from teams.models import Team
from teams.selectors import rating_staff, roster_sheet


@dataclass(frozen=True)
class Example:
    label: str
    source: str
    draft: Any
    current: Any
    draft_steps: tuple[str, ...] = ()
    current_steps: tuple[str, ...] = ()

    @property
    def differs(self) -> bool:
        return self.draft != self.current


def _both(label: str, source: str, draft: rules.Ruleset, current: rules.Ruleset, compute, fmt=str) -> Example:
    a, b = compute(draft), compute(current)
    return Example(label, source, fmt(a.value), fmt(b.value), tuple(a.lines()), tuple(b.lines()))


def book_examples(draft: rules.Ruleset, current: rules.Ruleset) -> list[Example]:
    """The rulebook's own examples (and the worked match of EXAMPLES.md)."""

    def signed(v: int) -> str:
        return f"+{v}" if v > 0 else str(v)

    return [
        _both(
            gettext("Fan factor modifier, gates 85,000 and 55,000"),
            "R15",
            draft,
            current,
            lambda r: r.explain_fan_factor_modifier(85_000, 55_000),
            signed,
        ),
        _both(
            gettext("Stadium 60,000 → 70,000 seats"),
            "R16",
            draft,
            current,
            lambda r: r.explain_expansion_cost(60_000),
            money,
        ),
        _both(
            gettext("Stadium 70,000 → 80,000 seats"),
            "R16",
            draft,
            current,
            lambda r: r.explain_expansion_cost(70_000),
            money,
        ),
        _both(
            gettext("Winnings: home win, TR 112, attendance 49,000, D6 4"),
            "R20, R21",
            draft,
            current,
            lambda r: r.explain_winnings(
                4, team_rating=112, attendance=49_000, capacity=60_000, won=True, home=True, ticket="ordinary"
            ),
            money,
        ),
        _both(
            gettext("Vandalism: gates 45,000 + 40,000 in 60,000 seats"),
            "R18",
            draft,
            current,
            lambda r: r.explain_vandalism_target(45_000, 40_000, 60_000),
            lambda v: "—" if v is None else (gettext("automatic") if v >= 7 else f"{v}+"),
        ),
    ]


class PreviewForm(forms.Form):
    team = IdModelChoiceField(label=_("Team"), queryset=None, required=False)
    match = IdModelChoiceField(label=_("Match"), queryset=None, required=False)
    roll = forms.IntegerField(label=_("Winnings die"), min_value=1, max_value=6, initial=4, required=False)
    attendance = forms.IntegerField(
        label=_("Attendance, if the match has no gate yet"), min_value=0, initial=40_000, required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.active().order_by("name")
        # A bye (R34) has no gate and no winnings: nothing to preview, so it is no choice. A cup match
        # that waits for its away team is one, named as Match names it ("Home – ?").
        self.fields["match"].queryset = (
            Match.objects.exclude(status=Match.Status.BYE)
            .select_related("home", "away", "season")
            .order_by("-season__created_at", "round", "pk")
        )
        self.fields["match"].label_from_instance = lambda m: f"{m.season.name}, {m.round}: {m}"


def _team_inputs(team: Any) -> tuple[list[tuple[int, int]], dict[str, Any]]:
    sheet = roster_sheet(team.pk)
    players = [(line.value, line.spp) for line in sheet.lines if line.available]
    return players, rating_staff(team)


def team_examples(
    draft: rules.Ruleset,
    current: rules.Ruleset,
    *,
    team: Any,
    match: Any = None,
    roll: int = 4,
    attendance: int = 40_000,
) -> list[Example]:
    """A team's TR now, and its winnings in a match (the match's gate if it has one), under both versions."""
    players, kwargs = _team_inputs(team)
    out = [
        _both(
            gettext("Team rating of %(team)s") % {"team": team.name},
            "R1–R4",
            draft,
            current,
            lambda r: r.explain_team_rating(players, **kwargs),
        )
    ]
    if match is None:
        return out
    pre = getattr(match, "prematch", None)  # none before the pre-match sequence
    capacity = team.stadium.capacity
    ticket = "ordinary"
    if pre is not None and pre.home_gate is not None:
        attendance = pre.home_gate + pre.away_gate
        capacity = pre.capacity or capacity
        ticket = pre.ticket
    home = match.home_id == team.pk
    won = match.winner_id == team.pk
    division = getattr(match, "division", None)
    die = division.die if division is not None else 6

    def winnings(r: rules.Ruleset) -> rules.Explained:
        tr = r.team_rating(players, **kwargs)
        return r.explain_winnings(
            min(roll, die),
            team_rating=tr,
            attendance=attendance,
            capacity=capacity,
            won=won,
            home=home,
            ticket=ticket,
            neutral=match.neutral,
            die=die,
        )

    out.append(
        _both(
            gettext("Winnings of %(team)s in %(match)s (attendance %(att)s, die %(roll)s)")
            % {"team": team.name, "match": match, "att": money(attendance), "roll": min(roll, die)},
            "R20, R21",
            draft,
            current,
            winnings,
            money,
        )
    )
    return out
