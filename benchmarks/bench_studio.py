"""The studio (`pnp serve`) in a real browser: how fast pages load, and how soon an edit shows on an open page.

Works on a copy of cards/ and templates/ in a temporary folder, with the studio on a free port of 127.0.0.1 and the
distribution's Chromium driven by Playwright (skipped with a note when either is missing).
Targets: every page loads in under 1 s after the first render (a fresh browser profile per page, so nothing comes
from the browser's cache); a card name edit shows in the open page within 1 s of the save. The baseline, measured
in the same run, is what `pnp watch` needs for the same edit before a PDF viewer could show it: an incremental
build of the edited game.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from generator.core.contract import BuildOptions
from generator.data.project import Project
from generator.pipeline.build import build

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
EDITS = {  # game -> (file, text, replacement, the face that prints it): one card's printed name
    "order-up-pizza": ("orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie", "orders/grandma-rosa"),
    "order-up-trading": ("recipes.yaml", "name: Burrito", "name: Burritos", "recipes/burrito"),
    "short-order-hero": ("recipes.yaml", "name: Buttered Toast", "name: Buttered Toasts", "recipes/buttered-toast"),
}
ALL_IMAGES_LOADED = "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"


def _wait_idle(studio, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not (studio.games and studio.idle()):
        if time.monotonic() > deadline:
            raise RuntimeError("the studio did not finish drawing")
        time.sleep(0.02)


def _page_urls(server) -> list[str]:
    urls = [""]
    for name, state in sorted(server.studio.games.items()):
        deck = next(iter(state.game.decks.values()))
        urls += [f"g/{name}", f"g/{name}/card/{deck.id}/{deck.cards[0].id}", f"g/{name}/components",
                 f"g/{name}/validation"] + [f"g/{name}/pages/{p.name}" for p in state.pages]
    return urls


def _load_time(browser, url: str) -> float:
    """Seconds from navigation to the load event with every image decoded, in a fresh profile."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url, wait_until="load")
    page.wait_for_function(ALL_IMAGES_LOADED)
    elapsed = time.perf_counter() - started
    context.close()
    return elapsed


def _edit_latency(browser, server, game: str, file: str, old: str, new: str, target: str) -> float | None:
    """Seconds from writing the edit to the changed, loaded image on an open page."""
    path = server.project.cards_dir / game / file
    text = path.read_text(encoding="utf-8")
    if old not in text or target not in server.studio.games[game].faces:
        return None
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(server.url + f"g/{game}", wait_until="load")
    page.wait_for_function(ALL_IMAGES_LOADED)
    selector = f'[data-face="{target}"] img'
    before = page.get_attribute(selector, "src")
    started = time.perf_counter()
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    page.wait_for_function("""([s, old]) => { const i = document.querySelector(s);
        return i && i.getAttribute('src') !== old && i.complete && i.naturalWidth > 0; }""",
                           arg=[selector, before], timeout=30000, polling=10)
    elapsed = time.perf_counter() - started
    context.close()
    path.write_text(text, encoding="utf-8")
    _wait_idle(server.studio)
    return elapsed


def _build_after_edit(project: Project, game: str, file: str, old: str, new: str, _face: str) -> float:
    """The baseline: an incremental build of the game after the same edit (papers as `pnp watch`)."""
    path = project.cards_dir / game / file
    text = path.read_text(encoding="utf-8")
    options = BuildOptions()
    build(project, [game], options)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    started = time.perf_counter()
    build(project, [game], options)
    elapsed = time.perf_counter() - started
    path.write_text(text, encoding="utf-8")
    return elapsed


def run() -> None:
    """Print the first render, every page's load time and the edit-to-browser latency per game."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("skipped: Playwright is not installed (pip install -e '.[test]')")
        return
    if not CHROMIUM.exists():
        print("skipped: no browser; install the distribution's package `chromium`")
        return
    from generator.studio.server import StudioServer

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        root = Path(folder)
        for name in ("cards", "templates"):
            shutil.copytree(REPO / name, root / name)
        project = Project(root)
        started = time.perf_counter()
        server = StudioServer(project, port=0).start()
        _wait_idle(server.studio)
        faces = sum(len(s.faces) for s in server.studio.games.values())
        print(f"first render: {time.perf_counter() - started:.2f} s ({faces} faces, boards and rules of "
              f"{len(server.studio.games)} games)")
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            times = {url or "/": min(_load_time(browser, server.url + url) for _ in range(2))
                     for url in _page_urls(server)}
            worst = max(times, key=times.get)
            print(f"page loads (fresh profile, best of 2, all images decoded): {len(times)} pages, median "
                  f"{sorted(times.values())[len(times) // 2] * 1000:.0f} ms, slowest {times[worst] * 1000:.0f} ms "
                  f"({worst}); {'ok' if times[worst] < 1 else 'over'} the 1 s target")
            latencies = {game: _edit_latency(browser, server, game, *edit) for game, edit in EDITS.items()}
        finally:
            browser.close()
            server.stop()
        for game, edit in EDITS.items():  # the baseline, with the studio stopped so it does not share the CPU
            if latencies[game] is None:
                print(f"edit of {game}: card not found, skipped")
                continue
            baseline = _build_after_edit(project, game, *edit)
            print(f"edit of {game} ({edit[1]!r}): in the browser after {latencies[game] * 1000:.0f} ms "
                  f"({'ok' if latencies[game] < 1 else 'over'} the 1 s target); baseline incremental build "
                  f"{baseline:.2f} s, ratio {latencies[game] / baseline:.2f}")

if __name__ == "__main__":
    run()
