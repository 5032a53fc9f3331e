"""The studio against a hostile web page and hostile project text, in a real browser: a DNS name of another
site pointed at this machine gets nothing, and card text full of HTML and script is shown as text."""

from __future__ import annotations

import json

import pytest

from tests.fixtures import toy_engine as toy
from tests.patience import PATIENCE_MS
from tests.studio.conftest import CHROMIUM, CHROMIUM_ARGS, skip_without_browser, wait_until_idle

skip_without_browser()

# Each sets a mark on the window if it ever runs as script.
HOSTILE = ("<script>window.pwned = 'script'</script>"
           "<img src=x onerror=\"window.pwned = 'img'\">"
           "\"><svg onload=\"window.pwned = 'svg'\">")


@pytest.fixture(scope="module")
def hostile_studio(tmp_path_factory):
    """The toy game with HTML and script in its title, a deck's name and description, a card's name, and a
    problem message (below), served on every address."""
    from generator.studio.server import StudioServer

    root = tmp_path_factory.mktemp("hostile-studio")
    project = toy.make_toy_project(root)
    folder = project.cards_dir / "toy"
    game = (folder / "game.yaml").read_text().replace("engine: toy_engine\n", "")
    quoted = json.dumps(HOSTILE)  # a JSON string is a YAML string
    (folder / "game.yaml").write_text(game.replace("title: Sum Up", f"title: {quoted}"))
    numbers = (folder / "numbers.yaml").read_text()
    numbers = numbers.replace("name: Number deck", f"name: {quoted}\ndescription: {quoted}")
    (folder / "numbers.yaml").write_text(numbers.replace("name: One,", f"name: {quoted},"))
    server = StudioServer(project, ["toy"], host="0.0.0.0", port=0).start()
    wait_until_idle(server.url.replace("0.0.0.0", "127.0.0.1"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def rebinding_browser(playwright_driver):
    """Chromium resolving evil.example (a page of another site) to this machine, as DNS rebinding does."""
    chromium = playwright_driver.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP evil.example 127.0.0.1"])
    yield chromium
    chromium.close()


def test_a_page_of_another_site_pointed_at_the_studio_gets_403_and_no_project_data(hostile_studio,
                                                                                     rebinding_browser):
    context = rebinding_browser.new_context()
    context.set_default_timeout(PATIENCE_MS)
    tab = context.new_page()
    try:
        port = hostile_studio.port
        for path in ("", "g/toy", "src/cards/toy/game.yaml", "events"):
            response = tab.goto(f"http://evil.example:{port}/{path}")
            assert response.status == 403, path
            assert "Number deck" not in tab.content() and "toy_engine" not in tab.content()
        # the studio's own name works in the same browser
        assert tab.goto(f"http://127.0.0.1:{port}/g/toy").status == 200
        # and a script of the other site cannot open the studio's event stream either
        tab.goto(f"http://evil.example:{port}/")
        opened = tab.evaluate(f"""() => new Promise(done => {{
            const s = new EventSource("http://127.0.0.1:{port}/events");
            s.onmessage = () => {{ s.close(); done("read"); }};
            s.onerror = () => {{ s.close(); done("refused"); }};
        }})""")
        assert opened == "refused"
    finally:
        context.close()


def test_card_text_full_of_html_and_script_is_shown_as_text_and_never_runs(hostile_studio, rebinding_browser):
    context = rebinding_browser.new_context()
    context.set_default_timeout(PATIENCE_MS)
    tab = context.new_page()
    dialogs: list[str] = []
    tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        base = f"http://127.0.0.1:{hostile_studio.port}/"
        tab.goto(base + "g/toy")
        card = tab.locator('a[href^="/g/toy/card/numbers/"]').first.get_attribute("href")
        pages = ["", "g/toy", card.lstrip("/"), "g/toy/components", "src/cards/toy/numbers.yaml",
                 "src/cards/toy/game.yaml", "g/toy/validation"]
        for path in pages:
            assert tab.goto(base + path).ok, path
            tab.wait_for_load_state("load")
            assert tab.evaluate("() => window.pwned") is None, path
            assert tab.locator("script:not([src])").count() == 0, path
            assert tab.locator("[onerror], [onload], [onmouseover]").count() == 0, path
        tab.goto(base + "g/toy")
        assert HOSTILE in tab.locator("main").inner_text()  # the text is there, shown as text
        # a problem naming a field of script: the banner, live on the open page, shows it as text
        targets = hostile_studio.project.cards_dir / "toy" / "targets.yaml"
        bad = targets.read_text().replace("points: 3}", "points: 3, '<b onmouseover=x>': 1}")
        targets.write_text(bad)
        tab.locator("#banner").wait_for()
        assert "<b onmouseover=x>" in tab.locator("#banner").inner_text()
        assert tab.locator("[onmouseover]").count() == 0 and tab.evaluate("() => window.pwned") is None
        tab.goto(base + "src/cards/toy/numbers.yaml")
        assert json.dumps(HOSTILE) in tab.locator("pre.source").inner_text()  # the line as written
        assert dialogs == []
    finally:
        context.close()
