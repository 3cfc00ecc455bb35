"""The referee sheet's photos on a match's report: who may see them, adding one, deleting one.

The files go through Django's storage (`default_storage`: the file system under MEDIA_ROOT, or an
S3-compatible bucket when the settings say so), named by a random id, never under a public URL: the
match page's view reads them back for the two coaches and the board only.
"""

from __future__ import annotations

import uuid
from typing import IO, Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from league.accounts import is_board
from league.lib.once import form_key
from league.lib.refusals import AlreadyDone, Refusal
from league.lib.writes import league_write
from matches.models import PHOTO_SLOTS, Match, ReportPhoto
from matches.notices import takes_part
from matches.photos.processing import process_photo

FOLDER = "report-photos"


def may_delete(user: Any, photo: ReportPhoto) -> bool:
    return user.is_authenticated and (is_board(user) or photo.uploaded_by_id == user.pk)


def add_photo(*, match: Match, by: Any, upload: IO[bytes], size: int | None = None, token: str = "") -> ReportPhoto:
    """Check and clean the upload (matches.photos.processing), store its two files and take a free slot,
    all under the match's lock (the league write). Refused (nothing stored) when it is no photo, when the
    match takes none, or when its three slots are taken.

    The picture is decoded under the lock, after the free slot is found: one decode per match at a time,
    and six photos sent at once decode three, the others refused for want of a slot before any work (with
    the check before the lock, all six decoded). The lock is held for the decode, a second at most with
    the pixel limit; files whose row is refused are removed."""
    if not takes_part(by, match):  # asked again under the lock; here before any work
        raise _not_his()
    key = form_key(token, "photo") if token else ""
    if key and (sent := ReportPhoto.objects.filter(match=match, form_key=key).first()):
        raise AlreadyDone(result=sent)  # the same form sent twice: the first photo, not "no room"
    _refuse_unless_room(match)  # likewise: no lock waited for by a report that cannot take it
    names: list[str] = []
    try:
        return _add_locked(match=match, by=by, upload=upload, size=size, key=key, names=names)
    except BaseException:
        for name in names:  # the row was not stored (refused, or its transaction rolled back): nor its files
            default_storage.delete(name)
        raise


@league_write
def _add_locked(
    *, match: Match, by: Any, upload: IO[bytes], size: int | None, key: str, names: list[str]
) -> ReportPhoto:
    match = Match.objects.select_for_update(of=("self",)).select_related("home", "away").get(pk=match.pk)
    if not takes_part(by, match):
        raise _not_his()
    if key and (sent := ReportPhoto.objects.filter(match=match, form_key=key).first()):
        raise AlreadyDone(result=sent)
    free = _refuse_unless_room(match)
    photo = process_photo(upload, size=size)
    stem = f"{FOLDER}/{match.pk}/{uuid.uuid4().hex}"
    names.append(default_storage.save(f"{stem}.jpg", ContentFile(photo.jpeg)))
    names.append(default_storage.save(f"{stem}-small.jpg", ContentFile(photo.small)))
    try:
        with transaction.atomic():  # the database's guard (one photo a slot), should the lock be bypassed
            return ReportPhoto.objects.create(
                match=match,
                slot=free[0],
                image=names[0],
                thumbnail=names[1],
                width=photo.width,
                height=photo.height,
                form_key=key,
                uploaded_by=by,
            )
    except IntegrityError:
        raise Refusal([_("A match's report holds at most three photos: delete one first.")]) from None


def _not_his() -> Refusal:
    return Refusal([_("Only the match's two coaches and the board add photos to its report.")])


def _refuse_unless_room(match: Match) -> list[int]:
    """The match's free slots; refused when it is not played or its three slots are taken."""
    if match.status == Match.Status.VOID or match.home_id is None or match.away_id is None:
        raise Refusal([_("This match is not played: it takes no photos.")])
    taken = set(ReportPhoto.objects.filter(match=match).values_list("slot", flat=True))
    free = [slot for slot in range(1, PHOTO_SLOTS + 1) if slot not in taken]
    if not free:
        raise Refusal([_("A match's report holds at most three photos: delete one first.")])
    return free


@league_write
def delete_photo(*, match: Match, photo_pk: int, by: Any) -> None:
    """The one who added a photo, or the board, deletes it: the row goes (its history keeps who and
    when), and its files once the deletion has committed. Deleted already (a second tap): AlreadyDone."""
    match = Match.objects.select_for_update(of=("self",)).get(pk=match.pk)
    photo = ReportPhoto.objects.filter(match=match, pk=photo_pk).first()
    if photo is None:
        raise AlreadyDone()
    if not may_delete(by, photo):
        raise Refusal([_("Only the one who added a photo, or the board, deletes it.")])
    photo._history_user = by  # simple_history: who deleted it, whatever request this runs in
    photo.delete()
    names = (photo.image, photo.thumbnail)
    transaction.on_commit(lambda: [default_storage.delete(name) for name in names])
