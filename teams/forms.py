from __future__ import annotations

import csv
import io
import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from teams.models import Position, Race
from teams.services import PlayerRecord, TeamRecord


class TeamCreateForm(forms.Form):
    """A new team: name, staff, and how many of each position (fields added per race)."""

    name = forms.CharField(label=_("Team name"), max_length=80)
    rerolls = forms.IntegerField(label=_("Team re-rolls"), min_value=0, initial=0)
    fan_factor = forms.IntegerField(label=_("Fan factor"), min_value=0, initial=0)
    assistant_coaches = forms.IntegerField(label=_("Assistant coaches"), min_value=0, initial=0)
    cheerleaders = forms.IntegerField(label=_("Cheerleaders"), min_value=0, initial=0)
    apothecary = forms.BooleanField(label=_("Apothecary"), required=False)

    def __init__(self, *args: Any, race: Race, positions: list[Position], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.race = race
        self.positions = positions
        for p in positions:
            self.fields[f"pos_{p.pk}"] = forms.IntegerField(
                label=p.name,
                min_value=0,
                initial=0,
                required=False,
                widget=forms.NumberInput(attrs={"class": "count"}),
            )
        if not race.apothecary_allowed:
            self.fields["apothecary"].disabled = True
            self.fields["apothecary"].help_text = _("%(race)s may not have an apothecary.") % {"race": race.name}

    def position_fields(self):
        return [(p, self[f"pos_{p.pk}"]) for p in self.positions]

    def hires(self) -> dict[int, int]:
        return {p.pk: self.cleaned_data.get(f"pos_{p.pk}") or 0 for p in self.positions}


class HireForm(forms.Form):
    position = forms.ModelChoiceField(label=_("Position"), queryset=Position.objects.none())
    name = forms.CharField(label=_("Name"), max_length=80, required=False)
    number = forms.IntegerField(label=_("Number"), min_value=1, max_value=99, required=False)

    def __init__(self, *args: Any, race: Race, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["position"].queryset = Position.objects.for_race(race)


class ExpandForm(forms.Form):
    steps = forms.IntegerField(label=_("Expansions of 10,000 seats"), min_value=1, max_value=50, initial=1)


class PlayerEditForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    number = forms.IntegerField(label=_("Number"), min_value=1, max_value=99)


class MutationChoiceForm(forms.Form):
    skill = forms.ChoiceField(label=_("Mutation"))

    def __init__(self, *args: Any, choices: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["skill"].choices = [(c, c) for c in choices]


# --- registering existing teams (the board) ----------------------------------------------------

PLAYER_COLUMNS = [
    "number",
    "name",
    "position",
    "completions",
    "touchdowns",
    "interceptions",
    "casualties",
    "foul_casualties",
    "mvps",
    "skills",
    "ma",
    "st",
    "ag",
    "av",
    "niggling",
    "miss_matches",
]
INT_COLUMNS = {c for c in PLAYER_COLUMNS if c not in {"name", "position", "skills"}}


class RegisterTeamForm(forms.Form):
    """The team panel; players come as CSV lines in the same form (one per line, see the help)."""

    name = forms.CharField(label=_("Team name"), max_length=80)
    race = forms.ModelChoiceField(label=_("Race"), queryset=Race.objects.all())
    coach = forms.ModelChoiceField(label=_("Coach"), queryset=get_user_model().objects.order_by("username"))
    treasury = forms.IntegerField(label=_("Treasury"), min_value=0, initial=0)
    rerolls = forms.IntegerField(label=_("Team re-rolls"), min_value=0, initial=0)
    fan_factor = forms.IntegerField(label=_("Fan factor"), min_value=0, initial=0)
    assistant_coaches = forms.IntegerField(label=_("Assistant coaches"), min_value=0, initial=0)
    cheerleaders = forms.IntegerField(label=_("Cheerleaders"), min_value=0, initial=0)
    apothecary = forms.BooleanField(label=_("Apothecary"), required=False)
    capacity = forms.IntegerField(label=_("Stadium capacity"), min_value=0, initial=60000)
    roof = forms.BooleanField(label=_("Roof"), required=False)
    facilities = forms.CharField(
        label=_("Facilities"),
        required=False,
        help_text=_("Comma separated keys: pa_system, kiosk, caretakers, tv_station, vip_lounge, away_supporters."),
    )
    mvps_received = forms.IntegerField(
        label=_("MVPs received"), min_value=0, initial=5, help_text=_("Old teams are entered at 5 (R27).")
    )
    players = forms.CharField(
        label=_("Players (CSV)"),
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        help_text=_(
            "One player per line: number, name, position, completions, touchdowns, interceptions, casualties, "
            "foul casualties, MVPs, skills (separated by ;), MA, ST, AG, AV changes, niggling injuries, "
            "matches to miss. A header line is allowed."
        ),
    )

    def clean_players(self) -> list[PlayerRecord]:
        return parse_player_csv(self.cleaned_data["players"])

    def record(self) -> TeamRecord:
        d = self.cleaned_data
        return TeamRecord(
            name=d["name"],
            race=d["race"].name,
            coach=d["coach"],
            treasury=d["treasury"],
            rerolls=d["rerolls"],
            fan_factor=d["fan_factor"],
            assistant_coaches=d["assistant_coaches"],
            cheerleaders=d["cheerleaders"],
            apothecary=d["apothecary"],
            capacity=d["capacity"],
            roof=d["roof"],
            facilities=tuple(k.strip() for k in d["facilities"].split(",") if k.strip()),
            mvps_received=d["mvps_received"],
            players=tuple(d["players"]),
        )


def parse_player_csv(text: str) -> list[PlayerRecord]:
    """Players from CSV; every bad line is reported by its number and nothing is taken."""
    rows = list(csv.reader(io.StringIO(text.strip())))
    errors, players = [], []
    for line_no, row in enumerate(rows, start=1):
        if not any(cell.strip() for cell in row):
            continue
        if line_no == 1 and row and row[0].strip().lower() in {"number", "nr", "nummer"}:
            continue
        try:
            players.append(player_record(dict(zip(PLAYER_COLUMNS, row, strict=False)), expect=len(row)))
        except ValueError as exc:
            errors.append(_("Line %(n)s: %(error)s") % {"n": line_no, "error": exc})
    if errors:
        raise forms.ValidationError(errors)
    if not players:
        raise forms.ValidationError(_("No players."))
    return players


def player_record(data: dict[str, Any], *, expect: int | None = None) -> PlayerRecord:
    if expect is not None and expect < 3:
        raise ValueError(_("at least number, name and position are needed"))
    values: dict[str, Any] = {}
    for column in PLAYER_COLUMNS:
        raw = data.get(column)
        if column == "skills":
            if isinstance(raw, list):
                values[column] = tuple(str(s).strip() for s in raw if str(s).strip())
            else:
                values[column] = tuple(s.strip() for s in str(raw or "").split(";") if s.strip())
        elif column in INT_COLUMNS:
            text = str(raw if raw is not None else "").strip() or "0"
            try:
                values[column] = int(text)
            except ValueError:
                raise ValueError(
                    _("%(column)s must be a whole number, not %(value)r") % {"column": column, "value": text}
                ) from None
        else:
            values[column] = str(raw or "").strip()
            if not values[column]:
                raise ValueError(_("%(column)s is missing") % {"column": column})
    if values["number"] < 1 or values["number"] > 99:
        raise ValueError(_("number must be 1-99"))
    return PlayerRecord(**values)


class ImportTeamForm(forms.Form):
    """A whole team as JSON, or the players as CSV with the team panel from the register form."""

    file = forms.FileField(label=_("File (JSON)"))
    coach = forms.ModelChoiceField(label=_("Coach"), queryset=get_user_model().objects.order_by("username"))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is None:
            return cleaned
        try:
            data = json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise forms.ValidationError(_("Not a JSON file: %(error)s") % {"error": exc}) from exc
        cleaned["record"] = team_record_from_json(data, coach=cleaned.get("coach"))
        return cleaned


TEAM_INT_FIELDS = (
    "treasury",
    "rerolls",
    "fan_factor",
    "assistant_coaches",
    "cheerleaders",
    "capacity",
    "mvps_received",
)


def team_record_from_json(data: Any, *, coach: Any) -> TeamRecord:
    if not isinstance(data, dict):
        raise forms.ValidationError(_("The file must hold one team object."))
    errors = []
    for key in ("name", "race", "players"):
        if key not in data:
            errors.append(_("%(key)s is missing") % {"key": key})
    fields: dict[str, Any] = {}
    for key in TEAM_INT_FIELDS:
        value = data.get(key, 5 if key == "mvps_received" else 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            errors.append(_("%(key)s must be a whole number of 0 or more") % {"key": key})
        fields[key] = value
    players = []
    for i, entry in enumerate(data.get("players") or [], start=1):
        if not isinstance(entry, dict):
            errors.append(_("Player %(n)s: not an object") % {"n": i})
            continue
        try:
            players.append(player_record(entry))
        except ValueError as exc:
            errors.append(_("Player %(n)s: %(error)s") % {"n": i, "error": exc})
    if errors:
        raise forms.ValidationError(errors)
    return TeamRecord(
        name=str(data["name"]),
        race=str(data["race"]),
        coach=coach,
        players=tuple(players),
        apothecary=bool(data.get("apothecary", False)),
        roof=bool(data.get("roof", False)),
        facilities=tuple(data.get("facilities", ())),
        **fields,
    )
