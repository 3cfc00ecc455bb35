"""Two phones sending a photo into a match's last free slot at the same moment: one is stored, the other
refused with its files removed (PostgreSQL: the match's row lock, and the slot's unique constraint)."""

import io

import pytest

from league.lib.refusals import Refusal
from matches.models import ReportPhoto
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
