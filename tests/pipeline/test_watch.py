"""`pnp watch`: rebuilds after a save, reports broken data without exiting and keeps the last good PDFs."""

from __future__ import annotations

import threading
import time

import pytest

from tests.conftest import run_pnp
from tests.patience import PATIENCE_S


def _wait_for(path, seconds=PATIENCE_S):
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


class _WatchProcess:
    """`pnp watch demo` in its own process, its output read line by line as it comes: the test waits for what
    the watch says (watching, a problem, a rebuild), never for a fixed time."""

    def __init__(self, project, rebuilds: int):
        import subprocess
        import sys

        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", "--project", str(project.root), "watch", "demo",
             "--paper", "a4", "--max-rebuilds", str(rebuilds), "--debounce", "200"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        # a hang guard only: a watch that never says what the test waits for is killed, and the test fails
        self.guard = threading.Timer(PATIENCE_S, self.process.kill)
        self.guard.start()

    def wait_for_line(self, test) -> str:
        """The next line of output for which `test(line)` holds; fails if the watch ends first."""
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError(f"pnp watch ended without the expected line: {''.join(self.lines)}")
            self.lines.append(line)
            if test(line):
                return line

    def finish(self) -> tuple[int, str]:
        """Wait for the watch to stop by itself (after its rebuilds): its exit code and all it printed."""
        rest, _ = self.process.communicate()
        self.guard.cancel()
        self.lines.append(rest)
        return self.process.returncode, "".join(self.lines)


def test_watch_rebuilds_on_save_and_survives_broken_data(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    deck = tmp_project.cards_dir / "demo" / "actions.yaml"
    cards_pdf = tmp_project.build_dir / "demo" / "cards-a4.pdf"
    good = deck.read_text()
    watch = _WatchProcess(tmp_project, rebuilds=2)
    watch.wait_for_line(lambda line: line.startswith("Watching"))  # the first build is done, the watch is on
    first = cards_pdf.stat().st_mtime_ns
    deck.write_text(good.replace("copies: 4", "copies: zero"))
    watch.wait_for_line(lambda line: "cards/demo/actions.yaml:" in line)  # the error, located
    while_broken = cards_pdf.stat().st_mtime_ns if cards_pdf.exists() else None
    deck.write_text(good.replace("name: Draw Two", "name: Draw Three"))
    code, output = watch.finish()
    assert code == 0, output
    assert "changed: cards/demo/actions.yaml" in output
    assert "problem" in output
    assert while_broken == first                         # the last good PDF stayed in place
    assert cards_pdf.stat().st_mtime_ns > first          # rebuilt once the data was fixed
    assert "Stopped watching." in output
    from pypdf import PdfReader
    assert any("Draw Three" in page.extract_text() for page in PdfReader(cards_pdf).pages)


def test_watch_redraws_the_tuck_box_after_a_back_layout_edit(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    game = tmp_project.cards_dir / "demo"
    (game / "box.yaml").write_text("component: box\nkind: tuckbox\nname: Action tuck box\ndeck: actions\n"
                                   "color: \"#243b55\"\n")
    back = game / "layouts" / "actions-back.yaml"
    tuckboxes = tmp_project.build_dir / "demo" / "tuckboxes-full.pdf"
    watch = _WatchProcess(tmp_project, rebuilds=1)
    watch.wait_for_line(lambda line: line.startswith("Watching"))
    first = tuckboxes.read_bytes()
    back.write_text(back.read_text().replace('fill: "#243b55"', 'fill: "#7b3fa0"'))
    code, output = watch.finish()
    assert code == 0, output
    assert "wrote demo/tuckboxes-full.pdf" in output.split("changed: cards/demo/layouts/actions-back.yaml")[1]
    assert tuckboxes.read_bytes() != first


def test_editor_temporary_files_do_not_count_as_changes():
    from pathlib import Path

    from generator.pipeline.watch import is_source

    assert is_source(Path("cards/x/orders.yaml")) and is_source(Path("templates/rules/x.md.j2"))
    assert is_source(Path("templates/icons/olive.svg"))
    # read too
    for name in ("zwierzeta.xlsx", "crew.csv", "deck.ods", "fonts/Display.ttf", "fonts/Display.otf"):
        assert is_source(Path("cards/x") / name), name
    assert is_source(Path("cards/x/macros.xlsm"))  # a workbook with macros is read as a deck too
    assert not is_source(Path("cards/x/~$zwierzeta.xlsx"))  # the lock file a spreadsheet program keeps
    assert not is_source(Path("cards/x/.~lock.zwierzeta.xlsx#"))  # LibreOffice's
    for name in ("notes.txt", ".DS_Store", "Thumbs.db", "draft.docx"):  # never read by a build
        assert not is_source(Path("cards/x") / name), name
    for name in (".orders.yaml.swp", "orders.yaml~", "sedA1b2C3", ".orders.yaml.x1.tmp", "4913"):
        assert not is_source(Path("cards/x") / name), name


def test_ctrl_c_stops_the_watch_with_one_plain_line(tmp_project):
    import signal
    import subprocess
    import sys

    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "--project",
            str(tmp_project.root),
            "watch",
            "demo",
            "--paper",
            "a4",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + PATIENCE_S
        lines = []
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            lines.append(line)
            if line.startswith("Watching"):
                break
        assert lines[-1].startswith("Watching"), lines
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=PATIENCE_S)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, rest
    assert rest.strip().splitlines() == ["Stopped watching."], rest


def test_the_source_suffixes_cover_every_reader():
    """data.project lists what a build reads without importing the readers (a no-change build imports
    none)."""
    from generator.core.fontfiles import SUFFIXES as FONTS
    from generator.data.project import SOURCE_SUFFIXES
    from generator.data.spreadsheet import SUFFIXES as SHEETS
    from generator.faces.image import SUFFIXES as IMAGES

    assert set(IMAGES) | set(FONTS) | set(SHEETS) | {".yaml", ".yml", ".j2", ".md"} == SOURCE_SUFFIXES


class _Recorder:
    """A WatchReport that keeps every event and wakes a waiting test."""

    def __init__(self):
        self.events: list[tuple[str, object]] = []
        self.condition = threading.Condition()

    def _add(self, kind: str, value) -> None:
        with self.condition:
            self.events.append((kind, value))
            self.condition.notify_all()

    def wrote(self, output) -> None:
        self._add("wrote", output)

    def built(self, result, seconds) -> None:  # noqa: ARG002 - the protocol
        self._add("built", result)

    def failed(self, problems) -> None:
        self._add("failed", [str(p) for p in problems])

    def watching(self, roots) -> None:
        self._add("watching", roots)

    def changed(self, paths) -> None:
        self._add("changed", paths)

    def wait_for(self, test, seconds: float = PATIENCE_S) -> None:
        """Until `test(events)` holds (a condition wait, no fixed sleeps); fails after `seconds`."""
        with self.condition:
            assert self.condition.wait_for(lambda: test(self.events), seconds), self.events


@pytest.mark.slow  # a watch over two whole rebuilds
def test_watch_survives_the_cards_folder_being_replaced_as_a_branch_switch_does(tmp_project):
    """cards/ renamed away and another put in its place: the watch picks the game up again and rebuilds."""
    import shutil

    from pypdf import PdfReader

    from generator.core.contract import BuildOptions
    from generator.pipeline.watch import watch

    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    cards = tmp_project.cards_dir
    other = tmp_project.root / "other-branch"
    shutil.copytree(cards, other)
    deck = other / "demo" / "actions.yaml"
    deck.write_text(deck.read_text().replace("name: Draw Two", "name: Draw Branch"))
    report, stop = _Recorder(), threading.Event()
    options = BuildOptions(papers=("a4",))
    thread = threading.Thread(target=watch, args=(tmp_project, ["demo"], options, report),
                              kwargs={"stop": stop, "debounce_ms": 100}, daemon=True)
    thread.start()
    try:
        report.wait_for(lambda events: any(kind == "watching" for kind, _ in events))
        with report.condition:
            start = len(report.events)
        cards.rename(tmp_project.root / "main-branch")  # away ...
        other.rename(cards)                              # ... and another in its place
        report.wait_for(lambda events: any(kind == "built" for kind, _ in events[start:]))
        assert ("changed", ["cards/", "templates/"]) in report.events
        pdf = tmp_project.build_dir / "demo" / "cards-a4.pdf"
        assert any("Draw Branch" in page.extract_text() for page in PdfReader(pdf).pages)
        # and the new folder is watched: a save in it is built too
        built = sum(kind == "built" for kind, _ in report.events)
        deck = cards / "demo" / "actions.yaml"
        deck.write_text(deck.read_text().replace("name: Draw Branch", "name: Draw Again"))
        report.wait_for(lambda events: sum(kind == "built" for kind, _ in events) > built)
        assert any("Draw Again" in page.extract_text() for page in PdfReader(pdf).pages)
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()


def test_a_file_renamed_away_during_a_watch_build_is_a_located_line_never_an_internal_error(tmp_project):
    """Files renamed away and back while builds run (an editor's save, a checkout): every failed build says
    which file went away; none is 'internal error'. A race: it runs for a few seconds of builds."""
    import os
    import random

    from generator.core.contract import BuildOptions
    from generator.pipeline.watch import build_once

    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    game = tmp_project.cards_dir / "demo"
    targets = [game / "actions.yaml", game / "game.yaml", game / "layouts" / "actions.yaml",
               tmp_project.templates_dir / "rules" / "demo.md.j2"]
    done = threading.Event()
    chance = random.Random(7)

    def rename_away_and_back() -> None:
        while not done.is_set():
            target = chance.choice(targets)
            os.rename(target, f"{target}.away")
            time.sleep(chance.random() * 0.005)
            os.rename(f"{target}.away", target)
            time.sleep(chance.random() * 0.01)

    report = _Recorder()
    renamer = threading.Thread(target=rename_away_and_back, daemon=True)
    renamer.start()
    try:
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline:
            build_once(tmp_project, ["demo"], BuildOptions(papers=("letter",)), report)
    finally:
        done.set()
        renamer.join(5)
    failures = [line for kind, lines in report.events if kind == "failed" for line in lines]
    assert not [line for line in failures if "internal error" in line], failures
    shown = {tmp_project.show(target) for target in targets}
    for line in failures:
        if "went away" in line:
            assert line.split(":")[0] in shown, line
            assert line.endswith("the watcher builds again on the next change"), line
    assert any(kind == "built" for kind, _ in report.events)  # between the renames, builds succeed


def test_watch_takes_the_sheet_options_of_build(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    sheet = ["--paper", "a4", "--marks", "lines", "--gap", "3mm", "--duplex", "short"]
    built = tmp_project.root / "built"
    assert run_pnp("build", "demo", *sheet, "--out", str(built), project=tmp_project).exit_code == 0
    result = run_pnp("watch", "demo", *sheet, "--timeout", "60", "--max-rebuilds", "0", project=tmp_project)
    assert result.exit_code == 0, result.output
    watched = tmp_project.build_dir / "demo" / "cards-a4.pdf"
    assert watched.read_bytes() == (built / "demo" / "cards-a4.pdf").read_bytes()  # the same sheets
    assert run_pnp("watch", "demo", "--marks", "dotted", "--timeout", "5", project=tmp_project).exit_code == 2
