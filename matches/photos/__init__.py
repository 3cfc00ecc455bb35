"""The paper referee sheet's photos on a match's report (issue 27): the picture checked and cleaned
(processing, no database), and who may see, add and delete them (services). Every name is
importable from here."""

from matches.photos.processing import (
    LONG_SIDE,
    MAX_BYTES,
    MAX_PIXELS,
    SMALL_SIDE,
    Photo,
    PhotoRefused,
    process_photo,
)
from matches.photos.services import add_photo, delete_photo, may_delete, may_see_photos

__all__ = [
    "LONG_SIDE",
    "MAX_BYTES",
    "MAX_PIXELS",
    "SMALL_SIDE",
    "Photo",
    "PhotoRefused",
    "add_photo",
    "delete_photo",
    "may_delete",
    "may_see_photos",
    "process_photo",
]
