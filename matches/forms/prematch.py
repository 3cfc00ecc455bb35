"""The pre-match steps' forms: the squad, weather, tickets, gate, niggling injuries, handicaps, the chef."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.lib.numbers import money
from matches.forms.fields import DiceField, StepForm, TickField, WholeNumberField
from matches.models import SquadEntry
from matches.prematch.base import neutral_allowed, niggling_players
from matches.squads import division_die
from teams.models import Player


class SquadForm(StepForm):
    step = "squad"

    def __init__(self, *args: Any, roster: list[Player] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roster = roster if roster is not None else list(Player.objects.on_roster().filter(team=self.team))
        self.fields["players"] = forms.TypedMultipleChoiceField(
            coerce=int, required=False, choices=[(p.pk, str(p)) for p in self.roster], label=_("Squad")
        )

    def checked(self) -> set[int]:
        """The ticked players: as posted, else the squad picked, else the first available players."""
        if self.is_bound:
            return {int(v) for v in self.data.getlist("players") if v.isdecimal() and len(v) < 12}
        return set(self.initial.get("players", []))

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "player_ids": self.cleaned_data["players"]}


class WeatherForm(StepForm):
    step = "weather"
    weather = DiceField(
        sides=6, count=2, label=_("Weather 2D6"), widget=forms.TextInput({"placeholder": _("e.g. 3 4")})
    )

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "entered": self.cleaned_data["weather"]}


class TicketsForm(StepForm):
    step = "tickets"
    ticket = forms.ChoiceField(
        label=_("Tickets"),
        choices=[
            ("ordinary", _("Ordinary")),
            ("cheap", _("Cheap (+1 per gate die, one row up)")),
            ("expensive", _("Expensive (−1 per gate die, one row down)")),  # noqa: RUF001 - the minus sign is the text
        ],
    )
    neutral = TickField(label=_("Neutral venue (R14)"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not neutral_allowed(self.match):
            del self.fields["neutral"]

    def arguments(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {**super().arguments(), "ticket": d["ticket"], "neutral": d.get("neutral", False)}


class GateForm(StepForm):
    step = "gate"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for side, team in (("home", self.match.home), ("away", self.match.away)):
            if team.fan_factor:  # no fan factor: no gate dice (R12)
                die = division_die(self.match, team)
                self.fields[f"{side}_gate"] = DiceField(
                    sides=die, count=team.fan_factor, label=f"{team.name}: FF {team.fan_factor} × D{die}"
                )
        self.fields["vandalism"] = DiceField(label=_("Vandalism D6, if needed"))

    def arguments(self) -> dict[str, Any]:
        d = self.cleaned_data
        dice = {"home_dice": d.get("home_gate"), "away_dice": d.get("away_gate"), "vandalism_die": d["vandalism"]}
        return {**super().arguments(), **dice}


class NigglingForm(StepForm):
    step = "niggling"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = niggling_players(self.match, self.team)
        for p in self.players:
            self.fields[f"ni_{p.pk}"] = DiceField(count=p.niggling, label=f"#{p.number} {p.name}: {p.niggling} × D6")
        if self.team.apothecary:
            self.fields["apothecary"] = forms.TypedMultipleChoiceField(
                coerce=int,
                required=False,
                choices=[(p.pk, str(p)) for p in self.players],
                widget=forms.CheckboxSelectMultiple,
                label=_("apothecary passes it (1 AP per die, R36)"),
            )

    def rows(self) -> list[tuple[Player, forms.BoundField, bool]]:
        passed = {str(v) for v in (self["apothecary"].value() or [])} if "apothecary" in self.fields else set()
        return [(p, self[f"ni_{p.pk}"], str(p.pk) in passed) for p in self.players]

    def entered(self) -> dict[int, list[int]]:
        d = self.cleaned_data
        return {p.pk: d[f"ni_{p.pk}"] for p in self.players if d.get(f"ni_{p.pk}") is not None}

    def arguments(self) -> dict[str, Any]:
        apothecary = self.cleaned_data.get("apothecary", [])
        return {**super().arguments(), "apothecary_for": apothecary, "entered": self.entered()}


class HandicapForm(StepForm):
    step = "handicap"
    handicap = DiceField(
        many=True, label=_("D66 for the lower team, in order"), widget=forms.TextInput({"placeholder": _("e.g. 15 42")})
    )

    def arguments(self) -> dict[str, Any]:
        dice = self.cleaned_data["handicap"]  # a D66 as its two dice, tens and units: (1, 5) is 15
        return {**super().arguments(), "entered": None if dice is None else [10 * tens + units for tens, units in dice]}


class ChefForm(StepForm):
    step = "chef"
    count = WholeNumberField(min_value=0, max_value=10, initial=0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        price = self.match.season.ruleset.rules.settings.master_chef_die_price
        self.fields["count"].label = _("extra dice at %(price)s each") % {"price": money(price)}

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "count": self.cleaned_data["count"] or 0}


class InspireForm(StepForm):
    step = "inspire"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        playing = SquadEntry.objects.filter(
            match=self.match, team=self.team, status=SquadEntry.Status.PLAYING
        ).select_related("player")
        self.fields["player"] = forms.TypedChoiceField(
            coerce=int,
            choices=[(e.player_id, str(e.player)) for e in playing],
            label=_("The inspired player (an extra MVP, R23)"),
        )
        # R23: a development roll the extra MVP earns is made at once, before the match
        self.fields["development"] = DiceField(
            count=2, label=_("2D6 if the player levels up (empty: the server rolls)")
        )

    def entered(self) -> dict[str, list[int]]:
        d = self.cleaned_data
        if d.get("development") is None:
            return {}
        # the inspired player's first roll of this match (inspire() checks which index it is)
        return {f"development:{d['player']}:1": d["development"]}

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "player_id": self.cleaned_data["player"], "entered": self.entered()}
