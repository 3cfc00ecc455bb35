"""The rules editor's form: name, notes, every setting and every editable table cell of a draft."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league import rules
from league.lib.numbers import money
from league.models import Ruleset
from league.rules.tables import SETTING_GROUPS, TIEBREAKERS
from league.views.ruleset_editor.cells import (
    CellError,
    cell_where,
    convert,
    get_path,
    rules_message,
    set_path,
    setting_name,
    show,
    tiebreaker_words,
    unit_around,
)
from league.views.ruleset_editor.tables import table_specs


def _widget(kind: str, choices: tuple[str, ...] = ()) -> forms.Widget:
    if kind == "bool":
        return forms.CheckboxInput()
    if kind in ("stat", "choice"):
        options = [("", "—")] + [(c, c) for c in (choices or rules.tables.STATS)]
        return forms.Select(choices=options)
    if kind == "text":
        return forms.TextInput(attrs={"class": "cell-text"})
    if kind in ("long", "long_optional"):
        return forms.Textarea(attrs={"class": "cell-long", "rows": 2})
    return forms.TextInput(attrs={"class": "cell-num", "inputmode": "text", "autocomplete": "off", "size": 5})


def _initial(kind: str, value: Any) -> Any:
    if kind == "bool":
        return bool(value)
    if kind == "range":
        return show(value, "range")
    if kind == "words":
        return ", ".join(gettext(TIEBREAKERS.get(v, v)) for v in value or [])
    if kind == "ints":  # "60 000; 40 000": a comma could be a thousands separator in English
        return "; ".join(money(v) for v in value or [])
    if kind in ("int", "target") and isinstance(value, int):
        return money(value)  # as the rules page writes it; parse_number reads it back
    return "" if value is None else value


class RulesetEditorForm(forms.Form):
    """Name, notes, every setting and every editable table cell of a draft version."""

    name = forms.CharField(label=_("Name"), max_length=100)
    notes = forms.CharField(label=_("What changed and why"), required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, ruleset: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.original = copy.deepcopy(ruleset.data)
        self.fields["name"].initial = ruleset.name
        self.fields["notes"].initial = ruleset.notes
        self.tables = table_specs(self.original)
        self.units: dict[str, tuple[str, str]] = {}
        settings = self.original["settings"]
        for group in SETTING_GROUPS:
            for s in group.settings:
                bounds = []
                if s.min is not None:
                    bounds.append(gettext("at least %(n)s") % {"n": money(s.min)})
                if s.max is not None:
                    bounds.append(gettext("at most %(n)s") % {"n": money(s.max)})
                help_parts = [s.ruling, gettext("Rulebook: %(section)s") % {"section": s.source}]
                if s.kind == "int" and bounds:
                    help_parts.append(", ".join(bounds))
                if s.kind == "words":
                    help_parts.append(tiebreaker_words())
                initial = get_path(settings, s.path)
                field_class = forms.BooleanField if s.kind == "bool" else forms.CharField
                self.fields[setting_name(s)] = field_class(
                    label=gettext(s.label),
                    required=False,
                    initial=bool(initial) if s.kind == "bool" else _initial(s.kind, initial),
                    help_text=" · ".join(help_parts),
                    widget=_widget(s.kind) if s.kind == "bool" else forms.TextInput(attrs={"class": "setting-input"}),
                )
                self.units[setting_name(s)] = unit_around(s, initial)
        for spec in self.tables.values():
            for c in spec.cells():
                value = get_path(self.original["tables"][spec.key], c.path)
                field_class = forms.BooleanField if c.kind == "bool" else forms.CharField
                self.fields[c.name] = field_class(
                    label=cell_where(c),
                    required=False,
                    initial=_initial(c.kind, value),
                    widget=_widget(c.kind, c.choices),
                )
                self.fields[c.name].widget.attrs["aria-label"] = cell_where(c)  # the headers name it visually

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if Ruleset.objects.filter(name=name).exclude(pk=self.ruleset.pk).exists():
            raise forms.ValidationError(gettext("Another version already has this name."))
        return name

    def groups(self) -> list[dict[str, Any]]:
        """The form laid out for the template: groups of settings and tables of bound fields."""
        out = []
        for group in SETTING_GROUPS:
            tables = []
            for tk in group.tables:
                spec = self.tables[tk]
                tables.append(
                    {
                        "spec": spec,
                        "errors": self.errors.get(f"table-{tk}", []) if self.is_bound else [],
                        "rows": [(label, [self[c.name] if c else None for c in row]) for label, row in spec.rows],
                    }
                )
            out.append(
                {
                    "key": group.key,
                    "title": gettext(group.title),
                    "settings": [(self.units[setting_name(s)], self[setting_name(s)]) for s in group.settings],
                    "tables": tables,
                }
            )
        return out

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        data = copy.deepcopy(self.original)
        for group in SETTING_GROUPS:
            for s in group.settings:
                try:
                    set_path(data["settings"], s.path, convert(s, cleaned.get(setting_name(s)), gettext(s.label)))
                except CellError as exc:
                    self.add_error(setting_name(s), str(exc))
        for spec in self.tables.values():
            raw = data["tables"][spec.key]
            if spec.key == "handicap_count":
                for col in raw:
                    col["bands"] = []  # rebuilt from the cells: an empty cell means no more rolls
            for c in spec.cells():
                try:
                    value = convert(c, cleaned.get(c.name), cell_where(c))
                except CellError as exc:
                    self.add_error(c.name, str(exc))
                    continue
                if c.kind == "range":
                    if value is not None:
                        raw[c.path[0]]["bands"].append(value)
                elif value == "" and c.kind == "long_optional" and get_path(raw, c.path) is None:
                    continue  # an optional text left empty stays absent: no change to show
                else:
                    set_path(raw, c.path, value)
        if self.errors:
            return cleaned
        # The same checks league.rules makes on any version: a table as a whole (gaps, overlaps, …).
        for key in ("settings", *self.tables):
            value = data["settings"] if key == "settings" else data["tables"][key]
            try:
                rules.parse_table(key, value)
            except rules.RulesetError as exc:
                self._add_rules_error(key, exc)
        if not self.errors:
            data["name"] = cleaned.get("name", "")
            try:
                rules.parse_ruleset_data(data)
            except rules.RulesetError as exc:
                self.add_error(None, str(exc))
        self.data_out = data
        return cleaned

    def _add_rules_error(self, key: str, exc: rules.RulesetError) -> None:
        exc = rules.RulesetError(exc.table, rules_message(exc.message), exc.cell)
        """Put league.rules' message on the cell it names, else on the table (or the form)."""
        if key == "settings":
            target = next(
                (
                    setting_name(s)
                    for group in SETTING_GROUPS
                    for s in group.settings
                    if exc.cell and exc.cell.startswith(s.path[0])
                ),
                None,
            )
            self.add_error(
                target,
                gettext("%(where)s: %(message)s") % {"where": rules.TABLE_NAMES["settings"], "message": exc.message},
            )
            return
        spec = self.tables[key]
        cells = list(spec.cells())
        cell = next((c for c in cells if exc.cell == c.pure), None) or next(
            (c for c in cells if exc.cell and exc.cell.startswith(c.pure + " ")), None
        )
        where = cell_where(cell) if cell else spec.title
        message = gettext("%(where)s: %(message)s") % {"where": where, "message": exc.message}
        if cell is not None:
            self.add_error(cell.name, message)
        else:
            self.add_error(None, message)
