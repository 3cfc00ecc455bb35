"""The fields and base forms every step form uses: typed dice (`DiceField`), whole numbers, ticks;
an empty die field means "the server rolls it"."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from matches.dice import DiceError, parse_entered
from matches.models import Match
from teams.models import Team

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

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of the step's service, beside the match and who takes the step (`by`):
        the team of a team's step, and what the valid form read (each step form adds its own)."""
        return {"team": self.team} if self.team is not None else {}

    def field_rows(self, prefix: str) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(prefix)]
