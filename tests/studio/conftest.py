"""The studio under test: a server on a free port of 127.0.0.1 over a throw-away copy of the project, and a
real browser (the distribution's Chromium driven by Playwright); without a browser the browser tests skip."""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.request
from pathlib import Path

import pytest

from generator.data.project import Project
from tests.conftest import REPO
from tests.patience import PATIENCE_MS, PATIENCE_S

# another browser build: PNP_CHROMIUM=path
CHROMIUM = Path(os.environ.get("PNP_CHROMIUM", "/usr/bin/chromium"))
# What works on a machine without a display, GPU or outside network (and as root, hence --no-sandbox).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NO_BROWSER = ("no browser for the studio tests: install the distribution's package `chromium` (apt-get "
              "install chromium)")


def wait_until_idle(url: str, seconds: float = PATIENCE_S) -> dict:
    """Poll /status until the studio has loaded and drawn everything."""
    deadline = time.monotonic() + seconds
    while True:
        with urllib.request.urlopen(url + "status", timeout=10) as response:
            status = json.load(response)
        if status["idle"]:
            return status
        if time.monotonic() > deadline:
            raise AssertionError(f"the studio did not finish drawing in {seconds} s: {status}")
        time.sleep(0.1)


def write_and_settle(url: str, game: str, path: Path, text: str) -> dict:
    """Write `text` to `path`, then wait until the studio has read the save (the game's version moved on)
    and drawn everything: a page loaded after this shows the saved data, never the state before it."""
    with urllib.request.urlopen(url + "status", timeout=10) as response:
        before = json.load(response)["versions"].get(game, 0)
    path.write_text(text, encoding="utf-8")
    deadline = time.monotonic() + PATIENCE_S
    while True:
        with urllib.request.urlopen(url + "status", timeout=10) as response:
            status = json.load(response)
        if status["versions"].get(game, 0) > before and status["idle"]:
            return status
        if time.monotonic() > deadline:
            raise AssertionError(f"the studio did not read the save of {path.name}: {status}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def studio_project(tmp_path_factory) -> Project:
    """A copy of the repository's games, safe to edit."""
    root = tmp_path_factory.mktemp("studio-project")
    for name in ("cards", "templates"):
        shutil.copytree(REPO / name, root / name)
    return Project(root)


@pytest.fixture(scope="module")
def studio(studio_project):
    """`pnp serve` on a free port of 127.0.0.1, every face drawn."""
    from generator.studio.server import StudioServer

    server = StudioServer(studio_project, host="127.0.0.1", port=0).start()
    wait_until_idle(server.url)
    yield server
    server.stop()


def skip_without_browser() -> None:
    """Skip the calling test module, in one line naming what to install, when there is no browser to drive."""
    if not CHROMIUM.exists():
        pytest.skip(NO_BROWSER, allow_module_level=True)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("no Playwright for the studio tests: `make test` installs it (pip install -e '.[test]')",
                    allow_module_level=True)


@pytest.fixture(scope="session")
def playwright_driver():
    """Playwright, once per session (its sync API runs one driver per thread)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """Headless Chromium of the distribution."""
    chromium = playwright_driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture
def page(browser):
    """A fresh tab; console errors of the studio's own script fail the test."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    context.set_default_timeout(PATIENCE_MS)  # every wait for an element or a page: a hang guard only
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert errors == [], errors
