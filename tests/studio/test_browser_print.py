"""The studio takes a designer to print: Build and Validate buttons streaming their output, links to every
PDF, the arrow keys through the cards, a heading on every page and no serious accessibility violation
(axe-core in the page), a layout that holds at 1280 and 800 px."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.patience import PATIENCE_MS
from tests.studio.conftest import skip_without_browser, write_and_settle

skip_without_browser()

GAME = "crazy-eights"  # the quickest bundled game to build and validate
AXE = Path(os.environ.get("PNP_AXE", Path.home() / ".cache" / "pnp-forge-tests" / "node_modules" / "axe-core"
                          / "axe.min.js"))


def _page_urls() -> list[str]:
    return ["", f"g/{GAME}", f"g/{GAME}/card/cards/a-clubs", f"g/{GAME}/pages/rules", f"g/{GAME}/components",
            f"g/{GAME}/validation", f"g/{GAME}/print", f"src/cards/{GAME}/cards.yaml",
            "g/order-up-pizza@cs", "g/order-up-pizza@cs/components"]


def _wait_for_job(page, studio, kind: str) -> None:
    """Until the print page says the `kind` job ended (well or not), then that it ended well; a failure says
    what the page, the studio's own page (rendered now) and the job's log say, so a run that never ends can
    be told from a page that missed its end or a job that found problems."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    ended = re.compile(rf"pnp {kind} (finished|found problems)")
    try:
        page.locator("#job-state").filter(has_text=ended).wait_for(timeout=PATIENCE_MS)
        assert page.locator("#job-state").inner_text() == f"pnp {kind} finished: no problems.", \
            page.locator("#job-log").inner_text()[-2000:]
    except PlaywrightTimeout:
        served = page.request.get(studio.url + f"g/{GAME}/print").text()
        said = re.search(r'id="job-state"[^>]*>([^<]*)<', served)
        raise AssertionError(f"the page says {page.locator('#job-state').inner_text()!r}, the studio "
                             f"{said.group(1) if said else '?'!r}; the log: "
                             f"{page.locator('#job-log').inner_text()[-2000:]}") from None


@pytest.mark.slow  # a whole build and validate through the page; the failing build's banner is the quick case
def test_build_and_validate_from_the_print_page(studio, page):
    page.goto(studio.url + f"g/{GAME}/print")
    page.get_by_role("button", name="Build PDFs").click()
    _wait_for_job(page, studio, "build")
    assert "wrote crazy-eights/cards-letter.pdf" in page.locator("#job-log").inner_text()
    link = page.locator("table.files a", has_text=f"{GAME}/cards-letter.pdf")
    link.wait_for()
    response = page.request.get(studio.url + link.get_attribute("href").lstrip("/"))
    assert response.ok and response.body().startswith(b"%PDF")
    page.get_by_role("button", name="Validate").click()
    _wait_for_job(page, studio, "validate")
    assert (studio.project.build_dir / GAME / "validation.json").is_file()
    page.goto(studio.url + f"g/{GAME}/validation")
    assert "scripted games pass" in page.locator("main").inner_text()


def test_a_failing_build_shows_its_problems_as_the_banner(studio, page):
    deck = studio.project.cards_dir / GAME / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    try:
        deck.write_text(text.replace("points: 1}", "points: one}", 1), encoding="utf-8")
        page.goto(studio.url + f"g/{GAME}/print")
        page.get_by_role("button", name="Build PDFs").click()
        page.locator("#job-state", has_text="found problems").wait_for(timeout=PATIENCE_MS)
        banner = page.locator("#job-problems")
        assert banner.is_visible()
        assert re.search(rf"cards/{GAME}/cards\.yaml:\d+: ", banner.inner_text())
    finally:
        write_and_settle(studio.url, GAME, deck, text)


def test_arrow_keys_go_through_the_cards(studio, page):
    page.goto(studio.url + f"g/{GAME}/card/cards/a-clubs")
    following = page.locator('a[rel="next"]').get_attribute("href")
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(re.escape(following) + "$"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"/card/cards/a-clubs$"))


def test_every_page_has_one_heading(studio, page):
    for url in _page_urls():
        page.goto(studio.url + url)
        assert page.locator("h1").count() == 1, url


@pytest.mark.skipif(not AXE.is_file(), reason=f"no axe-core at {AXE} (.ci/run installs it with npm)")
def test_no_serious_accessibility_violation_on_any_page(studio, page):
    found = {}
    for url in _page_urls():
        page.goto(studio.url + url)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("""() => axe.run(document, {runOnly: {type: "tag",
                                   values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})""")
        serious = [f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}" for v in result["violations"]
                   if v["impact"] in ("serious", "critical")]
        if serious:
            found[url or "index"] = serious
    assert found == {}


@pytest.mark.parametrize("width", [1280, 800])
def test_the_toolbar_holds_at_common_widths(studio, browser, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.set_default_timeout(PATIENCE_MS)
    tab = context.new_page()
    try:
        tab.goto(studio.url + f"g/{GAME}")
        toolbar = tab.locator(".toolbar").first
        items = toolbar.locator("label, select, input, .count")
        boxes = [items.nth(i).bounding_box() for i in range(items.count())]
        assert boxes and all(box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
                             for box in boxes)  # nothing hidden off the side
        if width == 1280:
            tops = {round(box["y"]) for box in boxes}
            assert max(tops) - min(tops) < 20, tops  # one line, not wrapped
    finally:
        context.close()


def test_the_language_switch_shows_a_translations_faces_and_pages(studio, page):
    page.goto(studio.url + "g/order-up-pizza")
    switch = page.locator(".tabs .languages a", has_text="cs")
    switch.click()
    page.wait_for_url(re.compile(r"/g/order-up-pizza@cs$"))
    # the Czech faces are drawn on first ask and swapped in live: a Czech card name appears
    page.locator(".face .name", has_text="Šunka").first.wait_for(timeout=PATIENCE_MS)
    page.wait_for_function("document.querySelectorAll('.face img').length > 10", timeout=PATIENCE_MS)
    assert page.locator("h1").inner_text().startswith("Pizza expres")
    page.goto(studio.url + "g/order-up-pizza@cs/pages/rules")
    page.locator(".page img").first.wait_for(timeout=PATIENCE_MS)
    assert page.locator("h1").inner_text() != ""
    page.goto(studio.url + "g/order-up-pizza?lang=cs")  # the query says the same
    assert page.locator(".tabs .languages a.on").get_attribute("lang") == "cs"
    page.goto(studio.url + "g/order-up-pizza@xx")
    assert page.locator("h1").count() == 1 and "not found" in page.content().lower()
