"""The paper referee sheet's photo on the report (issue 27), on a phone: a coach takes the photo through
the form's file field (the phone's camera), with JavaScript and without; the stored photo carries no
EXIF (the phone put GPS in it); the other coach sees it on the match page, an anonymous visitor does not."""

import pytest
from django.core.files.storage import default_storage
from playwright.sync_api import expect

from matches.models import ReportPhoto
from tests import factories
from tests.browser.conftest import screenshot
from tests.browser.test_confirm_browser import log_in
from tests.photos import metadata, phone_jpeg

pytestmark = pytest.mark.usefixtures("media_root")


# without JavaScript the form is a plain upload, tested through Django's test client: in `make test-long`
@pytest.mark.parametrize("javascript", [True, pytest.param(False, marks=pytest.mark.long)], ids=["js", "no-js"])
def test_a_coach_adds_the_sheets_photo_and_only_the_match_sees_it(browser, live_server, new_page, javascript):
    match = factories.league_match()
    home, away = match.home.coach, match.away.coach
    context = browser.new_context(
        base_url=live_server.url, locale="nb-NO", java_script_enabled=javascript, viewport={"width": 390, "height": 844}
    )
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        log_in(page, home)
        page.goto(match.get_absolute_url())
        field = page.get_by_label("Bilde av dommerskjemaet")
        assert field.get_attribute("accept") == "image/*" and field.get_attribute("capture") == "environment"
        sent = phone_jpeg(3000, 4000, orientation=6, gps=True)
        assert metadata(sent)["exif"]  # the phone's EXIF, GPS included
        field.set_input_files({"name": "IMG_2041.jpg", "mimeType": "image/jpeg", "buffer": sent})
        page.get_by_role("button", name="Legg til bildet").click()
        expect(page.locator(".messages")).to_contain_text("Bildet er lagt til rapporten.")
        expect(page.locator("#photos img")).to_have_count(1)
        expect(page.locator("#photos")).to_contain_text(f"Lagt til av {home.username}")

        photo = ReportPhoto.objects.get(match=match)
        with default_storage.open(photo.image) as stored:
            kept = metadata(stored.read())
        assert kept["exif"] == {} and kept["info"] == {}
        assert kept["size"] == (2000, 1500)  # upright (orientation 6: turned), 2,000 px on the long side
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#photos").scroll_into_view_if_needed()
        screenshot(page, f"photos-phone-{'js' if javascript else 'no-js'}")
    finally:
        context.close()

    other = new_page()
    log_in(other, away)
    other.goto(match.get_absolute_url())
    picture = other.locator("#photos img")
    expect(picture).to_have_count(1)
    expect(picture).to_have_js_property("naturalWidth", 480)  # served to him and loaded: the small copy
    assert other.locator("#photos form[action$='/delete/']").count() == 0  # he did not add it

    anonymous = new_page()
    anonymous.goto(match.get_absolute_url())
    expect(anonymous.locator("h1")).to_contain_text(match.home.name)
    expect(anonymous.locator("#photos")).to_have_count(0)
    assert f"/photos/{photo.pk}/" not in anonymous.content()
    assert anonymous.request.get(f"/matches/{match.pk}/photos/{photo.pk}/small/").status == 404


def test_a_file_that_is_no_photo_is_refused_in_norwegian(page, media_root):
    match = factories.league_match()
    log_in(page, match.away.coach)
    page.goto(match.get_absolute_url())
    page.get_by_label("Bilde av dommerskjemaet").set_input_files(
        {"name": "skjema.jpg", "mimeType": "image/jpeg", "buffer": b"Trolls 2 - Saints 1"}
    )
    page.get_by_role("button", name="Legg til bildet").click()
    expect(page.locator("#photos")).to_contain_text(
        "Dette er ikke et bilde ligaen kan lese: send et JPEG-, PNG- eller WebP-bilde."
    )
    assert not ReportPhoto.objects.exists()
    assert not [p for p in media_root.rglob("*") if p.is_file()]


def test_the_one_who_added_it_deletes_it_after_the_question(page):
    match = factories.league_match()
    log_in(page, match.home.coach)
    page.goto(match.get_absolute_url())
    page.get_by_label("Bilde av dommerskjemaet").set_input_files(
        {"name": "a.jpg", "mimeType": "image/jpeg", "buffer": phone_jpeg()}
    )
    page.get_by_role("button", name="Legg til bildet").click()
    expect(page.locator("#photos img")).to_have_count(1)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.get_by_role("button", name="Slett bildet").click()
    expect(page.locator(".messages")).to_contain_text("Bildet er slettet.")
    assert asked == ["Slette dette bildet?"]
    expect(page.locator("#photos")).to_contain_text(f"Bilde 1 slettet av {match.home.coach.username}")
    assert not ReportPhoto.objects.exists()
