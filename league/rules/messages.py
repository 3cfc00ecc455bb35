"""Explanations as message ids with parameters.

The rules package speaks no language of its own: an explanation part is a `Msg`, a `str` whose value is
the English text (so every caller that compares or prints strings reads exactly what it always read),
carrying the message id and its parameters. The interface translates it with
`gettext(msgid) % params`, the parameters formatted for the reader's language (league/messages.py).

`N_` marks a message id for `makemessages --keyword=N_` and returns it unchanged; `N_plural` marks a
singular and plural pair (`--keyword=N_plural:1,2`) for `ngettext`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["N_", "Joined", "Msg", "N_plural", "from_json", "to_json"]


def N_(msgid: str) -> str:
    """Mark a message id for the catalogue; translated where it is shown."""
    return msgid


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair for the catalogue; shown with `ngettext(*pair, n)`."""
    return (singular, plural)


Translate = Callable[[str], str]
Number = Callable[[int], str]


def english_number(value: int) -> str:
    return f"{value:,}"


def identity(text: str) -> str:
    return text


def _param(value: Any) -> Any:
    """Parameters are kept as JSON can hold them: numbers, text, lists of numbers, messages."""
    if isinstance(value, Msg | bool) or value is None:
        return value
    if isinstance(value, int | float):
        return value
    if isinstance(value, list | tuple):
        return [_param(v) for v in value]
    return str(value)


def render_param(value: Any, translate: Translate, number: Number, *, english: bool) -> str:
    if isinstance(value, Msg):
        return value.render(translate, number) if not english else str.__str__(value)
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int):
        return number(value)
    if isinstance(value, list):
        shown = ", ".join(render_param(v, translate, number, english=english) for v in value)
        return f"[{shown}]" if english else shown  # the contract's text keeps Python's brackets
    return str(value)


class Msg(str):
    """A message id with parameters whose `str` value is its English text."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> Msg:
        kept = {k: _param(v) for k, v in params.items()}
        text = msgid % {k: render_param(v, identity, english_number, english=True) for k, v in kept.items()}
        self = super().__new__(cls, text)
        self.msgid = msgid
        self.params = kept
        return self

    def render(self, translate: Translate, number: Number) -> str:
        """The text in a language: the message id translated, the parameters formatted."""
        shown = {k: render_param(v, translate, number, english=False) for k, v in self.params.items()}
        return translate(self.msgid) % shown

    def to_json(self) -> dict[str, Any]:
        return {"msgid": self.msgid, "params": {k: to_json(v) for k, v in self.params.items()}}

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.to_json(),))

    def __repr__(self) -> str:
        return f"Msg({self.msgid!r}, {self.params!r})"


class Joined(Msg):
    """Parts shown one after another with a separator ("home +1 per die; expensive tickets -1 per die")."""

    parts: tuple[Any, ...]
    sep: str

    def __new__(cls, sep: str, parts: Iterable[Any]) -> Joined:  # type: ignore[override]
        kept = tuple(p if isinstance(p, Msg) else str(p) for p in parts)
        self = str.__new__(cls, sep.join(kept))
        self.msgid = ""
        self.params = {}
        self.parts = kept
        self.sep = sep
        return self

    def render(self, translate: Translate, number: Number) -> str:
        return self.sep.join(p.render(translate, number) if isinstance(p, Msg) else p for p in self.parts)

    def to_json(self) -> dict[str, Any]:
        return {"join": self.sep, "parts": [to_json(p) for p in self.parts]}

    def __repr__(self) -> str:
        return f"Joined({self.sep!r}, {self.parts!r})"


def to_json(value: Any) -> Any:
    """Messages as {"msgid", "params"} (or {"join", "parts"}), in lists and dicts too; the rest as it is."""
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_json(v) for k, v in value.items()}
    return value


def message_from_dict(obj: dict[str, Any]) -> Any:
    """A JSON object back to the message it holds (a `json` object_hook); other objects unchanged."""
    if set(obj) == {"msgid", "params"} and isinstance(obj["msgid"], str) and isinstance(obj["params"], dict):
        return Msg(obj["msgid"], **obj["params"])
    if set(obj) == {"join", "parts"} and isinstance(obj["join"], str) and isinstance(obj["parts"], list):
        return Joined(obj["join"], obj["parts"])
    return obj


def from_json(value: Any) -> Any:
    """The inverse of `to_json` on decoded JSON (nested dicts turned back into messages)."""
    if isinstance(value, list):
        return [from_json(v) for v in value]
    if isinstance(value, dict):
        return message_from_dict({k: from_json(v) for k, v in value.items()})
    return value


def _rebuild(data: dict[str, Any]) -> Any:
    return from_json(data)
