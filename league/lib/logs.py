"""Quiet, useful logs: one line for a refused or missing page, the request id on every
line logged while a request is served (league.lib.middleware.RequestIdMiddleware sets it)."""

import logging
from contextvars import ContextVar

request_id: ContextVar[str] = ContextVar("request_id", default="-")


def forget_request_id(**kwargs: object) -> None:
    """On request_finished: lines logged by this thread between requests have no id."""
    request_id.set("-")


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every record, for the formatter."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class QuietClientErrors(logging.Filter):
    """A 4xx is the client's doing: log its one line, without the traceback Django attaches to a 403."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
