"""The forms of a fixture's date: a coach's proposal of up to three dates and times, his answer
to the other's, the board's own date and a round's deadline."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.lib.inputs import LeagueDateField
from league.models import RoundDeadline
from matches.models import MAX_PROPOSED

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TIME_INPUT = forms.TimeInput(attrs={"type": "time", "step": 300}, format="%H:%M")


class ProposeDatesForm(forms.Form):
    """Up to three dates, each with its time; the first is required, the others may be left empty."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, MAX_PROPOSED + 1):
            self.fields[f"date_{n}"] = LeagueDateField(
                label=_("Date %(n)s") % {"n": n}, required=False, widget=DATE_INPUT
            )
            self.fields[f"time_{n}"] = forms.TimeField(
                label=_("Time %(n)s") % {"n": n}, required=False, widget=TIME_INPUT
            )

    def pairs(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"date_{n}"], self[f"time_{n}"]) for n in range(1, MAX_PROPOSED + 1)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        starts = []
        for n in range(1, MAX_PROPOSED + 1):
            day, time = cleaned.get(f"date_{n}"), cleaned.get(f"time_{n}")
            if f"date_{n}" in self.errors or f"time_{n}" in self.errors:
                continue
            if day and time is None:
                self.add_error(f"time_{n}", _("Give the time of the match as well."))
            elif time is not None and not day:
                self.add_error(f"date_{n}", _("Give the date of the match as well."))
            elif day:
                starts.append(timezone.make_aware(datetime.datetime.combine(day, time)))
        if not starts and not self.errors:
            raise forms.ValidationError(_("Propose at least one date and time."))
        cleaned["starts"] = starts
        return cleaned


class AcceptDateForm(forms.Form):
    proposal = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class BoardDateForm(forms.Form):
    date = LeagueDateField(label=_("Date"), widget=DATE_INPUT)
    time = forms.TimeField(label=_("Time"), required=False, widget=TIME_INPUT)


class DeadlineForm(forms.Form):
    competition = forms.ChoiceField(
        choices=RoundDeadline.Competition.choices, initial=RoundDeadline.Competition.LEAGUE, widget=forms.HiddenInput
    )
    round = forms.IntegerField(min_value=1, max_value=99, widget=forms.HiddenInput)
    deadline = LeagueDateField(label=_("Deadline"), required=False, widget=DATE_INPUT)
