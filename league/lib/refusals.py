"""One shape for "the rules say no": an exception carrying messages, shown to the person as they are."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _


class Refusal(Exception):
    """A write the rules or the league's state refuse; `messages` are ready to show, nothing changed."""

    def __init__(self, messages: Sequence[str]) -> None:
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


class AlreadyDone(Refusal):
    """The same form was already carried out (its one-time token is used); nothing changed this time.
    `result` is what the first send made (a ledger line, a team), for the view to point at."""

    def __init__(self, what: str = "", *, result: object = None) -> None:
        self.result = result
        if what:
            message = _("This is already done (%(what)s); nothing more was paid.") % {"what": what}
        else:
            message = _("This is already done.")
        super().__init__([message])
