"""A real SMTP server on 127.0.0.1 for the tests (aiosmtpd): what the app sends through Django's SMTP
backend is read back as the mail server received it (issue 27)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.header import decode_header, make_header
from email.message import Message

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Message as MessageHandler
from django.test import override_settings


class Inbox(MessageHandler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[Message] = []

    def handle_message(self, message: Message) -> None:
        self.messages.append(message)

    def wait(self, count: int, seconds: float = 10) -> list[Message]:
        """The messages, once `count` have arrived (the server runs in its own thread)."""
        deadline = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.messages


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def smtp_server() -> Iterator[Inbox]:
    """The server, and Django's e-mail sent to it by SMTP while it runs."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=controller.port,
            EMAIL_USE_TLS=False,
            EMAIL_USE_SSL=False,
            EMAIL_HOST_USER="",
            EMAIL_HOST_PASSWORD="",
        ):
            yield inbox
    finally:
        controller.stop()


def body(message: Message) -> str:
    part = message.get_payload(decode=True)
    return part.decode(message.get_content_charset() or "utf-8")


def subject(message: Message) -> str:
    return str(make_header(decode_header(message["Subject"])))
