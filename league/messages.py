"""The rules' explanations (league.rules.messages.Msg) stored and shown.

A stored explanation keeps each message as {"msgid", "params"} in its JSON field (`MessageEncoder`,
`MessageDecoder`), so a page shows it in its reader's language however it was walked; `translated`
renders one with `gettext(msgid) % params`, numbers written as the tables write them (120 000).
"""

from __future__ import annotations

import json
from typing import Any

from django.db import models
from django.utils import translation
from django.utils.translation import gettext

from league.lib.numbers import money
from league.rules.messages import Msg, message_from_dict, to_json


class MessageEncoder(json.JSONEncoder):
    """JSON for a value that holds messages: each one as {"msgid", "params"} (a `str` subclass would
    otherwise be written as its English text)."""

    def encode(self, o: Any) -> str:
        return super().encode(to_json(o))

    def iterencode(self, o: Any, _one_shot: bool = False) -> Any:
        return super().iterencode(to_json(o), _one_shot)


class MessageDecoder(json.JSONDecoder):
    """Stored messages back as `Msg` (their `str` value the English text); plain text stays text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("object_hook", message_from_dict)
        super().__init__(*args, **kwargs)


class MessagesField(models.JSONField):
    """A JSON field whose value holds messages, stored as {"msgid", "params"} (`MessageEncoder`) and read
    back as `Msg` (`MessageDecoder`). Django's serializers (dumpdata, a backup) write it the same way:
    they would otherwise write each message, a `str`, as its English text, and a league loaded from the
    dump would show the explanations in English on Norwegian pages."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("encoder", MessageEncoder)
        kwargs.setdefault("decoder", MessageDecoder)
        super().__init__(*args, **kwargs)

    def value_to_string(self, obj: models.Model) -> Any:
        return to_json(self.value_from_object(obj))


def translated(value: Any) -> Any:
    """A message in the current language; anything else as it is."""
    if isinstance(value, Msg):
        return value.render(gettext, money)
    return value


def as_message(label: Any) -> Msg:
    """A label Django translates lazily (a model choice's) as a message: its message id, shown in each
    reader's language wherever it is stored (a treasury line names the healer that cost it)."""
    with translation.override(None):  # no language: gettext gives the message id back
        return Msg(str(label))
