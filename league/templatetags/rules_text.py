"""league.rules' explanations in the interface's language.

The rules package writes each part of an explanation as a message id with parameters (a `Msg`); it is
shown here as `gettext(msgid) % params`, its numbers written the reader's way. Text that is not a
message (a team's name, a line stored before explanations were messages) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.translation import get_language, gettext, gettext_lazy

from league.messages import translated

register = template.Library()


@register.filter
def rules_text(line: Any) -> Any:
    """A line of a rules explanation in the current language."""
    return translated(line)


# The keys of the rules' small tables (SPP awards, apothecary costs) as a coach reads them.
KEY_LABELS = {
    "mvp": gettext_lazy("MVP"),
    "foul": gettext_lazy("Casualty from a foul"),
    "casualty": gettext_lazy("Casualty"),
    "touchdown": gettext_lazy("Touchdown"),
    "completion": gettext_lazy("Completion"),
    "interception": gettext_lazy("Interception"),
    "heal_dead": gettext_lazy("Heal a dead player"),
    "heal_serious_injury": gettext_lazy("Heal a seriously injured player"),
    "heal_badly_hurt": gettext_lazy("Heal a player out for the match"),
    "niggling_check": gettext_lazy("Help a player pass the NI roll"),
    "revive_dead": gettext_lazy("Revive a dead player"),
}


@register.filter
def rule_key(key: str) -> str:
    """A rules table's key as its label; an unknown key (a ruleset's own) stays as it is."""
    return str(KEY_LABELS.get(key, key))


# A weather row with no effect says so in either language ("Ingen." in Norwegian).
NO_EFFECT = {"None", "None.", "Ingen", "Ingen."}


@register.filter
def rule_effect(effect: str) -> str:
    """A table's effect; "None" (no effect) in the interface's language."""
    return gettext("No effect") if effect in NO_EFFECT else effect


def _field(value: Any, name: str) -> str:
    found = value.get(name) if isinstance(value, Mapping) else getattr(value, name, None)
    return found if isinstance(found, str) else ""


@register.filter
def in_language(value: Any, field: str) -> str:
    """A ruleset's text in the reader's language: `<field>_en` to an English reader when the board wrote
    one, else `<field>`, the Norwegian the rulebook is written in."""
    if (get_language() or "").startswith("en"):
        english = _field(value, f"{field}_en")
        if english.strip():
            return english
    return _field(value, field)


@register.filter
def targets(values: Any) -> str:
    """Dice targets from the ruleset, "1+, 2+, 3+"."""
    return ", ".join(f"{v}+" for v in values)
