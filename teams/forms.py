from __future__ import annotations

import csv
import io
import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from league.lib.inputs import (
    INT_MAX,
    MONEY_MAX,
    NAME_MAX,
    PLAYERS_MAX,
    SMALL_MAX,
    WHOLE_NUMBER,
    IdModelChoiceField,
    json_depth,
)
from league.lib.numbers import money
from league.lib.once import TokenField
from league.rules.records import RECORD_COUNTERS
from teams.models import Position, Race
from teams.registration import PlayerRecord, TeamRecord


class TeamCreateForm(forms.Form):
    """A new team: name, staff, and how many of each position (fields added per race)."""

    token = TokenField()
    name = forms.CharField(label=_("Team name"), max_length=NAME_MAX)
    # The rulebook's own limits (8 re-rolls, FF 9 at creation…) are the quote's problems; these are the columns'.
    rerolls = forms.IntegerField(label=_("Team re-rolls"), min_value=0, max_value=SMALL_MAX, initial=0)
    fan_factor = forms.IntegerField(label=_("Fan factor"), min_value=0, max_value=SMALL_MAX, initial=0)
    assistant_coaches = forms.IntegerField(label=_("Assistant coaches"), min_value=0, max_value=SMALL_MAX, initial=0)
    cheerleaders = forms.IntegerField(label=_("Cheerleaders"), min_value=0, max_value=SMALL_MAX, initial=0)
    apothecary = forms.BooleanField(label=_("Apothecary"), required=False)

    def __init__(
        self, *args: Any, race: Race, positions: list[Position], quote_only: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["token"].required = not quote_only  # a quote buys nothing
        self.race = race
        self.positions = positions
        for p in positions:
            self.fields[f"pos_{p.pk}"] = forms.IntegerField(
                label=p.name,
                min_value=0,
                max_value=PLAYERS_MAX,
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
    token = TokenField()
    position = IdModelChoiceField(label=_("Position"), queryset=Position.objects.none())
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX, required=False)
    number = forms.IntegerField(label=_("Number"), min_value=1, max_value=99, required=False, widget=WHOLE_NUMBER)

    def __init__(self, *args: Any, race: Race, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["position"].queryset = Position.objects.for_race(race)


class ExpandForm(forms.Form):
    token = TokenField()
    steps = forms.IntegerField(min_value=1, max_value=50, initial=1, widget=WHOLE_NUMBER)

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        """seats: the ruleset's expansion step (R16)."""
        super().__init__(*args, **kwargs)
        self.fields["steps"].label = _("Expansions of %(seats)s seats") % {"seats": money(seats)}


class PlayerEditForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    number = forms.IntegerField(label=_("Number"), min_value=1, max_value=99, widget=WHOLE_NUMBER)


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
    *RECORD_COUNTERS,
    "skills",
    "ma",
    "st",
    "ag",
    "av",
    "niggling",
    "miss_matches",
]
INT_COLUMNS = {c for c in PLAYER_COLUMNS if c not in {"name", "position", "skills"}}
# The columns' bounds; the rulebook's narrower ones (stats ±2, no negatives) are register_team's refusals.
COLUMN_MAX = {c: SMALL_MAX for c in INT_COLUMNS} | {c: INT_MAX for c in RECORD_COUNTERS}
COLUMN_MIN = {c: -SMALL_MAX for c in INT_COLUMNS}
# A stadium holds far fewer; the bound keeps every later expansion inside its column.
CAPACITY_MAX = 1_000_000
FACILITY_KEY_MAX = 30


class RegisterTeamForm(forms.Form):
    """The team panel; players come as CSV lines in the same form (one per line, see the help)."""

    token = TokenField()
    name = forms.CharField(label=_("Team name"), max_length=NAME_MAX)
    race = IdModelChoiceField(label=_("Race"), queryset=Race.objects.all())
    coach = IdModelChoiceField(label=_("Coach"), queryset=get_user_model().objects.order_by("username"))
    treasury = forms.IntegerField(label=_("Treasury"), min_value=0, max_value=MONEY_MAX, initial=0)
    rerolls = forms.IntegerField(label=_("Team re-rolls"), min_value=0, max_value=SMALL_MAX, initial=0)
    fan_factor = forms.IntegerField(label=_("Fan factor"), min_value=0, max_value=SMALL_MAX, initial=0)
    assistant_coaches = forms.IntegerField(label=_("Assistant coaches"), min_value=0, max_value=SMALL_MAX, initial=0)
    cheerleaders = forms.IntegerField(label=_("Cheerleaders"), min_value=0, max_value=SMALL_MAX, initial=0)
    apothecary = forms.BooleanField(label=_("Apothecary"), required=False)
    capacity = forms.IntegerField(label=_("Stadium capacity"), min_value=0, max_value=CAPACITY_MAX, initial=60000)
    roof = forms.BooleanField(label=_("Roof"), required=False)
    facilities = forms.CharField(
        label=_("Facilities"),
        required=False,
        max_length=200,
        help_text=_("Comma separated keys: pa_system, kiosk, caretakers, tv_station, vip_lounge, away_supporters."),
    )
    mvps_received = forms.IntegerField(
        label=_("MVPs received"),
        min_value=0,
        max_value=SMALL_MAX,
        initial=5,
        help_text=_("Old teams are entered at 5 (R27)."),
    )
    players = forms.CharField(
        label=_("Players (CSV)"),
        max_length=20_000,
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
    try:
        # newline="": the csv module reads the line ends itself, a lone "\r" included
        rows = list(csv.reader(io.StringIO(text.strip(), newline="")))
    except csv.Error as exc:
        raise forms.ValidationError(_("The player list cannot be read: %(error)s") % {"error": exc}) from None
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


def player_record(data: dict[str, Any], *, expect: int | None = None, strict: bool = False) -> PlayerRecord:
    """A player from a CSV line (text everywhere) or, `strict`, from JSON (numbers must be numbers)."""
    if expect is not None and expect < 3:
        raise ValueError(_("at least number, name and position are needed"))
    if strict:
        unknown = sorted(str(k) for k in data if k not in PLAYER_COLUMNS)
        if unknown:
            raise ValueError(_("unknown field: %(keys)s") % {"keys": ", ".join(unknown)})
    values: dict[str, Any] = {}
    for column in PLAYER_COLUMNS:
        raw = data.get(column)
        if column == "skills":
            values[column] = _skills(raw, strict=strict)
        elif column in INT_COLUMNS:
            values[column] = _whole_number(column, raw, strict=strict)
        else:
            if strict and not isinstance(raw, str | type(None)):
                raise ValueError(_("%(column)s must be text") % {"column": column})
            values[column] = _text(column, str(raw or "").strip())
            if not values[column]:
                raise ValueError(_("%(column)s is missing") % {"column": column})
    if values["number"] < 1 or values["number"] > 99:
        raise ValueError(_("number must be 1-99"))
    return PlayerRecord(**values)


def _text(what: str, text: str, max_length: int = NAME_MAX) -> str:
    if "\x00" in text:
        raise ValueError(_("%(column)s contains a null character") % {"column": what})
    if len(text) > max_length:
        raise ValueError(_("%(column)s is longer than %(max)s characters") % {"column": what, "max": max_length})
    return text


def _skills(raw: Any, *, strict: bool) -> tuple[str, ...]:
    if isinstance(raw, list):
        if strict and not all(isinstance(s, str) for s in raw):
            raise ValueError(_("skills must be a list of names"))
        names = [str(s).strip() for s in raw]
    elif strict and raw is not None:
        raise ValueError(_("skills must be a list of names"))
    else:
        names = [s.strip() for s in str(raw or "").split(";")]
    return tuple(_text("skills", n, 50) for n in names if n)


def _whole_number(column: str, raw: Any, *, strict: bool) -> int:
    if strict:
        value = 0 if raw is None else raw
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(_("%(column)s must be a whole number, not %(value)r") % {"column": column, "value": raw})
    else:
        text = str(raw if raw is not None else "").strip() or "0"
        try:
            value = int(text)
        except ValueError:
            raise ValueError(
                _("%(column)s must be a whole number, not %(value)r") % {"column": column, "value": text[:20]}
            ) from None
    if not COLUMN_MIN[column] <= value <= COLUMN_MAX[column]:
        raise ValueError(
            _("%(column)s must be between %(min)s and %(max)s")
            % {"column": column, "min": COLUMN_MIN[column], "max": COLUMN_MAX[column]}
        )
    return value


class ImportTeamForm(forms.Form):
    """A whole team as JSON, or the players as CSV with the team panel from the register form."""

    token = TokenField()
    file = forms.FileField(label=_("File (JSON)"))
    coach = IdModelChoiceField(label=_("Coach"), queryset=get_user_model().objects.order_by("username"))

    MAX_BYTES = 200_000  # a team of 25 players is a few kilobytes
    MAX_DEPTH = 4  # team → players → player → skills

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is None:
            return cleaned
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is too large (at most %(n)s bytes).") % {"n": self.MAX_BYTES})
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(_("Not a JSON file: %(error)s") % {"error": exc}) from exc
        if not json_depth(text, self.MAX_DEPTH):
            raise forms.ValidationError(_("The file nests deeper than a team, its players and their skills."))
        try:
            data = json.loads(text)
        except ValueError as exc:  # JSONDecodeError, or a number of thousands of digits
            raise forms.ValidationError(_("Not a JSON file: %(error)s") % {"error": exc}) from exc
        cleaned["record"] = team_record_from_json(data, coach=cleaned.get("coach"))
        return cleaned

    def record(self) -> TeamRecord:
        return self.cleaned_data["record"]


# Whole-number fields of a team file and their bounds (the ledger's, the stadium's, the columns').
TEAM_INT_FIELDS = {
    "treasury": MONEY_MAX,
    "rerolls": SMALL_MAX,
    "fan_factor": SMALL_MAX,
    "assistant_coaches": SMALL_MAX,
    "cheerleaders": SMALL_MAX,
    "capacity": CAPACITY_MAX,
    "mvps_received": SMALL_MAX,
}
TEAM_BOOL_FIELDS = ("apothecary", "roof")
TEAM_FIELDS = {"name", "race", "players", "facilities", *TEAM_INT_FIELDS, *TEAM_BOOL_FIELDS}


def team_record_from_json(data: Any, *, coach: Any) -> TeamRecord:
    """A team from a parsed file, strictly typed: a boolean is true or false, a number is a number."""
    if not isinstance(data, dict):
        raise forms.ValidationError(_("The file must hold one team object."))
    errors = []
    unknown = sorted(str(k) for k in data if k not in TEAM_FIELDS)
    if unknown:
        errors.append(_("Unknown field: %(keys)s") % {"keys": ", ".join(unknown)})
    texts = {}
    for key, max_length in (("name", NAME_MAX), ("race", 50)):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            errors.append(_("%(key)s is missing") % {"key": key})
            continue
        try:
            texts[key] = _text(key, value.strip(), max_length)
        except ValueError as exc:
            errors.append(str(exc))
    fields: dict[str, Any] = {}
    for key, maximum in TEAM_INT_FIELDS.items():
        value = data.get(key, 5 if key == "mvps_received" else 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
            errors.append(_("%(key)s must be a whole number from 0 to %(max)s") % {"key": key, "max": maximum})
        fields[key] = value
    for key in TEAM_BOOL_FIELDS:
        value = data.get(key, False)
        if not isinstance(value, bool):
            errors.append(_("%(key)s must be true or false") % {"key": key})
        fields[key] = value
    facilities = data.get("facilities", [])
    if not isinstance(facilities, list) or not all(isinstance(f, str) for f in facilities):
        errors.append(_("facilities must be a list of keys"))
        facilities = []
    for key in facilities:
        try:
            _text("facilities", key, FACILITY_KEY_MAX)
        except ValueError as exc:
            errors.append(str(exc))
    players = []
    entries = data.get("players")
    if "players" in data and not isinstance(entries, list):
        errors.append(_("players must be a list"))
        entries = []
    elif isinstance(entries, list) and len(entries) > PLAYERS_MAX:
        errors.append(_("At most %(max)s players in a file.") % {"max": PLAYERS_MAX})
        entries = []
    for i, entry in enumerate(entries or [], start=1):
        if not isinstance(entry, dict):
            errors.append(_("Player %(n)s: not an object") % {"n": i})
            continue
        try:
            players.append(player_record(entry, strict=True))
        except ValueError as exc:
            errors.append(_("Player %(n)s: %(error)s") % {"n": i, "error": exc})
    if "players" not in data:
        errors.append(_("%(key)s is missing") % {"key": "players"})
    if errors:
        raise forms.ValidationError(errors)
    return TeamRecord(
        name=texts["name"],
        race=texts["race"],
        coach=coach,
        players=tuple(players),
        facilities=tuple(facilities),
        **fields,
    )
