"""Explanations stored as message ids with parameters (issue 12).

Rows walked before kept the rules' parts as English text ("roll 4", "Kampbonus: row 40,001–60,000, column
100–125: +2") that a template filter translated back with regular expressions. This migration reads
those parts once, with the same patterns, into messages; a line it does not recognise (a team's name,
text written in the walker's language) stays as it was.
"""

import re

from django.db import migrations, models

import league.messages

# The message as league.rules.messages made it when this migration was written, frozen here so the migration
# means the same whatever that module becomes: a `str` whose value is its English text, and `stored`, the
# JSON the field keeps ({"msgid", "params"}, or {"join", "parts"}).


class Msg(str):
    def __new__(cls, msgid, /, **params):
        self = super().__new__(cls, msgid % {k: english(v) for k, v in params.items()})
        self.stored = {"msgid": msgid, "params": {k: stored(v) for k, v in params.items()}}
        return self


class Joined(Msg):
    def __new__(cls, sep, parts):
        parts = [p if isinstance(p, Msg) else str(p) for p in parts]
        self = str.__new__(cls, sep.join(parts))
        self.stored = {"join": sep, "parts": [stored(p) for p in parts]}
        return self


def english(value):
    """A parameter as the English text writes it."""
    if isinstance(value, Msg):
        return str.__str__(value)
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(english(v) for v in value) + "]"
    return str(value)


def stored(value):
    if isinstance(value, Msg):
        return value.stored
    if isinstance(value, list | tuple):
        return [stored(v) for v in value]
    return value

NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})*")
TICKETS = {"ordinary", "cheap", "expensive"}


def number(text):
    return int(text.replace(",", "")) if NUMBER.fullmatch(text) else text


def span(text):
    """A range label ("40,001–60,000", "≤99", "26+", "7", "all") as the message Range.label() makes."""
    if text == "all":
        return Msg("all")
    if text.startswith("≤") and NUMBER.fullmatch(text[1:]):
        return Msg("≤%(max)s", max=number(text[1:]))
    if text.endswith("+") and NUMBER.fullmatch(text[:-1]):
        return Msg("%(min)s+", min=number(text[:-1]))
    if NUMBER.fullmatch(text):
        return Msg("%(number)s", number=number(text))
    low, dash, high = text.partition("–")
    if dash and NUMBER.fullmatch(low) and NUMBER.fullmatch(high):
        return Msg("%(min)s–%(max)s", min=number(low), max=number(high))
    if text.startswith("TR "):
        return Msg("TR %(range)s", range=span(text[3:]))
    return text


def cell_value(text):
    if text in ("no risk", "automatic"):
        return Msg(text)
    if text.endswith("+") and text[:-1].isdigit():
        return Msg("%(target)s+", target=int(text[:-1]))
    if text.endswith(" (double)"):
        return Msg("%(result)s (double)", result=Msg(text[: -len(" (double)")]))
    if text in ("skill", "MA", "AG", "ST"):
        return Msg(text)
    return text


def numbers(text):
    return [number(n) for n in text.strip("[]").split(", ")] if text.strip("[]") else []


def ticket(word):
    return Msg(word) if word in TICKETS else word


M = "modifier"
# (pattern, message id, how each group becomes a parameter)
PATTERNS = [
    (r"roll (\S+)", "roll %(roll)s", [("roll", number)]),
    (r"winner (\S+)", "winner %(modifier)s", [(M, str)]),
    (r"home (\S+) per die", "home %(modifier)s per die", [(M, str)]),
    (r"away (\S+) per die", "away %(modifier)s per die", [(M, str)]),
    (r"home (\S+)", "home %(modifier)s", [(M, str)]),
    (r"table (\S+)", "table %(modifier)s", [(M, str)]),
    (r"VIP lounge (\S+)", "VIP lounge %(modifier)s", [(M, str)]),
    (r"(\w+) tickets (\S+) per die", "%(ticket)s tickets %(modifier)s per die", [("ticket", ticket), (M, str)]),
    (
        r"(\w+) tickets: row (.+) → (.+)",
        "%(ticket)s tickets: row %(before)s → %(after)s",
        [("ticket", ticket), ("before", span), ("after", span)],
    ),
    (
        r"(\w+) tickets: already at the table's edge, row stays",
        "%(ticket)s tickets: already at the table's edge, row stays",
        [("ticket", ticket)],
    ),
    (r"neutral venue: no die modifier", "neutral venue: no die modifier", []),
    (
        r"dice (\[[^\]]*\]) → (\[[^\]]*\]) = (\S+) × (\S+) = (\S+)",
        "dice %(dice)s → %(modified)s = %(sum)s × %(unit)s = %(gate)s",
        [("dice", numbers), ("modified", numbers), ("sum", number), ("unit", number), ("gate", number)],
    ),
    (r"overflow (\S+)", "overflow %(seats)s", [("seats", number)]),
    (
        r"(\S+) does not exceed (\S+) seats",
        "%(attendance)s does not exceed %(capacity)s seats",
        [("attendance", number), ("capacity", number)],
    ),
    (
        r"attendance (\S+) counted as (\S+) \((\d+)% of capacity, R17\)",
        "attendance %(attendance)s counted as %(counted)s (%(percent)s%% of capacity, R17)",
        [("attendance", number), ("counted", number), ("percent", number)],
    ),
    (
        r"lower TR (\d+), difference (\d+)",
        "lower TR %(rating)s, difference %(difference)s",
        [("rating", number), ("difference", number)],
    ),
    (r"equal team ratings: no handicap", "equal team ratings: no handicap", []),
    (r"D6 (\d+)", "D6 %(roll)s", [("roll", number)]),
    (r"win (\S+)", "win %(modifier)s", [(M, str)]),
    (r"loss (\S+)", "loss %(modifier)s", [(M, str)]),
    (r"draw (\S+)", "draw %(modifier)s", [(M, str)]),
    (r"(\d+)\+ touchdowns (\S+)", "%(needed)s+ touchdowns %(modifier)s", [("needed", number), (M, str)]),
    (
        r"(\d+)\+ casualties caused (\S+)",
        "%(needed)s+ casualties caused %(modifier)s",
        [("needed", number), (M, str)],
    ),
    (r"your crowd caused a casualty (\S+)", "your crowd caused a casualty %(modifier)s", [(M, str)]),
    (
        r"fan factor (\d+): (\d+) × (\S+) (\S+)",
        "fan factor %(fan_factor)s: %(tens)s × %(per)s %(modifier)s",
        [("fan_factor", number), ("tens", number), ("per", str), (M, str)],
    ),
    (r"TV station (\S+)", "TV station %(modifier)s", [(M, str)]),
    (
        r"total (\S+) / (\S+) = (\S+)",
        "total %(total)s / %(divisor)s = %(result)s",
        [("total", number), ("divisor", number), ("result", number)],
    ),
    (r"total (\S+)", "total %(total)s", [("total", number)]),
    (r"players: (\S+)", "players: %(value)s", [("value", number)]),
    (r"re-rolls: (\S+)", "re-rolls: %(value)s", [("value", number)]),
    (r"fan factor: (\S+)", "fan factor: %(value)s", [("value", number)]),
    (r"assistant coaches: (\S+)", "assistant coaches: %(value)s", [("value", number)]),
    (r"cheerleaders: (\S+)", "cheerleaders: %(value)s", [("value", number)]),
    (r"apothecary: (\S+)", "apothecary: %(value)s", [("value", number)]),
    (r"skill points: (\S+)", "skill points: %(points)s", [("points", number)]),
    (r"team rating: (\S+)", "team rating: %(rating)s", [("rating", number)]),
    (
        r"(-?\d+) × (\S+) = (\S+) \(never below 0\)",
        "%(total)s × %(unit)s = %(amount)s (never below 0)",
        [("total", number), ("unit", number), ("amount", number)],
    ),
    (
        r"(-?\d+) × (\S+) = (\S+)",
        "%(total)s × %(unit)s = %(amount)s",
        [("total", number), ("unit", number), ("amount", number)],
    ),
]
COMPILED = [(re.compile(pattern + "$"), msgid, params) for pattern, msgid, params in PATTERNS]
CELL = re.compile(r"^(?P<table>[^:]+): row (?P<row>.+?)(?:, column (?P<column>.+?))?: (?P<value>.+)$")


def part(text):
    """One part of a legacy line as a message, or None when it is not the rules' vocabulary."""
    for pattern, msgid, params in COMPILED:
        found = pattern.match(text)
        if found:
            values = {name: convert(g) for (name, convert), g in zip(params, found.groups(), strict=True)}
            message = Msg(msgid, **values)
            return message if message == text else None  # only a faithful reading is kept
    cell = CELL.match(text)
    if cell:
        common = {"table": cell["table"], "row": span(cell["row"]), "value": cell_value(cell["value"])}
        if cell["column"]:
            message = Msg("%(table)s: row %(row)s, column %(column)s: %(value)s", column=span(cell["column"]), **common)
        else:
            message = Msg("%(table)s: row %(row)s: %(value)s", **common)
        return message if message == text else None
    return None


def line(text):
    """A legacy line: its parts are separated by "; ", the first may follow a prefix ("Trolls: FF 3 × D6. ")."""
    if type(text) is not str:  # not text, or a message already (read back by the field's decoder)
        return text
    pieces = text.split("; ")
    out = []
    found = False
    for i, piece in enumerate(pieces):
        message = part(piece)
        if message is None and i == 0:
            head, sep, tail = piece.rpartition(". ")
            tail_message = part(tail) if sep else None
            if tail_message is not None:
                message = Joined(sep, [head, tail_message])
        found = found or message is not None
        out.append(message if message is not None else piece)
    if not found:
        return text
    return out[0] if len(out) == 1 else Joined("; ", out)


def to_messages(apps, schema_editor):
    for name in ("PreMatch", "PostMatch"):
        model = apps.get_model("matches", name)
        for pk, explanations in model.objects.values_list("pk", "explanations").iterator():
            changed = {
                key: [line(t) for t in lines] if isinstance(lines, list) else lines
                for key, lines in explanations.items()
            }
            if changed != explanations or any(
                isinstance(t, Msg) for lines in changed.values() if isinstance(lines, list) for t in lines
            ):
                kept = {key: stored(lines) if isinstance(lines, list) else lines for key, lines in changed.items()}
                model.objects.filter(pk=pk).update(explanations=kept)


def to_text(apps, schema_editor):
    for name in ("PreMatch", "PostMatch"):
        model = apps.get_model("matches", name)
        for pk, explanations in model.objects.values_list("pk", "explanations").iterator():
            plain = {
                key: [str.__str__(t) if isinstance(t, str) else t for t in lines] if isinstance(lines, list) else lines
                for key, lines in explanations.items()
            }
            model.objects.filter(pk=pk).update(explanations=plain)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0009_prematch_side_progress_fields"),
    ]

    operations = [
        migrations.AlterField(
            model_name="historicalpostmatch",
            name="explanations",
            field=models.JSONField(
                decoder=league.messages.MessageDecoder, default=dict, encoder=league.messages.MessageEncoder
            ),
        ),
        migrations.AlterField(
            model_name="historicalprematch",
            name="explanations",
            field=models.JSONField(
                decoder=league.messages.MessageDecoder,
                default=dict,
                encoder=league.messages.MessageEncoder,
                help_text="The table cells each step used.",
            ),
        ),
        migrations.AlterField(
            model_name="postmatch",
            name="explanations",
            field=models.JSONField(
                decoder=league.messages.MessageDecoder, default=dict, encoder=league.messages.MessageEncoder
            ),
        ),
        migrations.AlterField(
            model_name="prematch",
            name="explanations",
            field=models.JSONField(
                decoder=league.messages.MessageDecoder,
                default=dict,
                encoder=league.messages.MessageEncoder,
                help_text="The table cells each step used.",
            ),
        ),
        migrations.RunPython(to_messages, to_text),
    ]
