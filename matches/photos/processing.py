"""A phone's photo of the referee sheet made safe to keep: checked with Pillow, turned upright, stripped of
its metadata (GPS, the phone, the time) and re-encoded as a JPEG of at most 2,000 px on the long side.
No database: bytes in, bytes out, or a refusal with the reason in the person's language."""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from typing import IO

from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from league.lib.refusals import Refusal

MAX_BYTES = 10 * 1024 * 1024  # 10 MB: a phone's full-size photo fits, a video or a raw file does not
# What a picture costs is the pixels decoded, read from its header before any is decoded: Pillow holds
# 1 byte a pixel (1-bit and greyscale) to 4 (colour), and the work after (resizing, the JPEG) about as much
# again. Measured in a fresh process: a 6 kB 1-bit PNG of 7,000 × 7,000 px took 468 MB and 2-16 s, a
# 4,000 × 4,000 colour PNG 245 MB. Made small before any other copy, at most 16 million pixels decoded
# cost 170 MB at worst (an RGBA PNG; a 12-megapixel JPEG 81 MB, a 1-bit PNG 43 MB). A phone's JPEG is
# decoded at half scale when it is that large (`draft`), so a 48-megapixel photo decodes 12 million.
MAX_PIXELS = 64_000_000  # as the file says it holds: a 48-megapixel phone photo fits
MAX_DECODED_PIXELS = 16_000_000  # as decoded: a 12-16-megapixel photo, a phone's screenshot many times over
# libwebp decodes into a buffer of its own before Pillow copies it: 8 million pixels cost 134 MB.
MAX_DECODED_PIXELS_WEBP = 8_000_000
LONG_SIDE = 2000  # the sheet stays readable; a phone's 4,000 px is twice what anyone reads
SMALL_SIDE = 480  # the copy shown on the match page
QUALITY = 85
# What phones and their galleries send (iOS turns HEIC into JPEG for a web form); MPO is a phone's JPEG
# with a second picture inside.
FORMATS = frozenset({"JPEG", "MPO", "PNG", "WEBP"})


class PhotoRefused(Refusal):
    """An upload that is no photo the league keeps; nothing was stored."""


@dataclass(frozen=True)
class Photo:
    """A photo as the league keeps it: the JPEG and its small copy, pixels only."""

    jpeg: bytes
    small: bytes
    width: int
    height: int


def too_large() -> PhotoRefused:
    return PhotoRefused([_("The photo is larger than 10 MB: send a smaller copy, or take it again.")])


def not_an_image() -> PhotoRefused:
    return PhotoRefused([_("This is not a photo the league can read: send a JPEG, PNG or WebP picture.")])


def damaged() -> PhotoRefused:
    return PhotoRefused([_("The picture is damaged or cut off: take it again.")])


def too_many_pixels(limit: int = MAX_DECODED_PIXELS) -> PhotoRefused:
    return PhotoRefused(
        [
            _("The picture has too many pixels (at most %(millions)d million): send a smaller copy.")
            % {"millions": limit // 1_000_000}
        ]
    )


def process_photo(upload: IO[bytes], *, size: int | None = None) -> Photo:
    """The upload as the league keeps it, or PhotoRefused: over 10 MB, not an image, damaged, or a
    decompression bomb. `size` is the upload's size when known (Django's UploadedFile.size)."""
    if size is not None and size > MAX_BYTES:
        raise too_large()
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise too_large()
    picture = _decoded(data)
    # Made small first, in the picture's own mode: every copy after (upright, RGB) is of 2,000 px at most.
    if picture.mode in ("1", "P"):  # resized by the nearest pixel only: a scanned sheet's text would break up
        picture = picture.convert("RGBA" if "transparency" in picture.info else "L")
    picture.thumbnail((LONG_SIDE, LONG_SIDE), Image.Resampling.LANCZOS)
    rgb = _rgb(ImageOps.exif_transpose(picture))
    small = rgb.copy()
    small.thumbnail((SMALL_SIDE, SMALL_SIDE), Image.Resampling.LANCZOS)
    return Photo(jpeg=_jpeg(rgb), small=_jpeg(small), width=rgb.width, height=rgb.height)


def _decoded(data: bytes) -> Image.Image:
    """Pillow's check of the file (verify), then the file opened again and decoded: verify leaves the
    image unusable, and only decoding finds a file cut off half-way. The size is checked before any
    pixel is decoded (Pillow's own bomb check warns only above 89 million pixels, and a warning
    filter is no thread's own under gunicorn's threads)."""
    try:
        with Image.open(io.BytesIO(data)) as probe:
            if probe.format not in FORMATS:
                raise not_an_image()
            if probe.width * probe.height > MAX_PIXELS:
                raise too_many_pixels(MAX_PIXELS)
            probe.verify()
        picture = Image.open(io.BytesIO(data))
        if picture.format in ("JPEG", "MPO"):
            picture.draft("RGB", (LONG_SIDE, LONG_SIDE))  # decode at a smaller scale: less memory and time
        limit = MAX_DECODED_PIXELS_WEBP if picture.format == "WEBP" else MAX_DECODED_PIXELS
        if picture.width * picture.height > limit:  # the size it will decode at, from the header
            raise too_many_pixels(limit)
        picture.load()
    except Image.DecompressionBombError:
        raise too_many_pixels() from None
    except UnidentifiedImageError:
        raise not_an_image() from None
    except (OSError, SyntaxError, ValueError, struct.error):  # what Pillow raises for a damaged file
        raise damaged() from None
    return picture


def _rgb(picture: Image.Image) -> Image.Image:
    """Pixels only, in a new image: no EXIF, GPS, ICC profile or comment comes along. A transparent
    picture (a PNG screenshot) is laid on white, as it would be printed."""
    has_alpha = picture.mode in ("RGBA", "LA", "PA") or (picture.mode == "P" and "transparency" in picture.info)
    if has_alpha:
        rgba = picture.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    rgb = picture.convert("RGB")
    clean = Image.new("RGB", rgb.size)
    clean.paste(rgb)
    return clean


def _jpeg(picture: Image.Image) -> bytes:
    out = io.BytesIO()
    picture.save(out, format="JPEG", quality=QUALITY, optimize=True, progressive=True)
    return out.getvalue()
