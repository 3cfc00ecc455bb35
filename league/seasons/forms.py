from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from league.accounts import login_tries_left
from league.lib.inputs import (
    MONEY_MAX,
    NAME_MAX,
    WHOLE_NUMBER,
    IdModelChoiceField,
    IdModelMultipleChoiceField,
    LeagueDateField,
)
from league.models import Ruleset
from matches.models import Match
from teams.models import Team


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    ruleset = IdModelChoiceField(label=_("Ruleset"), queryset=Ruleset.objects.published())
    first_with_stadium_rules = forms.BooleanField(
        label=_("First season with stadium rules (neutral venue allowed)"), required=False
    )
    division_1 = IdModelMultipleChoiceField(
        label=_("1st division"), queryset=Team.objects.active(), widget=forms.CheckboxSelectMultiple, required=False
    )
    division_2 = IdModelMultipleChoiceField(
        label=_("2nd division"), queryset=Team.objects.active(), widget=forms.CheckboxSelectMultiple, required=False
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        both = set(cleaned.get("division_1") or []) & set(cleaned.get("division_2") or [])
        if both:
            raise forms.ValidationError(
                _("%(teams)s cannot play in both divisions.") % {"teams": ", ".join(t.name for t in both)}
            )
        return cleaned


class FixturesForm(forms.Form):
    start = LeagueDateField(label=_("First round on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    days_between = forms.IntegerField(
        label=_("Days between rounds"), min_value=1, max_value=60, initial=14, widget=WHOLE_NUMBER
    )


class FixtureForm(forms.Form):
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=99, widget=WHOLE_NUMBER)
    home = IdModelChoiceField(label=_("Home"), queryset=Team.objects.none())
    away = IdModelChoiceField(label=_("Away"), queryset=Team.objects.none())
    date = LeagueDateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, teams, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["home"].queryset = teams
        self.fields["away"].queryset = teams


class MoveFixtureForm(forms.Form):
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=99, widget=WHOLE_NUMBER)
    date = LeagueDateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))


class TiebreakForm(forms.Form):
    winner = IdModelChoiceField(label=_("Winner"), queryset=Team.objects.none())
    loser = IdModelChoiceField(label=_("Loser"), queryset=Team.objects.none())

    def __init__(self, *args: Any, teams, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].queryset = teams
        self.fields["loser"].queryset = teams


class CupDrawForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    prize = forms.IntegerField(label=_("Prize"), min_value=0, max_value=MONEY_MAX, initial=0, widget=WHOLE_NUMBER)
    teams = IdModelMultipleChoiceField(
        label=_("Teams"), queryset=Team.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    order = forms.CharField(
        label=_("Order set by hand"),
        required=False,
        max_length=5_000,
        help_text=_("Leave empty for a random draw, or list the team names in draw order, one per line."),
        widget=forms.Textarea(attrs={"rows": 4}),
    )

    def __init__(self, *args: Any, teams, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["teams"].queryset = teams

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        names = [line.strip() for line in (cleaned.get("order") or "").splitlines() if line.strip()]
        if names and cleaned.get("teams"):
            by_name = {t.name.lower(): t.pk for t in cleaned["teams"]}
            unknown = [n for n in names if n.lower() not in by_name]
            if unknown:
                raise forms.ValidationError(_("Not a chosen cup team: %(names)s") % {"names": ", ".join(unknown)})
            cleaned["order_ids"] = [by_name[n.lower()] for n in names]
        else:
            cleaned["order_ids"] = None
        return cleaned


class SeasonEndForm(forms.Form):
    next_name = forms.CharField(label=_("Name of the next season"), max_length=NAME_MAX)


class CoachForm(UserCreationForm):
    """A coach's account: a name to log in with, a first password, and nothing that grants rights."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "first_name", "last_name", "email")


class LoginForm(AuthenticationForm):
    """The log-in form, which after a wrong password says how many tries are left before the lock
    (league.accounts), so that no one is locked out without warning."""

    tries_left: int | None = None

    def get_invalid_login_error(self) -> forms.ValidationError:
        if self.request is not None:
            self.tries_left = login_tries_left(self.request, self.cleaned_data.get("username"))
        return super().get_invalid_login_error()


class ForfeitForm(forms.Form):
    """The board records a forfeit (R35): which of the two teams forfeits."""

    team = forms.TypedChoiceField(label=_("The team that forfeits"), coerce=int)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = [(t.pk, t.name) for t in (match.home, match.away) if t is not None]
