"""Pages anyone can use, in Norwegian (issue 26): 16 pages, logged out and as a coach, at 390 and 1280 px,
with no serious or critical axe-core violation (WCAG 2.1 A and AA), nothing wider than the screen, and
no English sentence on a Norwegian page. The English words are looked for at the phone's width, where the
league reads its pages. axe runs (about two seconds a page; issue 25: the walk was the suite's slowest
test) where a page differs: every page at the phone's width for a visitor, for the coach his own pages and
those that show him forms, and the home page at both widths (in `make test` the home page and the first
three of each visitor's: AXE_PAGES; and at the desktop's width the home page alone: DESKTOP_PAGES)."""

import json
import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests import sizes
from tests.browser.test_phone_browser import log_in, pages_of, too_wide

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
# Only the violations' nodes collected (axe's resultTypes: the passes' were a sixth of the walk's time)
WCAG = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
# Words that are English and never Norwegian: one of them on a Norwegian page is an untranslated
# sentence. The Blood Bowl words the Norwegian rulebook itself uses (skills, "Quick & Short passes",
# handicap names such as "I didn't do it") are taken out first.
ENGLISH = re.compile(r"\b(the|and|with|this|that|your|which|when|will|each|after|before|only|every|please)\b", re.I)
BLOOD_BOWL = re.compile(r"Quick & Short passes|I didn't do it|Doom & Gloom|Jump Up and Frenzy|Hail Mary Pass", re.I)


@pytest.fixture(scope="module")
def axe():
    return Axe()


def serious(axe, page) -> list[str]:
    results = axe.run(page, options=WCAG)
    return [
        f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def english_words(page) -> list[str]:
    text = BLOOD_BOWL.sub(" ", page.locator("main").inner_text())
    return sorted({m.group(0) for m in ENGLISH.finditer(text)})


COACH_AXE = {"my", "notices", "notice choices", "calendar", "home", "match-played", "match-coming", "roster"}
# Pages axe checks besides the home page: a few for each visitor in `make test`, every one above in
# `make test-long` (tests/sizes.py). The fit and the English words are checked on every page in both.
AXE_PAGES = sizes.size("AXE_PAGES", 3, 1000)
# Pages walked at the desktop's width, the home page first: every one in `make test-long`, the home page
# alone in `make test`, where every page is walked at the phone's width (here, and for its fit in
# test_phone_browser.py): a page that fits 390 px seldom overflows 1280.
DESKTOP_PAGES = sizes.size("DESKTOP_PAGES", 1, 1000)


def test_sixteen_pages_in_norwegian_are_accessible_fit_and_say_nothing_in_english(new_page, demo_league, axe):
    # both widths in one test: the demo league takes longer to build than the pages to check
    found: dict[str, object] = {}
    for width, size in WIDTHS.items():
        page = new_page()
        page.set_viewport_size(size)
        urls = pages_of(demo_league)
        assert len(urls) >= 16
        for who in ("anonymous", "astrid"):
            axed = 0
            if who != "anonymous":
                log_in(page, who)
                urls = {
                    "my": "/my/",
                    "notices": "/my/notices/",
                    "notice choices": "/my/notices/settings/",
                    "calendar": "/my/calendar/",
                    **urls,
                }
            home_first = sorted(urls.items(), key=lambda item: item[0] != "home")  # stable: the rest in order
            walked = urls if width == "phone" else dict(home_first[:DESKTOP_PAGES])
            if who != "anonymous" and not sizes.FULL:
                # In `make test` the coach walks the pages whose `main` differs from the visitor's (his own and
                # those that show him forms), where his English words would be; every page fits his phone in
                # test_phone_browser.py's walk.
                walked = {name: url for name, url in walked.items() if name in COACH_AXE}
            for name, url in walked.items():
                page.goto(url)
                assert page.locator("html").get_attribute("lang") == "nb"
                wide = page.evaluate("document.documentElement.scrollWidth") > size["width"]
                phone = width == "phone"
                checked = (phone and (who == "anonymous" or name in COACH_AXE) and axed < AXE_PAGES) or name == "home"
                axed += checked and name != "home"
                problems = {
                    "axe": serious(axe, page) if checked else [],
                    "wide": too_wide(page, size["width"]) if wide else [],
                    "english": english_words(page) if phone else [],
                }
                if any(problems.values()):
                    found[f"{width} {who} {name}"] = {k: v for k, v in problems.items() if v}
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
