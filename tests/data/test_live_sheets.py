"""Live sheets (issue 32): `cards_from: {url:, cache:}` is pulled by `pnp pull` (and `pnp build --pull`) from
a server on 127.0.0.1; builds read only the cache, offline and byte-identical; a changed sheet redraws only
its cards; every bad answer, limit or hand-edited cache is one located line and keeps the last good cache."""

from __future__ import annotations

import http.client
import json
import shutil
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from generator.data.live_sheets import RECORD, live_sheets, pull_sheet
from generator.data.load import load_game
from generator.data.project import Project
from generator.studio import faces as facemod
from tests.conftest import REPO, run_pnp
from tests.fixtures.workbooks import write_sheet_styles

GAME = "sheet-styles"
SHEET = "Name, Cost, Qty\nComet, 3, 2\nMeteor, 2, 1\nStar Dust, 1, 3\n"
DECK = """deck: live
name: Live deck
code: LIV
layout: front
back: back
cards_from:
  url: {url}
  cache: sheets/live.csv
  columns: {{Qty: copies}}
fields:
  cost: {{type: int}}
  text: {{type: text, required: false, default: ""}}
"""


class Routes(BaseHTTPRequestHandler):
    """Answers each path from `routes`: (status, content type, body, seconds to wait first)."""

    routes: dict[str, tuple[int, str, bytes, float]] = {}

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        status, kind, body, wait = self.routes.get(self.path, (404, "text/plain", b"no such sheet", 0.0))
        time.sleep(wait)
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass

    def log_message(self, *args) -> None:  # quiet
        pass


@pytest.fixture
def server():
    Routes.routes = {"/sheet.csv": (200, "text/csv; charset=utf-8", SHEET.encode(), 0.0)}
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Routes)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def project(tmp_path, server) -> Project:
    shutil.copytree(REPO / "tests" / "fixtures" / "sheets-project", tmp_path / "sheets")
    game = tmp_path / "sheets" / "cards" / GAME
    write_sheet_styles(game)
    (game / "live.yaml").write_text(DECK.format(url=f"{server}/sheet.csv"), encoding="utf-8")
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace(
        "decks: [squib,", "decks: [live, squib,"), encoding="utf-8")
    return Project(tmp_path / "sheets")


def _build(project, *args: str):
    return run_pnp("build", GAME, "--paper", "a4", *args, project=project)


def test_pull_builds_offline_and_rebuilds_byte_identical(project, server):
    result = _build(project)
    assert result.exit_code == 1
    assert (f"cards/{GAME}/live.yaml:7: no pulled copy of {server}/sheet.csv yet (sheets/live.csv is "
            f"missing); expected `pnp pull {GAME}` first: builds read only the cache") in result.output
    result = run_pnp("pull", GAME, project=project)
    assert result.exit_code == 0, result.output
    assert f"pulled cards/{GAME}/sheets/live.csv from {server}/sheet.csv" in result.output
    record = json.loads((project.cards_dir / GAME / RECORD).read_text())["sheets/live.csv"]
    assert record["url"] == f"{server}/sheet.csv" and record["bytes"] == len(SHEET)
    assert [c.id for c in load_game(project, GAME).decks["live"].cards] == ["comet", "meteor", "star-dust"]
    assert _build(project, "--force").exit_code == 0
    built = (project.build_dir / GAME / "cards-a4.pdf").read_bytes()
    Routes.routes.clear()  # offline: the build reads only the cache
    assert _build(project, "--force").exit_code == 0
    assert (project.build_dir / GAME / "cards-a4.pdf").read_bytes() == built


def test_a_changed_sheet_pulls_and_redraws_only_its_changed_cards(project):
    assert run_pnp("pull", GAME, project=project).exit_code == 0
    before = facemod.fingerprints(load_game(project, GAME))
    Routes.routes["/sheet.csv"] = (200, "text/csv", SHEET.replace("Meteor, 2", "Meteor, 4").encode(), 0.0)
    result = _build(project, "--pull")
    assert result.exit_code == 0, result.output
    after = facemod.fingerprints(load_game(project, GAME))
    assert load_game(project, GAME).decks["live"].card("meteor").cost == 4
    assert sorted(key for key in before if after[key] != before[key]) == []  # cost is not printed ...
    Routes.routes["/sheet.csv"] = (200, "text/csv", SHEET.replace("Meteor", "Asteroid").encode(), 0.0)
    assert run_pnp("pull", GAME, project=project).exit_code == 0
    changed = facemod.fingerprints(load_game(project, GAME))
    assert sorted(key for key in after if key in changed and changed[key] != after[key]) == []
    assert sorted(set(changed) - set(after)) == ["live/asteroid"]  # ... a new name is one new face


@pytest.mark.parametrize("route, message", [
    ((404, "text/plain", b"gone", 0.0), "{url} answered 404 Not Found; expected the sheet (is it published? "
                                        "In Google Sheets: File > Share > Publish to web, as CSV)"),
    ((500, "text/plain", b"oops", 0.0), "{url} answered 500 Internal Server Error; expected the sheet"),
    ((200, "text/html", b"<!DOCTYPE html><html><body>Sign in</body></html>", 0.0),
     "{url} answered with a web page (text/html), not a spreadsheet; expected the link of the published CSV"),
    ((200, "text/csv", b"\xff\xfe not utf-8", 0.0),
     "{url} sent what is not a readable .csv file: byte 0xff is not valid UTF-8"),
])
def test_a_bad_answer_is_one_line_and_keeps_the_last_good_cache(project, server, route, message):
    assert run_pnp("pull", GAME, project=project).exit_code == 0
    cache = (project.cards_dir / GAME / "sheets" / "live.csv").read_bytes()
    Routes.routes["/sheet.csv"] = route
    result = run_pnp("pull", GAME, project=project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith(
        f"cards/{GAME}/live.yaml:7: " + message.format(url=f"{server}/sheet.csv")), lines
    assert (project.cards_dir / GAME / "sheets" / "live.csv").read_bytes() == cache
    assert _build(project).exit_code == 0  # the last good cache still builds


def test_size_and_time_limits(project, server):
    sheet = live_sheets(project, GAME)[0]
    with pytest.raises(Exception) as caught:
        pull_sheet(project, sheet, limit=20)
    assert str(caught.value) == (f"cards/{GAME}/live.yaml:7: {server}/sheet.csv sends {len(SHEET)} bytes; "
                                 "expected at most 20 (pnp's limit for a spreadsheet)")
    Routes.routes["/sheet.csv"] = (200, "text/csv", SHEET.encode(), 2.0)
    started = time.monotonic()
    with pytest.raises(Exception) as caught:
        pull_sheet(project, sheet, seconds=0.5)
    assert time.monotonic() - started < 1.8
    assert str(caught.value) == (f"cards/{GAME}/live.yaml:7: {server}/sheet.csv took more than 0.5 s; the "
                                 "last pulled copy, if any, is kept (builds read it offline)")


@pytest.mark.parametrize("url, message", [
    ("http://example.com/sheet.csv", "url 'http://example.com/sheet.csv' is not an https:// address; "
                                     "expected https:// (plain http only for 127.0.0.1 and localhost)"),
    ("ftp://127.0.0.1/sheet.csv", "url 'ftp://127.0.0.1/sheet.csv' is not an https:// address"),
])
def test_a_url_that_is_not_https_is_refused_without_a_connection(project, url, message):
    deck = project.cards_dir / GAME / "live.yaml"
    deck.write_text(deck.read_text().split("  url: ")[0] + f"  url: {url}\n  cache: sheets/live.csv\n"
                    "  columns: {Qty: copies}\nfields:\n  cost: {type: int}\n", encoding="utf-8")
    result = run_pnp("pull", GAME, project=project)
    assert result.exit_code == 1 and result.output.startswith(f"cards/{GAME}/live.yaml:7: {message}")


def test_a_cache_edited_by_hand_is_located(project, server):
    assert run_pnp("pull", GAME, project=project).exit_code == 0
    cache = project.cards_dir / GAME / "sheets" / "live.csv"
    cache.write_text(SHEET.replace("Comet", "Kometa"), encoding="utf-8")
    result = _build(project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    changed = f"cards/{GAME}/live.yaml:7: sheets/live.csv was changed since it was pulled from {server}/"
    assert changed in result.output
    assert run_pnp("pull", GAME, project=project).exit_code == 0  # pulled again, it builds
    assert _build(project).exit_code == 0


def _post(port: int, path: str, origin: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("POST", path, headers={"Origin": origin, "Host": f"127.0.0.1:{port}"})
        return connection.getresponse().status
    finally:
        connection.close()


def test_the_studio_pull_button_and_the_age_of_each_cache(project):
    from generator.studio.server import StudioServer
    from tests.studio.conftest import wait_until_idle

    studio = StudioServer(project, [GAME], port=0).start()
    try:
        wait_until_idle(studio.url)
        page = urllib.request.urlopen(f"{studio.url}g/{GAME}", timeout=30).read().decode()
        assert "Live sheets" in page and "never pulled" in page and f"cards/{GAME}/sheets/live.csv" in page
        assert _post(studio.port, f"/g/{GAME}/pull", "http://evil.example") == 403
        assert not (project.cards_dir / GAME / "sheets" / "live.csv").exists()
        assert _post(studio.port, f"/g/{GAME}/pull", f"http://127.0.0.1:{studio.port}") == 303
        wait_until_idle(studio.url)
        page = urllib.request.urlopen(f"{studio.url}g/{GAME}", timeout=30).read().decode()
        assert "pulled just now" in page and "pulled 1 live sheet, 1 changed" in page
        assert "Star Dust" in page  # the game loaded from the pulled cache
    finally:
        studio.stop()
