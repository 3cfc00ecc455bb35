"""A phone's photo of the referee sheet made safe to keep (issue 27): no metadata left (GPS above all),
upright, an RGB JPEG of at most 2,000 px; anything else refused with a Norwegian message. No database."""

import io
from unittest import mock

import pytest
from django.utils import translation
from PIL import Image

from matches.photos.processing import MAX_BYTES, PhotoRefused, process_photo
from tests.photos import metadata, phone_jpeg, transparent_png


def norwegian_refusal(data: bytes, **kwargs) -> str:
    with translation.override("nb"), pytest.raises(PhotoRefused) as refused:
        process_photo(io.BytesIO(data), **kwargs)
    return refused.value.messages[0]


def test_a_phone_jpeg_with_gps_comes_out_without_any_exif():
    sent = phone_jpeg(gps=True)
    assert metadata(sent)["exif"]  # the picture as sent carries the phone's EXIF, GPS included
    with Image.open(io.BytesIO(sent)) as picture:
        assert picture.getexif().get_ifd(0x8825)
    kept = metadata(process_photo(io.BytesIO(sent)).jpeg)
    assert kept["exif"] == {} and kept["info"] == {}
    assert kept["format"] == "JPEG" and kept["mode"] == "RGB"
    assert b"Exif" not in process_photo(io.BytesIO(sent)).jpeg


def test_the_small_copy_has_no_metadata_either():
    photo = process_photo(io.BytesIO(phone_jpeg(gps=True)))
    assert metadata(photo.small)["exif"] == {}


def test_a_4000_by_3000_photo_becomes_2000_by_1500():
    photo = process_photo(io.BytesIO(phone_jpeg(4000, 3000)))
    assert (photo.width, photo.height) == (2000, 1500)
    assert metadata(photo.jpeg)["size"] == (2000, 1500)
    assert max(metadata(photo.small)["size"]) == 480


def test_a_photo_under_2000_px_keeps_its_size():
    photo = process_photo(io.BytesIO(phone_jpeg(2000, 1000)))
    assert (photo.width, photo.height) == (2000, 1000)


def test_a_png_with_transparency_becomes_an_rgb_jpeg_on_white():
    photo = process_photo(io.BytesIO(transparent_png(300, 200)))
    kept = metadata(photo.jpeg)
    assert kept["format"] == "JPEG" and kept["mode"] == "RGB" and kept["size"] == (300, 200)
    with Image.open(io.BytesIO(photo.jpeg)) as picture:
        assert picture.getpixel((250, 100)) > (240, 240, 240)  # the transparent half is white
        green = picture.getpixel((50, 100))
        assert green[1] > 100 and green[0] < 40


@pytest.mark.parametrize("orientation", [6, 8, 3])
def test_a_photo_turned_by_its_exif_orientation_comes_out_upright(orientation):
    """A phone held upright stores the picture on its side and says so (orientation 6: turn it 90°
    clockwise; 8: counter-clockwise; 3: upside down): kept, the pixels are turned and the tag is gone."""
    photo = process_photo(io.BytesIO(phone_jpeg(400, 300, orientation=orientation)))
    with Image.open(io.BytesIO(photo.jpeg)) as picture:
        assert ORIENTATION not in picture.getexif()
        if orientation == 3:
            assert picture.size == (400, 300)
            assert picture.getpixel((20, 150))[2] > 150  # blue, once on the right, now on the left
        else:
            assert picture.size == (300, 400)
            # red was on the left: turned clockwise (6) it is on top, counter-clockwise (8) at the bottom
            top, bottom = picture.getpixel((150, 20)), picture.getpixel((150, 380))
            red, blue = (top, bottom) if orientation == 6 else (bottom, top)
            assert red[0] > 150 and blue[2] > 150


ORIENTATION = 0x0112


def test_a_text_file_is_refused_in_norwegian():
    message = norwegian_refusal(b"Dommerskjema: Trolls 2 - Saints 1\n")
    assert message == "Dette er ikke et bilde ligaen kan lese: send et JPEG-, PNG- eller WebP-bilde."


def test_a_picture_in_a_format_the_league_does_not_take_is_refused():
    out = io.BytesIO()
    Image.new("RGB", (10, 10)).save(out, format="BMP")
    assert norwegian_refusal(out.getvalue()).startswith("Dette er ikke et bilde ligaen kan lese")


def test_a_truncated_photo_is_refused_in_norwegian():
    sent = phone_jpeg(800, 600)
    assert norwegian_refusal(sent[: len(sent) // 2]) == "Bildet er skadet eller ufullstendig: ta det på nytt."


def test_an_upload_over_10_mb_is_refused_by_its_size_before_it_is_read():
    upload = io.BytesIO(phone_jpeg())
    with translation.override("nb"), pytest.raises(PhotoRefused) as refused:
        process_photo(upload, size=11 * 1024 * 1024)
    assert refused.value.messages == ["Bildet er større enn 10 MB: send en mindre kopi, eller ta det på nytt."]
    assert upload.tell() == 0


def test_an_upload_over_10_mb_is_refused_by_what_is_read_when_its_size_is_not_said():
    assert norwegian_refusal(phone_jpeg() + b"\0" * (MAX_BYTES + 1)).startswith("Bildet er større enn 10 MB")


def test_a_decompression_bomb_is_refused_before_its_pixels_are_decoded():
    """A 1-bit PNG of 7,000 × 7,000 pixels, a few kB: 468 MB and 2-16 s when it was decoded in full."""
    out = io.BytesIO()
    Image.new("1", (7_000, 7_000)).save(out, format="PNG")
    assert len(out.getvalue()) < 64 * 1024
    with mock.patch.object(Image.Image, "load", side_effect=AssertionError("decoded")):
        assert norwegian_refusal(out.getvalue()) == (
            "Bildet har for mange piksler (høyst 16 millioner): send en mindre kopi."
        )


def test_what_the_file_says_it_holds_is_refused_past_64_million_pixels_even_for_a_jpeg():
    out = io.BytesIO()
    Image.new("L", (8_001, 8_000)).save(out, format="JPEG", quality=10)
    assert norwegian_refusal(out.getvalue()) == (
        "Bildet har for mange piksler (høyst 64 millioner): send en mindre kopi."
    )


def test_a_48_megapixel_phone_photo_is_decoded_at_half_scale_and_kept():
    photo = process_photo(io.BytesIO(phone_jpeg(8_000, 6_000)))
    assert (photo.width, photo.height) == (2_000, 1_500)


def test_a_webp_is_decoded_up_to_8_million_pixels():
    out = io.BytesIO()
    Image.new("RGB", (3_000, 3_000)).save(out, format="WEBP")
    assert norwegian_refusal(out.getvalue()) == "Bildet har for mange piksler (høyst 8 millioner): send en mindre kopi."


def test_a_one_bit_scan_is_made_small_in_greyscale():
    out = io.BytesIO()
    Image.new("1", (4_000, 3_000), 1).save(out, format="PNG")
    photo = process_photo(io.BytesIO(out.getvalue()))
    assert (photo.width, photo.height) == (2_000, 1_500)
