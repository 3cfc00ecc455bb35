"""The post-match steps' forms: winnings, injuries, MVP, development and fan factor."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league import rules
from matches.dice import DiceError, check_entered
from matches.forms.fields import DiceField, StepForm, WholeNumberField
from matches.models import DevelopmentRoll
from matches.postmatch.development import Earned, pending_development
from matches.postmatch.injury_facts import (
    healer_candidates,
    healer_limit,
    injury_facts,
    pending_injury_dice,
    revived_by_apothecary,
)
from matches.postmatch.mvp import mvp_candidates
from matches.postmatch.raising import opponents_dead
from matches.postmatch.steps import kiosk_applies
from matches.prematch.chef import inspired_rolls
from matches.squads import division_die
from teams.models import Player, Race


class WinningsForm(StepForm):
    step = "winnings"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        die = division_die(self.match, self.team)
        self.fields["roll"] = DiceField(sides=die, label=_("Winnings D%(die)s") % {"die": die})
        if kiosk_applies(self.match, self.team):
            target = self.match.season.ruleset.rules.settings.kiosk_target
            self.fields["kiosk"] = DiceField(label=_("Kiosk D6 (%(target)s+, R19)") % {"target": target})

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "roll": self.cleaned_data["roll"], "kiosk": self.cleaned_data.get("kiosk")}


class InjuryDiceForm(StepForm):
    """Before the Bandage Crew: the regeneration and serious injury dice, in R25's order, so the
    coach sees who is dead before ordering the attempts."""

    step = "injury-dice"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        facts = kwargs.pop("facts", None)
        super().__init__(*args, **kwargs)
        regeneration = self.match.season.ruleset.rules.settings.regeneration_target
        for key, player in pending_injury_dice(self.match, self.team, facts):
            kind = key.split(":")[0]
            name = key.replace(":", "_")
            if kind == "regeneration":
                self.fields[name] = DiceField(
                    label=_("%(player)s: Regeneration D6 (%(target)s+)") % {"player": player, "target": regeneration}
                )
            else:
                self.fields[name] = DiceField(
                    d66=True, label=_("%(player)s: D66 on the serious injury table") % {"player": player}
                )

    def entered(self) -> dict[str, list[int]]:
        return {":".join(name.rsplit("_", 1)): v for name, v in self.cleaned_data.items() if v is not None}

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "entered": self.entered()}


class InjuriesForm(StepForm):
    """The healer's attempts on exactly the players R25 allows, ordered by the coach, their dice,
    the revival table's dice, and the Necromancer's choice."""

    step = "injuries"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        facts = kwargs.pop("facts", None)
        super().__init__(*args, **kwargs)
        r = self.match.season.ruleset.rules
        self.rules = r
        facts = facts or injury_facts(self.match, self.team)
        self.pending = pending_injury_dice(self.match, self.team, facts)
        self.candidates = healer_candidates(self.match, self.team, facts)
        self.limit = healer_limit(self.team, r)
        self.revived_by_apothecary = revived_by_apothecary(self.match, self.team, facts)
        healer = self.team.race.get_healer_display()
        for p in self.candidates:
            self.fields[f"attempt_{p.pk}"] = WholeNumberField(
                min_value=1,
                max_value=self.limit,
                label=_("%(healer)s: attempt no.") % {"healer": healer},
                widget=forms.NumberInput(attrs={"class": "count-input", "min": 1, "max": self.limit}),
            )
        if self.candidates:
            for n in range(1, self.limit + 1):
                self.fields[f"healer_{n}"] = DiceField(label=_("Attempt %(n)s D6") % {"n": n})
        for p in [*self.candidates, *self.revived_by_apothecary]:
            self.fields[f"revival_{p.pk}"] = DiceField(d66=True, label=_("Revival D66"))
            self.fields[f"revival_miss_{p.pk}"] = DiceField(
                sides=10,  # the revival table's largest die; clean() checks the one the D66 asks for
                count=None,
                label=_("Dice for the matches missed, if the revival table asks for them (e.g. 1D4, 2D6)"),
            )
        if self.team.race.head_coach == Race.HeadCoach.NECROMANCER:
            self.raisable = opponents_dead(self.match, self.team)
            self.fields["raise_zombie"] = forms.TypedChoiceField(
                coerce=int,
                empty_value=None,
                required=False,
                choices=[("", "—"), *[(p.pk, f"{p} ({p.position.name})") for p in self.raisable]],
                label=_("The Necromancer raises a dead opponent as a Zombie (R25)"),
            )

    def rows(self) -> list[tuple[Player, forms.BoundField | None, forms.BoundField, forms.BoundField]]:
        rows = []
        for p in self.candidates:
            rows.append((p, self[f"attempt_{p.pk}"], self[f"revival_{p.pk}"], self[f"revival_miss_{p.pk}"]))
        for p in self.revived_by_apothecary:
            rows.append((p, None, self[f"revival_{p.pk}"], self[f"revival_miss_{p.pk}"]))
        return rows

    def clean(self) -> dict[str, Any]:
        d = super().clean()
        if self.pending:  # posted before the dice that decide who is dead (R25)
            raise ValidationError(_("Roll Regeneration and the serious injury table first."))
        numbered: dict[int, list[Player]] = {}
        for p in self.candidates:
            n = d.get(f"attempt_{p.pk}")
            if n is not None:
                numbered.setdefault(n, []).append(p)
        for n, players in numbered.items():
            if len(players) > 1:
                for p in players:
                    self.add_error(
                        f"attempt_{p.pk}",
                        _("Attempt %(n)s is given to %(players)s: give each attempt one player (R25).")
                        % {"n": n, "players": ", ".join(str(q) for q in players)},
                    )
        if numbered and sorted(numbered) != list(range(1, len(numbered) + 1)):
            self.add_error(None, _("Number the attempts 1, 2, 3 in order, without a gap."))
        d["healer_targets"] = [players[0].pk for _n, players in sorted(numbered.items())]
        for p in [*self.candidates, *self.revived_by_apothecary]:
            revival, miss = d.get(f"revival_{p.pk}"), d.get(f"revival_miss_{p.pk}")
            if miss is None:
                continue
            if revival is None:
                self.add_error(f"revival_miss_{p.pk}", _("Type the revival D66 too, or leave both empty."))
                continue
            result = self.rules.revival(10 * revival[0] + revival[1])
            if not result.dice:
                self.add_error(f"revival_miss_{p.pk}", _("%(name)s needs no more dice.") % {"name": result.name})
                continue
            try:
                check_entered(miss, sides=result.die, count=result.dice)
            except DiceError as exc:
                self.add_error(f"revival_miss_{p.pk}", exc.messages)
        return d

    def entered(self) -> dict[str, list[int]]:
        d, entered = self.cleaned_data, {}
        for p in [*self.candidates, *self.revived_by_apothecary]:
            for key in ("revival", "revival_miss"):
                if d.get(f"{key}_{p.pk}") is not None:
                    entered[f"{key}:{p.pk}"] = d[f"{key}_{p.pk}"]
        for n in range(1, self.limit + 1):
            if d.get(f"healer_{n}") is not None:
                entered[f"healer:{self.team.pk}:{n}"] = d[f"healer_{n}"]
        return entered

    def arguments(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            **super().arguments(),
            "healer_targets": d["healer_targets"],
            "entered": self.entered(),
            "raise_zombie": d.get("raise_zombie"),
        }


class EmptyStepForm(StepForm):
    """A step with nothing to type: stadium, purchases, the new team rating."""


class MvpForm(StepForm):
    """The MVP die has one face per candidate, numbered as listed (R27); no die for a team that gets none."""

    step = "mvp"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.is_bound and not str(self.data.get("roll") or "").strip():
            return  # the server rolls: the service reads the candidates itself, no need to know the die
        if self.candidates:
            n = len(self.candidates)
            self.fields["roll"] = DiceField(
                sides=n, label=_("D%(n)s: the face is the candidate's number (R27)") % {"n": n}
            )

    @cached_property
    def candidates(self) -> list[Player]:
        return mvp_candidates(self.match, self.team) or []

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "roll": self.cleaned_data.get("roll")}


class RollDevelopmentForm(StepForm):
    step = "roll-development"

    def __init__(self, *args: Any, earned: Earned | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pending = pending_development(self.match, self.team, earned)
        for player, index in self.pending:
            self.fields[f"dev_{player.pk}_{index}"] = DiceField(
                count=2, label=_("%(player)s: development roll %(n)s (2D6)") % {"player": player, "n": index}
            )

    def entered(self) -> dict[str, list[int]]:
        d = self.cleaned_data
        return {f"development:{p.pk}:{i}": d[f"dev_{p.pk}_{i}"] for p, i in self.pending if d.get(f"dev_{p.pk}_{i}")}

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "entered": self.entered()}


class DevelopmentForm(StepForm):
    """A choice per development roll; a mutation's die (the D4, or Tzeentch's 2D6) and its one re-roll (R29)."""

    step = "development"

    def __init__(self, *args: Any, rolls: list[tuple[DevelopmentRoll, list[str]]] | None = None, **kwargs: Any):
        """With `rolls` (and their choices) the form to show; without, the form that reads a post: the
        service checks each choice against R29, so the post is read without working out the choices, and
        takes a mutation die for every roll (used only if a mutation is chosen)."""
        super().__init__(*args, **kwargs)
        r = self.match.season.ruleset.rules
        if rolls is None:
            rolls = [(roll, None) for roll in self.load_rolls()]
        self.rolls = rolls
        for roll, choices in rolls:
            name = f"choice_{roll.pk}"
            if choices is None:
                self.fields[name] = forms.CharField(max_length=80)
            else:
                self.fields[name] = forms.ChoiceField(choices=[("", "—"), *[(c, choice_text(c)) for c in choices]])
            self.fields[name].label = _("Choice for %(player)s") % {"player": roll.player}
            self.fields[name].error_messages["required"] = _("Choose for every development roll.")
            self.fields[name].widget.attrs["aria-label"] = self.fields[name].label
            if choices is None or any(c.startswith(rules.MUTATION_CHOICE) for c in choices):
                tzeentch = r.may_always_mutate(roll.player.position.name)
                die = {"sides": 6, "count": 2} if tzeentch else {"sides": 4, "count": 1}
                what = _("Tzeentch 2D6") if tzeentch else _("Mutation D4")
                base = f"mutation_{roll.player_id}_{roll.index}"
                self.fields[base] = DiceField(**die, label=_("%(die)s, if a mutation is chosen") % {"die": what})
                again = _("%(die)s re-roll, if %(player)s already has the mutation")
                self.fields[f"{base}_reroll"] = DiceField(**die, label=again % {"die": what, "player": roll.player})

    def load_rolls(self) -> list[DevelopmentRoll]:
        """The post-match rolls; an Inspiration MVP's roll was chosen before the match (R23)."""
        return list(
            DevelopmentRoll.objects.filter(match=self.match, player__team=self.team, before_match=False).select_related(
                "player__position", "dice"
            )
        )

    def with_choices(self, rolls: list[tuple[DevelopmentRoll, list[str]]]) -> DevelopmentForm:
        """This posted form to show again, with the choices as a list and its errors where they belong."""
        shown = type(self)(self.data, match=self.match, team=self.team, rolls=rolls)
        shown._errors, shown.cleaned_data = forms.utils.ErrorDict(), {}
        for name, errors in self.errors.items():
            shown.add_error(name if name in shown.fields else None, list(errors))
        return shown

    def rows(self) -> list[tuple[DevelopmentRoll, forms.BoundField, list[forms.BoundField]]]:
        return [
            (roll, self[f"choice_{roll.pk}"], self.field_rows(f"mutation_{roll.player_id}_{roll.index}"))
            for roll, _choices in self.rolls
        ]

    def choices(self) -> dict[int, str]:
        return {roll.pk: self.cleaned_data[f"choice_{roll.pk}"] for roll, _c in self.rolls}

    def entered(self) -> dict[str, list[int]]:
        entered = {}
        for name, value in self.cleaned_data.items():
            if name.startswith("mutation_") and value is not None:
                _m, player, index, *reroll = name.split("_")
                entered[f"mutation:{player}:{index}{':reroll' if reroll else ''}"] = value
        return entered

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "choices": self.choices(), "entered": self.entered()}


def choice_text(choice: str) -> str:
    """A development choice as the coach reads it: "+1 MA", "Mutasjon: Bony Growth", or the skill."""
    if choice.startswith(rules.STAT_CHOICE):
        return _("+1 %(stat)s") % {"stat": choice.removeprefix(rules.STAT_CHOICE)}
    if choice.startswith(rules.MUTATION_CHOICE):
        return _("Mutation: %(category)s") % {"category": choice.removeprefix(rules.MUTATION_CHOICE)}
    return choice


class InspiredDevelopmentForm(DevelopmentForm):
    """The choice for the Inspiration MVP's development roll, made in the pre-match sequence (R23)."""

    step = "inspired-development"

    def load_rolls(self) -> list[DevelopmentRoll]:
        return inspired_rolls(self.match, self.team)


class FanFactorForm(StepForm):
    step = "fan-factor"
    roll = DiceField(label=_("Fan factor D6"))

    def arguments(self) -> dict[str, Any]:
        return {**super().arguments(), "roll": self.cleaned_data["roll"]}
