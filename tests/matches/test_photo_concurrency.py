"""Two phones sending a photo into a match's last free slot at the same moment: one is stored, the other
refused with its files removed (PostgreSQL: the match's row lock, and the slot's unique constraint)."""

import io
import threading
import time
from unittest import mock

import pytest

from league.lib.refusals import Refusal
from matches.models import ReportPhoto
from matches.photos.processing import process_photo
from matches.photos.services import add_photo
from tests.concurrency import require_postgres, run_together
from tests.photos import phone_jpeg

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("media_root")]


def add(match, by):
    sent = phone_jpeg(1200, 900)
    return add_photo(match=match, by=by, upload=io.BytesIO(sent), size=len(sent))


def test_two_uploads_into_the_last_slot_store_one(league_match, media_root):
    require_postgres()
    home, away = league_match.home.coach, league_match.away.coach
    add(league_match, home)
    add(league_match, away)
    results = run_together([lambda: add(league_match, home), lambda: add(league_match, away)])
    stored = [r for r in results if isinstance(r, ReportPhoto)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(stored) == 1 and len(refused) == 1, results
    # in Norwegian: a thread of its own speaks the league's language
    assert refused[0].messages == ["En kamprapport har plass til høyst tre bilder: slett ett først."]
    assert sorted(ReportPhoto.objects.values_list("slot", flat=True)) == [1, 2, 3]
    # the refused upload's files were removed: two files for each stored photo, no more
    assert len([p for p in media_root.rglob("*") if p.is_file()]) == 6


def test_six_photos_sent_at_once_decode_one_at_a_time_and_only_three(league_match, media_root):
    """Six uploads by one coach at the same moment: before, the free-slot check came before any slot was
    taken, and all six were decoded at once (3 GB at peak for six picture bombs)."""
    require_postgres()
    coach = league_match.home.coach
    decoding, decoded, most_at_once = [], [], []
    lock = threading.Lock()

    def counted(upload, *, size=None):
        with lock:
            decoding.append(1)
            most_at_once.append(len(decoding))
        time.sleep(0.2)  # a decode takes a while: long enough for the others to overlap it if they may
        try:
            return process_photo(upload, size=size)
        finally:
            with lock:
                decoding.pop()
                decoded.append(1)

    with mock.patch("matches.photos.services.process_photo", counted):
        results = run_together([lambda: add(league_match, coach)] * 6)
    assert len([r for r in results if isinstance(r, ReportPhoto)]) == 3, results
    assert len([r for r in results if isinstance(r, Refusal)]) == 3, results
    assert len(decoded) == 3
    assert max(most_at_once) == 1
    assert len([p for p in media_root.rglob("*") if p.is_file()]) == 6
