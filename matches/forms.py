"""The forms of the pre-match and post-match steps and of the report.

A typed die is parsed in one place, `DiceField`; an empty die field means "the server rolls it".
Each step form knows its match (and team) and builds its fields from the state the step starts in,
so a die field says which die it wants and only the dice the step can use are asked for.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league import rules
from league.numbers import money
from matches import postmatch as post
from matches import prematch as pre
from matches.dice import DiceError, check_entered, parse_entered
from matches.models import ApothecaryUse, DevelopmentRoll, Match, PlayerMatch, SquadEntry
from matches.report import COUNTERS
from teams.models import Player, Race, Team

DICE_TEXT_MAX = 60  # "6 6 6 6 6 6 6 6 6 6 …": ten fan-factor dice with separators fit many times over


class DiceField(forms.Field):
    """Dice typed at the table: `count` dice of `sides` faces, or a D66; `many` D66 in a row.

    `count=None` takes any number of dice of at most `sides` faces: the form checks the exact die
    once it knows it (the revival table's extra dice)."""

    widget = forms.TextInput

    def __init__(self, *, sides: int = 6, count: int | None = 1, d66: bool = False, many: bool = False, **kwargs):
        d66 = d66 or many
        self.sides, self.count, self.d66, self.many = (6, 2, True, many) if d66 else (sides, count, False, False)
        kwargs.setdefault("required", False)
        kwargs.setdefault("label", self.die)
        super().__init__(**kwargs)

    @property
    def die(self) -> str:
        if self.d66:
            return "D66"
        if self.count is None:
            return _("dice")
        return f"{self.count if self.count > 1 else ''}D{self.sides}"

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        size = 3 if self.count == 1 and not self.d66 else 8
        attrs.update(inputmode="numeric", autocomplete="off", maxlength=DICE_TEXT_MAX, size=size)
        return attrs

    def to_python(self, value: Any) -> list[int] | list[list[int]] | None:
        text = value.strip() if isinstance(value, str) else ""
        if not text:
            return None
        if "\x00" in text or len(text) > DICE_TEXT_MAX:
            raise ValidationError(_("Write the dice as numbers, e.g. 3 5 1."), code="invalid")
        try:
            if self.many:
                return [parse_entered(part, sides=6, count=2, d66=True) for part in text.replace(",", " ").split()]
            if self.count is None:
                values = parse_entered(text, sides=self.sides, count=len(text.replace(",", " ").split()))
                return values
            return parse_entered(text, sides=self.sides, count=self.count, d66=self.d66)
        except DiceError as exc:
            raise ValidationError(exc.messages, code="invalid") from None


class WholeNumberField(forms.IntegerField):
    """A count typed in a form; the message names what was typed."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("inputmode", "numeric")

    def to_python(self, value: Any) -> int | None:
        text = value.strip().lstrip("+-") if isinstance(value, str) else ""
        if isinstance(value, str) and value.strip() and not (text.isascii() and text.isdecimal()):
            raise ValidationError(_("%(value)r is not a whole number."), code="invalid", params={"value": value[:20]})
        if isinstance(value, str) and len(value.strip()) > 6:  # no counter or score has seven digits
            raise ValidationError(
                _("Ensure this value is less than or equal to %(limit_value)s."),
                code="max_value",
                params={"limit_value": self.max_value},
            )
        return super().to_python(value)


class StrictCheckbox(forms.CheckboxInput):
    """A checkbox whose posted text is read as written: "false", "0" or "off" is unticked."""

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs, check_test=lambda v: v is True or (isinstance(v, str) and v.lower() in TickField.TRUE))

    def value_from_datadict(self, data, files, name):
        return data.get(name)


class TickField(forms.BooleanField):
    widget = StrictCheckbox
    TRUE, FALSE = ("on", "true", "1", "yes"), ("", "off", "false", "0", "no")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> bool:
        if value is None or isinstance(value, bool):
            return bool(value)
        text = str(value).strip().lower()
        if text in self.TRUE:
            return True
        if text in self.FALSE:
            return False
        raise ValidationError(_("Tick the box or leave it empty."), code="invalid")


class PrefixedForm(forms.Form):
    """Fields named `<prefix><name>` (`p12_touchdowns`), as the pages have always posted them."""

    def add_prefix(self, field_name: str) -> str:
        return f"{self.prefix}{field_name}" if self.prefix else field_name


class StepForm(forms.Form):
    """One step of a sequence, for a match and (for some steps) one of its teams."""

    step = ""

    def __init__(self, data=None, *, match: Match, team: Team | None = None, **kwargs: Any) -> None:
        self.match, self.team = match, team
        # two teams' forms share a page: their ids must differ
        kwargs.setdefault("auto_id", f"id_{self.step or 'step'}_{team.pk if team else 'match'}_%s")
        super().__init__(data, **kwargs)

    def field_rows(self, prefix: str) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(prefix)]


# --- the pre-match steps -------------------------------------------------------------------------


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


class WeatherForm(StepForm):
    step = "weather"
    weather = DiceField(
        sides=6, count=2, label=_("Weather 2D6"), widget=forms.TextInput({"placeholder": _("e.g. 3 4")})
    )


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
        if not pre.neutral_allowed(self.match):
            del self.fields["neutral"]


class GateForm(StepForm):
    step = "gate"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for side, team in (("home", self.match.home), ("away", self.match.away)):
            if team.fan_factor:  # no fan factor: no gate dice (R12)
                die = pre.division_die(self.match, team)
                self.fields[f"{side}_gate"] = DiceField(
                    sides=die, count=team.fan_factor, label=f"{team.name}: FF {team.fan_factor} × D{die}"
                )
        self.fields["vandalism"] = DiceField(label=_("Vandalism D6, if needed"))


class NigglingForm(StepForm):
    step = "niggling"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = pre.niggling_players(self.match, self.team)
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


class HandicapForm(StepForm):
    step = "handicap"
    handicap = DiceField(
        many=True, label=_("D66 for the lower team, in order"), widget=forms.TextInput({"placeholder": _("e.g. 15 42")})
    )


class ChefForm(StepForm):
    step = "chef"
    count = WholeNumberField(min_value=0, max_value=10, initial=0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        price = self.match.season.ruleset.rules.settings.master_chef_die_price
        self.fields["count"].label = _("extra dice at %(price)s each") % {"price": money(price)}


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
        self.fields["development"] = DiceField(count=2, label=_("2D6 if he levels up (empty: the server rolls)"))

    def entered(self) -> dict[str, list[int]]:
        d = self.cleaned_data
        if d.get("development") is None:
            return {}
        # the inspired player's first roll of this match (inspire() checks which index it is)
        return {f"development:{d['player']}:1": d["development"]}


# --- the post-match steps ------------------------------------------------------------------------


class WinningsForm(StepForm):
    step = "winnings"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        die = pre.division_die(self.match, self.team)
        self.fields["roll"] = DiceField(sides=die, label=_("Winnings D%(die)s") % {"die": die})
        if post.kiosk_applies(self.match, self.team):
            target = self.match.season.ruleset.rules.settings.kiosk_target
            self.fields["kiosk"] = DiceField(label=_("Kiosk D6 (%(target)s+, R19)") % {"target": target})


class InjuryDiceForm(StepForm):
    """Before the Bandage Crew: the regeneration and serious injury dice, in R25's order, so the
    coach sees who is dead before ordering the attempts."""

    step = "injury-dice"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        facts = kwargs.pop("facts", None)
        super().__init__(*args, **kwargs)
        regeneration = self.match.season.ruleset.rules.settings.regeneration_target
        for key, player in post.pending_injury_dice(self.match, self.team, facts):
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


class InjuriesForm(StepForm):
    """The healer's attempts on exactly the players R25 allows, ordered by the coach, their dice,
    the revival table's dice, and the Necromancer's choice."""

    step = "injuries"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        facts = kwargs.pop("facts", None)
        super().__init__(*args, **kwargs)
        r = self.match.season.ruleset.rules
        self.rules = r
        facts = facts or post.injury_facts(self.match, self.team)
        self.pending = post.pending_injury_dice(self.match, self.team, facts)
        self.candidates = post.healer_candidates(self.match, self.team, facts)
        self.limit = post.healer_limit(self.team, r)
        self.revived_by_apothecary = post.revived_by_apothecary(self.match, self.team, facts)
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
            self.raisable = post.opponents_dead(self.match, self.team)
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
        return post.mvp_candidates(self.match, self.team) or []


class RollDevelopmentForm(StepForm):
    step = "roll-development"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pending = post.pending_development(self.match, self.team)
        for player, index in self.pending:
            self.fields[f"dev_{player.pk}_{index}"] = DiceField(
                count=2, label=_("%(player)s: development roll %(n)s (2D6)") % {"player": player, "n": index}
            )

    def entered(self) -> dict[str, list[int]]:
        d = self.cleaned_data
        return {f"development:{p.pk}:{i}": d[f"dev_{p.pk}_{i}"] for p, i in self.pending if d.get(f"dev_{p.pk}_{i}")}


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
                self.fields[name] = forms.ChoiceField(choices=[("", "—"), *[(c, c) for c in choices]])
            self.fields[name].label = _("Choice for %(player)s") % {"player": roll.player}
            self.fields[name].error_messages["required"] = _("Choose for every development roll.")
            self.fields[name].widget.attrs["aria-label"] = self.fields[name].label
            if choices is None or any(c.startswith(rules.MUTATION_CHOICE) for c in choices):
                tzeentch = r.may_always_mutate(roll.player.position.name)
                die = {"sides": 6, "count": 2} if tzeentch else {"sides": 4, "count": 1}
                what = _("Tzeentch 2D6") if tzeentch else _("Mutation D4")
                base = f"mutation_{roll.player_id}_{roll.index}"
                self.fields[base] = DiceField(**die, label=_("%(die)s, if a mutation is chosen") % {"die": what})
                self.fields[f"{base}_reroll"] = DiceField(
                    **die, label=_("%(die)s re-roll, if he already has the mutation") % {"die": what}
                )

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


class InspiredDevelopmentForm(DevelopmentForm):
    """The choice for the Inspiration MVP's development roll, made in the pre-match sequence (R23)."""

    step = "inspired-development"

    def load_rolls(self) -> list[DevelopmentRoll]:
        return pre.inspired_rolls(self.match, self.team)


class FanFactorForm(StepForm):
    step = "fan-factor"
    roll = DiceField(label=_("Fan factor D6"))


# --- the report ----------------------------------------------------------------------------------

# No counter of one match reaches 30: sixteen turns a half, and a team scores at most 30 (as the board's
# result form allows); the column is a small integer, so larger numbers would be refused by the database.
COUNTER_MAX = 30
SCORE_MAX = 30
COMMENT_MAX = 2000


class ScoreForm(forms.Form):
    home_score = WholeNumberField(min_value=0, max_value=SCORE_MAX, required=True)
    away_score = WholeNumberField(min_value=0, max_value=SCORE_MAX, required=True)
    comment = forms.CharField(
        label=_("Comment"), required=False, max_length=COMMENT_MAX, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, auto_id="%s", **kwargs)
        self.match = match
        self.fields["home_score"].label = match.home.name
        self.fields["away_score"].label = match.away.name
        self.fields["home_score"].error_messages["required"] = _("Enter the score.")
        self.fields["away_score"].error_messages["required"] = _("Enter the score.")
        if match.cup_id:
            self.fields["tiebreak_winner"] = forms.TypedChoiceField(
                coerce=int,
                empty_value=None,
                required=False,
                choices=[("", "—"), (match.home_id, match.home.name), (match.away_id, match.away.name)],
                label=_("Tiebreak winner (drawn cup match, R34)"),
            )


class LineForm(PrefixedForm):
    """One player's line: his deeds, the injury he suffered and who caused it."""

    completions = WholeNumberField(label=_("COMP"), min_value=0, max_value=COUNTER_MAX)
    touchdowns = WholeNumberField(label=_("TD"), min_value=0, max_value=COUNTER_MAX)
    interceptions = WholeNumberField(label=_("INT"), min_value=0, max_value=COUNTER_MAX)
    casualties = WholeNumberField(label=_("CAS block"), min_value=0, max_value=COUNTER_MAX)
    foul_casualties = WholeNumberField(label=_("CAS foul"), min_value=0, max_value=COUNTER_MAX)
    crowd_casualties = WholeNumberField(label=_("CAS crowd"), min_value=0, max_value=COUNTER_MAX)
    injury = forms.ChoiceField(label=_("Injury suffered"), choices=PlayerMatch.Injury.choices, required=False)
    sent_off = TickField(label=_("Sent off"))

    def __init__(self, *args: Any, player: Player, opponents: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, prefix=f"p{player.pk}_", **kwargs)
        self.player = player
        self.fields["injured_by"] = forms.TypedChoiceField(
            coerce=int,
            empty_value=None,
            required=False,
            choices=[("", "—"), *[(o.pk, f"#{o.number} {o.name}") for o in opponents]],
            label=_("Caused by"),
        )
        for field in self.fields.values():
            field.widget.attrs["aria-label"] = f"{player.name}: {field.label}"
            if isinstance(field, forms.IntegerField):
                field.widget.attrs["class"] = "count-input"

    def counters(self) -> list[forms.BoundField]:
        return [self[c] for c in COUNTERS]


class ApothecaryForm(PrefixedForm):
    """One thing the apothecary did; a row without a player is not used."""

    action = forms.ChoiceField(choices=ApothecaryUse.Action.choices, required=False)
    roll = WholeNumberField(min_value=1, max_value=6)

    def __init__(self, *args: Any, team: Team, index: int, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, prefix=f"apo{team.pk}_{index}_", **kwargs)
        self.fields["player"] = forms.TypedChoiceField(
            coerce=int,
            empty_value=None,
            required=False,
            choices=[("", "—"), *[(p.pk, f"#{p.number} {p.name}") for p in players]],
        )
        self.fields["player"].widget.attrs["aria-label"] = _("Treated player")
        self.fields["action"].widget.attrs["aria-label"] = _("What the apothecary did")
        self.fields["roll"].widget.attrs["class"] = "count-input"


class DisputeForm(forms.Form):
    comment = forms.CharField(
        label=_("What is wrong?"),
        max_length=COMMENT_MAX,
        error_messages={"required": _("Say what is wrong with the report.")},
    )
