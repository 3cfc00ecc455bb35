"""Pictures made with Pillow for the photo tests: a phone's JPEG with GPS and an orientation, a PNG with
transparency, a file cut off half-way."""

from __future__ import annotations

import io

from PIL import Image

GPS_IFD = 0x8825
ORIENTATION = 0x0112
MAKE = 0x010F


def phone_jpeg(width: int = 400, height: int = 300, *, orientation: int | None = None, gps: bool = True) -> bytes:
    """A JPEG as a phone makes one: the camera's make, where it was taken (GPS) and, if given, the EXIF
    orientation. Its left half is red and its right half blue, so a turn can be told."""
    picture = Image.new("RGB", (width, height), (200, 0, 0))
    picture.paste((0, 0, 200), (width // 2, 0, width, height))
    exif = Image.Exif()
    exif[MAKE] = "Phone"
    if gps:
        exif.get_ifd(GPS_IFD).update({1: "N", 2: (59.0, 55.0, 30.0), 3: "E", 4: (10.0, 45.0, 0.0)})
    if orientation:
        exif[ORIENTATION] = orientation
    out = io.BytesIO()
    picture.save(out, format="JPEG", exif=exif, quality=90)
    return out.getvalue()


def transparent_png(width: int = 300, height: int = 200) -> bytes:
    picture = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    picture.paste((0, 128, 0, 255), (0, 0, width // 2, height))
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()


# What Pillow reads from any JPEG's own header (JFIF and the encoding), not metadata about the picture.
JPEG_HEADER = frozenset({"jfif", "jfif_version", "jfif_unit", "jfif_density", "dpi", "progressive", "progression"})


def metadata(data: bytes) -> dict:
    """What a stored JPEG carries beside its pixels: EXIF (GPS included), ICC profile, comments."""
    with Image.open(io.BytesIO(data)) as picture:
        return {
            "exif": dict(picture.getexif()),
            "info": {
                k: v
                for k, v in picture.info.items()
                if k not in ("jfif", "jfif_version", "jfif_unit", "jfif_density", "dpi", "progressive", "progression")
            },
            "format": picture.format,
            "mode": picture.mode,
            "size": picture.size,
        }
