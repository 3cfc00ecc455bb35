"""The report's forms: the score, one line per player, the apothecary, a dispute and a photo of the sheet."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.lib.once import TokenField
from league.rules.records import REPORTED_COUNTERS
from matches.forms.fields import PrefixedForm, TickField, WholeNumberField
from matches.models import ApothecaryUse, Match, PlayerMatch
from teams.models import Player, Team

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
        return [self[c] for c in REPORTED_COUNTERS]


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


class PhotoForm(forms.Form):
    """A photo of the paper referee sheet, from the phone's camera or its pictures: what it is, its size
    and its metadata are checked and cleaned by matches.photos, which refuses it with the reason."""

    token = TokenField()
    photo = forms.FileField(
        label=_("Photo of the referee sheet"),
        error_messages={
            "required": _("Choose a photo, or take one."),
            "empty": _("The file is empty: choose a photo, or take one."),
            "invalid": _("Choose a photo, or take one."),
        },
        widget=forms.FileInput(attrs={"accept": "image/*", "capture": "environment"}),
    )
