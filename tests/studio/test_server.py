"""The studio's server without a browser: what it sends and refuses, where it listens, how it stops."""

from __future__ import annotations

import http.client
import inspect
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from generator.engines import registry
from tests.conftest import REPO, run_pnp
from tests.fixtures import toy_engine as toy
from tests.studio.conftest import wait_until_idle

SECRET = "not-for-the-browser-7f3a"


@pytest.fixture(scope="module")
def toy_studio(tmp_path_factory):
    """The studio on the toy game, with a secret file beside the project and a link to it inside."""
    registry.register(toy.ENGINE)
    root = tmp_path_factory.mktemp("toy-studio")
    project = toy.make_toy_project(root / "project")
    (root / "secret.txt").write_text(SECRET)
    (project.cards_dir / "toy" / "leak.txt").symlink_to(root / "secret.txt")
    (project.cards_dir / "toy" / "leak-dir").symlink_to(root, target_is_directory=True)
    (project.build_dir / "toy").mkdir(parents=True)
    (project.build_dir / "toy" / "cards-letter.pdf").write_bytes(b"%PDF-1.4 a built sheet")
    from generator.studio.server import StudioServer

    server = StudioServer(project, ["toy"], port=0).start()
    wait_until_idle(server.url)
    yield server
    server.stop()
    registry.unregister(toy.ENGINE.name)


def _get(server, path: str, host: str | None = None) -> tuple[int, bytes]:
    """A GET with the path sent exactly as written (no client-side clean-up of '..')."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host or f"127.0.0.1:{server.port}")
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_sources_and_build_outputs_are_served(toy_studio):
    status, body = _get(toy_studio, "/src/cards/toy/numbers.yaml")
    assert status == 200 and b"deck: numbers" in body
    status, body = _get(toy_studio, "/build/toy/cards-letter.pdf")
    assert status == 200 and body == b"%PDF-1.4 a built sheet"
    status, body = _get(toy_studio, "/g/toy")
    assert status == 200 and b'data-face="numbers/' in body


@pytest.mark.parametrize(
    "path",
    [
        "/src/../../../../etc/passwd",
        "/src/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/src/cards/..%2f..%2f..%2fsecret.txt",
        "/src/cards/toy/../../../secret.txt",
        "/src/cards/toy/leak.txt",
        "/src/cards/toy/leak-dir/secret.txt",
        "/src//etc/passwd",
        "/src/cards%5c..%5c..%5csecret.txt",
        "/src/cards/toy/numbers.yaml%00.txt",
        "/build/../cards/toy/game.yaml",
        "/build/%2e%2e/%2e%2e/secret.txt",
        "/build/toy/../../../secret.txt",
        "/static/../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/studio/app.py",
        "/img/..%2f..%2fsecret.png",
        "/large/toy/face/../../../secret/x.png",
        "/g/..%2f..%2fsecret",
        "/src/pyproject.toml",
    ],
)
def test_path_traversal_is_a_404(toy_studio, path):
    status, body = _get(toy_studio, path)
    assert status == 404, path
    assert SECRET.encode() not in body and b"root:" not in body


def test_it_listens_on_127_0_0_1_only_by_default(toy_studio):
    from generator.cli.serve import serve_cmd
    from generator.studio.server import StudioServer

    assert toy_studio.socket.getsockname()[0] == "127.0.0.1"
    assert {p.name: p.default for p in serve_cmd.params}["host"] == "127.0.0.1"
    assert inspect.signature(StudioServer).parameters["host"].default == "127.0.0.1"  # the library too
    with pytest.raises(OSError):  # another address of this machine's loopback is not served
        socket.create_connection(("127.0.0.2", toy_studio.port), timeout=2).close()
    # and a page elsewhere cannot reach it through a DNS name that points at 127.0.0.1
    status, _ = _get(toy_studio, "/", host=f"attacker.example:{toy_studio.port}")
    assert status == 403
    assert _get(toy_studio, "/", host=f"localhost:{toy_studio.port}")[0] == 200


def test_a_port_in_use_is_one_located_line(tmp_path):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    try:
        toy.make_toy_project(tmp_path)
        result = run_pnp("serve", "--port", str(holder.getsockname()[1]), project=tmp_path)
        assert result.exit_code == 1
        assert f"--port {holder.getsockname()[1]}: the port is in use" in result.output
        assert "Traceback" not in result.output
    finally:
        holder.close()


def test_validation_page_shows_the_last_validate_with_its_charts(toy_studio):
    status, body = _get(toy_studio, "/g/toy/validation")
    assert status == 200 and b"Run <code>pnp validate toy</code>" in body
    script = toy_studio.project.cards_dir / "toy" / "scripts" / "bad.yaml"
    script.write_text("players: 2\nsteps:\n  - expect: {round: 2}\n", encoding="utf-8")
    try:
        assert run_pnp("validate", "--games", "12", "--jobs", "1", project=toy_studio.project).exit_code == 1
    finally:
        script.unlink()
    status, body = _get(toy_studio, "/g/toy/validation")
    text = body.decode()
    assert "12 games per player count, seed 1" in text and "2 players: 12 games" in text
    assert "0 of 1 scripted games pass" in text  # the failing script, located
    assert "cards/toy/scripts/bad.yaml: step 1 (line 3): expected round = 2, got 1" in text
    charts = re.findall(r'src="(/img/[0-9a-f]+-\d+\.png)"', text)
    assert len(charts) >= 2 and all(_get(toy_studio, src)[0] == 200 for src in charts)


PLAYTEST = """\
date: 2026-01-02
version: print of 2026-01-01
seats:
  - {player: Ada, score: 9}
  - {player: Bo, score: 4}
winner: 1
length: {rounds: 40}
notes:
  one: too many of them
"""


def test_validation_page_shows_the_playtests_beside_the_simulated_games(toy_studio):
    folder = toy_studio.project.cards_dir / "toy" / "playtests"
    folder.mkdir()
    (folder / "2026-01-02.yaml").write_text(PLAYTEST, encoding="utf-8")
    try:
        checked = run_pnp("validate", "--no-sim", project=toy_studio.project)
        assert checked.exit_code == 0, checked.output
        text = _get(toy_studio, "/g/toy/validation")[1].decode()
        assert "Playtests" in text and "2026-01-02" in text and "Ada 9, Bo 4" in text
        assert "Checked, not compared" in text
        played = run_pnp("validate", "--games", "40", "--jobs", "1", project=toy_studio.project)
        assert played.exit_code == 0, played.output
        text = _get(toy_studio, "/g/toy/validation")[1].decode()
    finally:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    table = re.search(r'<table class="components playtests">(.*?)</table>', text, re.S)
    assert table and "2 players: 1 real play" in table[1], text
    cells = re.findall(r'<tr class="(ok|bad)"><td>([^<]*)</td><td class="n">([^<]*)</td><td class="n">([^<]*)'
                       r'</td></tr>', table[1])
    figures = {what: (mark, real, simulated) for mark, what, real, simulated in cells}
    # 40 rounds against the toy's simulated length, which ends after 12 rounds at most: outside, marked
    assert figures["length (rounds)"][0] == "bad" and figures["length (rounds)"][1] == "40.0"
    assert re.fullmatch(r"\d+\.\d \(10-90%: \d+-\d+\)", figures["length (rounds)"][2])
    assert figures["wins of the 1st to play"][1].startswith("1 of 1")
    assert re.fullmatch(r"\d+%", figures["wins of the 2nd to play"][2])
    assert "real games are" in text and "longer than simulated at 2 players" in text
    assert "<td>Ada</td>" in text  # the winner column


def test_ctrl_c_stops_the_server_cleanly_with_a_page_open(tmp_path):
    toy.make_toy_project(tmp_path)
    (tmp_path / "cards" / "toy" / "game.yaml").write_text(
        (tmp_path / "cards" / "toy" / "game.yaml").read_text().replace("engine: toy_engine\n", ""))
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "--project", str(tmp_path), "serve", "--port", "0"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        first = process.stdout.readline()
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", first).group(1))
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        stream.request("GET", "/events")
        events = stream.getresponse()
        assert events.status == 200 and events.getheader("Content-Type").startswith("text/event-stream")
        seen = b""
        while b'"hello"' not in seen:  # the page is live: it got its greeting and the stream stays open
            seen += events.read1(4096)
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=15)
        assert process.returncode == 0, err
        assert time.monotonic() - started < 10
        assert "Studio stopped." in out and "Traceback" not in err
        # the open stream ended itself, nothing was killed
        assert "timeout graceful shutdown exceeded" not in err
        stream.close()
    finally:
        if process.poll() is None:
            process.kill()


def test_an_unknown_game_is_refused_before_anything_starts(tmp_path):
    toy.make_toy_project(tmp_path)
    result = run_pnp("serve", "toi", "--port", "0", project=tmp_path)
    assert result.exit_code == 1
    assert "no game 'toi' (did you mean 'toy'?); known games: toy" in result.output


def test_the_editor_links_follow_the_url_scheme_asked_for(tmp_path):
    from generator.studio.views import Links

    links = Links(tmp_path, "idea://open?file={path}&line={line}")
    assert (
        links.where("cards/x/orders.yaml", 14).editor
        == f"idea://open?file={tmp_path.resolve()}/cards/x/orders.yaml&line=14"
    )
    assert links.where("cards/x/orders.yaml", 14).shown == "cards/x/orders.yaml:14"
    assert (
        Links(tmp_path / "my games")
        .where("cards/a b.yaml", 2)
        .editor.endswith("/my%20games/cards/a%20b.yaml:2")
    )
    toy.make_toy_project(tmp_path)
    result = run_pnp(
        "serve", "--port", "0", "--editor", "idea://open?file={file}&line={ln}", project=tmp_path
    )
    assert (
        result.exit_code == 1
        and "--editor 'idea://open?file={file}&line={ln}': cannot fill in 'ln'" in result.output
    )


def test_a_card_from_a_workbook_links_to_its_cell_in_a_table_of_the_sheet(designer_project):
    """No editor opens a workbook at a cell: the card's links open the studio's table of the sheet at the
    cell."""
    import html as html_text

    from generator.studio.server import StudioServer

    server = StudioServer(designer_project, ["space-race"], port=0).start()
    try:
        wait_until_idle(server.url)
        status, page = _get(server, "/g/space-race")
        card = re.search(rb'href="(/g/space-race/card/events/[^"]+)"', page).group(1).decode()
        status, detail = _get(server, card)
        assert status == 200
        links = set(
            re.findall(
                r'href="(/src/cards/space-race/events\.xlsx[^"]*)"', html_text.unescape(detail.decode())
            )
        )
        assert links and all(
            re.fullmatch(r"/src/cards/space-race/events\.xlsx\?sheet=Events#Events![A-Z]+\d+", link)
            for link in links
        ), links
        assert "vscode://" not in "".join(re.findall(r'href="([^"]*events\.xlsx[^"]*)"', detail.decode()))
        link = sorted(links)[0]
        status, table = _get(server, link.split("#")[0])
        assert status == 200
        cell = link.split("#")[1]
        text = table.decode()
        # cells, letters, rows
        assert f'id="{cell}"' in text and "<th>B</th>" in text and 'id="Events!2"' in text
        assert "sheet <b>Events</b>" in text and "<td id=\"Events!C2\">2</td>" in text  # 2, not 2.0
        status, missing = _get(server, "/src/cards/space-race/events.xlsx?sheet=Evnts")
        assert (
            status == 200
            and "no sheet &#39;Evnts&#39;" in missing.decode()
            and "did you mean" in missing.decode()
        )
    finally:
        server.stop()


def _stream_status(server, host: str, origin: str | None = None) -> int:
    """The status of a GET of the event stream (the stream is not read further)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        connection.putrequest("GET", "/events", skip_host=True)
        connection.putheader("Host", host)
        if origin:
            connection.putheader("Origin", origin)
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_listening_on_every_address_still_answers_only_the_studios_own_host_names(tmp_path):
    """DNS rebinding: a page elsewhere points its own name at this machine; whatever the bind address, a
    request naming a host the studio does not serve is a 403, for pages, files and the event stream."""
    from generator.studio.server import StudioServer

    project = toy.make_toy_project(tmp_path)
    (tmp_path / "cards" / "toy" / "game.yaml").write_text(
        (tmp_path / "cards" / "toy" / "game.yaml").read_text().replace("engine: toy_engine\n", ""))
    (project.build_dir / "toy").mkdir(parents=True)
    (project.build_dir / "toy" / "cards-letter.pdf").write_bytes(b"%PDF-1.4 a built sheet")
    server = StudioServer(project, ["toy"], host="0.0.0.0", port=0, allow_hosts=("tablet.lan",)).start()
    try:
        port = server.port
        for path in ("/", "/g/toy", "/src/cards/toy/game.yaml", "/build/toy/cards-letter.pdf", "/status"):
            for evil in ("evil.example", f"evil.example:{port}", "localhost.evil.example",
                         "127.0.0.1.nip.io"):
                status, body = _get(server, path, host=evil)
                assert status == 403, (path, evil)
                assert b"Sum Up" not in body and b"PDF" not in body
        assert _stream_status(server, f"evil.example:{port}") == 403
        for own in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "tablet.lan",
                    f"{socket.gethostname()}:{port}"):
            assert _get(server, "/src/cards/toy/game.yaml", host=own)[0] == 200, own
        # the stream opens only for the studio's own pages
        assert _stream_status(server, f"127.0.0.1:{port}", origin="http://evil.example") == 403
        assert _stream_status(server, f"127.0.0.1:{port}", origin="null") == 403
        assert _stream_status(server, f"127.0.0.1:{port}", origin=f"http://127.0.0.1:{port}") == 200
    finally:
        server.stop()


@pytest.mark.parametrize("editor", ["javascript:alert(1)", "JavaScript:alert(document.domain)",
                                    "data:text/html,<script>alert(1)</script>", "java\tscript:alert(1)",
                                    "https://evil.example/?f={path}", "{path}:{line}"])
def test_an_editor_url_that_is_not_an_editors_is_refused_at_start(tmp_path, editor):
    toy.make_toy_project(tmp_path)
    result = run_pnp("serve", "--port", "0", "--editor", editor, project=tmp_path)
    assert result.exit_code == 1
    assert "Traceback" not in result.output and "Studio at" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines[1:] == ["1 problem found."]  # one located line, and the count every refusal ends with
    assert f"--editor '{editor}'" in lines[0] and "expected one of vscode" in lines[0]


def test_another_editors_scheme_is_allowed_by_name_but_never_a_script_scheme(tmp_path):
    from generator.studio.views import Links

    links = Links(tmp_path, "myeditor://open?{path}:{line}", ("myeditor",))
    assert links.where("cards/a.yaml", 3).editor == f"myeditor://open?{tmp_path.resolve()}/cards/a.yaml:3"
    toy.make_toy_project(tmp_path)
    result = run_pnp("serve", "--port", "0", "--editor", "javascript:alert(1)", "--editor-scheme",
                     "javascript", project=tmp_path)
    assert result.exit_code == 1 and "--editor-scheme javascript: a javascript: link runs" in result.output


def test_a_huge_text_file_in_the_game_is_refused_quickly_and_the_studio_goes_on(toy_studio):
    huge = toy_studio.project.cards_dir / "toy" / "huge.txt"
    with huge.open("wb") as stream:  # 300 MB (sparse: the disk is spared, the reader is not)
        stream.truncate(300_000_000)
    try:
        started = time.monotonic()
        status, body = _get(toy_studio, "/src/cards/toy/huge.txt")
        assert time.monotonic() - started < 5
        assert status == 422 and len(body) < 100_000
        text = body.decode()
        assert 'id="banner"' in text and "cards/toy/huge.txt" in text
        assert "larger than 1,000,000 bytes" in text
        assert _get(toy_studio, "/src/cards/toy/numbers.yaml")[0] == 200  # the next request is answered
    finally:
        huge.unlink()


def test_a_failing_request_is_its_own_500_page_with_a_banner(toy_studio):
    """An exception of one request (our bug) becomes that request's 500 page with a banner, not the end of
    the server nor a traceback."""
    import asyncio
    import threading

    from generator.studio.app import _Contained

    async def broken(scope, receive, send):  # noqa: ARG001 - the ASGI signature
        raise RuntimeError("a bug of ours")

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b""}

    scope = {"type": "http", "method": "GET", "path": "/g/x", "headers": [], "query_string": b"",
             "server": ("127.0.0.1", 1), "scheme": "http", "root_path": ""}
    # on a thread of its own: an earlier browser test may have left an event loop running on this one
    runner = threading.Thread(target=lambda: asyncio.run(_Contained(broken, toy_studio.web._failed)(
        scope, receive, send)))
    runner.start()
    runner.join(20)
    assert sent[0]["status"] == 500
    page = sent[1]["body"].decode()
    assert 'id="banner"' in page
    assert "internal error while answering /g/x: RuntimeError: a bug of ours" in page


def test_the_studio_picks_the_game_up_again_when_cards_is_replaced(tmp_path):
    """cards/ renamed away and another put in its place (a branch switch): the studio watches the new folder
    and shows the game as the new folder has it."""
    import shutil

    from generator.studio.server import StudioServer

    project = toy.make_toy_project(tmp_path / "p")
    game = project.cards_dir / "toy" / "game.yaml"
    game.write_text(game.read_text().replace("engine: toy_engine\n", ""))
    other = tmp_path / "other-branch"
    shutil.copytree(project.cards_dir, other)
    deck = other / "toy" / "numbers.yaml"
    deck.write_text(deck.read_text().replace("name: Number deck", "name: Branch deck"))
    server = StudioServer(project, ["toy"], port=0).start()
    try:
        wait_until_idle(server.url)
        assert b"Number deck" in _get(server, "/g/toy")[1]
        project.cards_dir.rename(tmp_path / "p" / "main-branch")
        other.rename(project.cards_dir)
        deadline = time.monotonic() + 60
        while b"Branch deck" not in _get(server, "/g/toy")[1]:  # a condition wait: until the page shows it
            assert time.monotonic() < deadline, "the studio did not read the replaced cards/ folder"
            time.sleep(0.1)
        wait_until_idle(server.url)
        # and the new folder is watched: a save in it shows too
        moved = project.cards_dir / "toy" / "numbers.yaml"
        moved.write_text(moved.read_text().replace("name: Branch deck", "name: Saved deck"))
        while b"Saved deck" not in _get(server, "/g/toy")[1]:
            assert time.monotonic() < deadline + 60, "a save in the new cards/ folder was not seen"
            time.sleep(0.1)
    finally:
        server.stop()
