"""Whether a write forgot the league version: the page cache keys the public pages by it, so a write that
does not raise it would leave visitors the pages as they were. Rows saved or deleted are seen through
Django's model signals; the version's raise as the callback its transaction registers on commit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.test import TestCase

from league.lib.writes import raise_league_version

LEAGUE_APPS = {"league", "teams", "matches", "auth"}
# Rows no kept page shows, written without a new league version: the version itself, the coaches'
# notifications (opening the inbox or sending an e-mail must not empty the page cache) and the live log.
UNVERSIONED = {"leagueversion", "notification", "noticepreference", "noticesettings", "liveevent", "webhookdelivery"}


@contextmanager
def league_rows_written() -> Iterator[list[str]]:
    """The league's rows saved or deleted meanwhile, as "app.model"."""
    written: list[str] = []

    def note(sender, **kwargs) -> None:
        meta = sender._meta
        if meta.app_label in LEAGUE_APPS and meta.model_name not in UNVERSIONED:
            written.append(meta.label_lower)

    signals = (post_save, post_delete, m2m_changed)
    for signal in signals:
        signal.connect(note, weak=False)
    try:
        yield written
    finally:
        for signal in signals:
            signal.disconnect(note)


@contextmanager
def versioned() -> Iterator[None]:
    """Fail if league rows were written meanwhile and no committed transaction raised the league version."""
    with league_rows_written() as written, TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        yield
    if written and raise_league_version not in callbacks:
        pytest.fail(f"league rows written with no new league version: {sorted(set(written))}")
