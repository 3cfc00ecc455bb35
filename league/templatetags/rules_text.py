"""The words of league.rules' explanations ("roll 4", "row 40,001–60,000, column 100–125") in the
interface's language. The rules package stays language-free; its small fixed vocabulary is
translated here, through the same catalogue as every other label."""

from __future__ import annotations

import re

from django import template
from django.utils.translation import get_language, gettext, gettext_lazy, gettext_noop

register = template.Library()

# (English pattern, English template for the catalogue); groups are filled in order.
PHRASES: list[tuple[str, str]] = [
    (r"^roll (\S+)$", gettext_noop("roll %s")),
    (r"^winner (\S+)$", gettext_noop("winner %s")),
    (r"^home (\S+) per die$", gettext_noop("home %s per die")),
    (r"^away (\S+) per die$", gettext_noop("away %s per die")),
    (r"^home (\S+)$", gettext_noop("home %s")),
    (r"^table (\S+)$", gettext_noop("table %s")),
    (r"^VIP lounge (\S+)$", gettext_noop("VIP lounge %s")),
    (r"^(\w+) tickets (\S+) per die$", gettext_noop("%s tickets %s per die")),
    (r"^(\w+) tickets: row (.+) → (.+)$", gettext_noop("%s tickets: row %s → %s")),
    (
        r"^(\w+) tickets: already at the table's edge, row stays$",
        gettext_noop("%s tickets: already at the table's edge, row stays"),
    ),
    (r"^neutral venue: no die modifier$", gettext_noop("neutral venue: no die modifier")),
    (r"^dice (.+) → (.+) = (.+) × (.+) = (.+)$", gettext_noop("dice %s → %s = %s × %s = %s")),
    (r"^overflow (.+)$", gettext_noop("overflow %s")),
    (r"^(.+) does not exceed (.+) seats$", gettext_noop("%s does not exceed %s seats")),
    (
        r"^attendance (.+) counted as (.+) \(150% of capacity, R17\)$",
        gettext_noop("attendance %s counted as %s (150%% of capacity, R17)"),
    ),
    (r"^lower TR (\d+), difference (\d+)$", gettext_noop("lower TR %s, difference %s")),
    (r"^equal team ratings: no handicap$", gettext_noop("equal team ratings: no handicap")),
    (r"^D6 (\S+)$", gettext_noop("D6 %s")),
    (r"^win (\S+)$", gettext_noop("win %s")),
    (r"^loss (\S+)$", gettext_noop("loss %s")),
    (r"^draw (\S+)$", gettext_noop("draw %s")),
    (r"^(\d+)\+ touchdowns (\S+)$", gettext_noop("%s+ touchdowns %s")),
    (r"^(\d+)\+ casualties caused (\S+)$", gettext_noop("%s+ casualties caused %s")),
    (r"^your crowd caused a casualty (\S+)$", gettext_noop("your crowd caused a casualty %s")),
    (r"^fan factor (\d+): (.+)$", gettext_noop("fan factor %s: %s")),
    (r"^TV station (\S+)$", gettext_noop("TV station %s")),
    (r"^total (.+) / (.+) = (.+)$", gettext_noop("total %s / %s = %s")),
    (r"^total (\S+)$", gettext_noop("total %s")),
    (r"^players: (.+)$", gettext_noop("players: %s")),
    (r"^re-rolls: (.+)$", gettext_noop("re-rolls: %s")),
    (r"^fan factor: (.+)$", gettext_noop("fan factor: %s")),
    (r"^assistant coaches: (.+)$", gettext_noop("assistant coaches: %s")),
    (r"^cheerleaders: (.+)$", gettext_noop("cheerleaders: %s")),
    (r"^apothecary: (.+)$", gettext_noop("apothecary: %s")),
    (r"^skill points: (.+)$", gettext_noop("skill points: %s")),
    (r"^team rating: (.+)$", gettext_noop("team rating: %s")),
]
CELL = re.compile(r"^(?P<table>[^:]+): row (?P<row>.+?)(?:, column (?P<column>.+?))?: (?P<value>.+)$")
COMPILED = [(re.compile(pattern), text) for pattern, text in PHRASES]


def translate_part(part: str) -> str:
    head, sep, tail = part.rpartition(". ")
    if sep:  # "Torshov Trolls: FF 3 × D6. home +1 per die": the rules' words follow the prefix
        return head + sep + translate_part(tail)
    for pattern, text in COMPILED:
        match = pattern.match(part)
        if match:
            return gettext(text) % tuple(translate_word(g) for g in match.groups())
    cell = CELL.match(part)
    if cell:
        if cell["column"]:
            return gettext("%(table)s: row %(row)s, column %(column)s: %(value)s") % cell.groupdict()
        return gettext("%(table)s: row %(row)s: %(value)s") % cell.groupdict()
    return part


TICKETS = {gettext_noop("expensive"), gettext_noop("cheap"), gettext_noop("ordinary")}


def translate_word(word: str) -> str:
    return gettext(word) if word in TICKETS else word


@register.filter
def rules_text(line: str) -> str:
    """A line of a rules explanation, its parts separated by "; ", in the current language."""
    if not isinstance(line, str) or (get_language() or "en").startswith("en"):
        return line
    return "; ".join(translate_part(part) for part in line.split("; "))


# The keys of the rules' small tables (SPP awards, apothecary costs) as a coach reads them (issue 12).
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
    "niggling_check": gettext_lazy("Help a player pass his NI roll"),
    "revive_dead": gettext_lazy("Revive a dead player"),
}


@register.filter
def rule_key(key: str) -> str:
    """A rules table's key as its label; an unknown key (a ruleset's own) stays as it is."""
    return str(KEY_LABELS.get(key, key))


@register.filter
def rule_effect(effect: str) -> str:
    """A table's effect; "None" (no effect) in the interface's language."""
    return gettext("No effect") if effect in {"None", "None."} else effect
