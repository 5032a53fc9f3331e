"""`pnp watch`: rebuilds after a save, reports broken data without exiting and keeps the last good PDFs."""

from __future__ import annotations

import threading
import time

from tests.conftest import run_pnp


def _wait_for(path, seconds=30.0):
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def _watch_while(designer, project, rebuilds: int):
    """`pnp watch demo` for up to `rebuilds` rebuilds while `designer` edits the project in a thread."""
    thread = threading.Thread(target=designer, daemon=True)
    thread.start()
    result = run_pnp("watch", "demo", "--paper", "a4", "--timeout", "40", "--max-rebuilds", str(rebuilds),
                     "--debounce", "200", project=project)
    thread.join(5)
    return result


def test_watch_rebuilds_on_save_and_survives_broken_data(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    deck = tmp_project.cards_dir / "demo" / "actions.yaml"
    cards_pdf = tmp_project.build_dir / "demo" / "cards-a4.pdf"
    good = deck.read_text()
    seen: dict = {}

    def designer() -> None:
        _wait_for(tmp_project.build_dir / ".state.json")  # the first build is done
        time.sleep(1.0)                                    # let the watcher start
        seen["first"] = cards_pdf.stat().st_mtime_ns
        deck.write_text(good.replace("copies: 4", "copies: zero"))
        time.sleep(2.0)
        seen["while_broken"] = cards_pdf.stat().st_mtime_ns if cards_pdf.exists() else None
        deck.write_text(good.replace("name: Draw Two", "name: Draw Three"))

    result = _watch_while(designer, tmp_project, rebuilds=2)
    assert result.exit_code == 0, result.output
    assert "changed: cards/demo/actions.yaml" in result.output
    assert "cards/demo/actions.yaml:" in result.output and "problem" in result.output   # the error, located
    assert seen["while_broken"] == seen["first"]                # the last good PDF stayed in place
    assert cards_pdf.stat().st_mtime_ns > seen["first"]         # rebuilt once the data was fixed
    assert "Stopped watching." in result.output
    from pypdf import PdfReader
    assert any("Draw Three" in page.extract_text() for page in PdfReader(cards_pdf).pages)


def test_watch_redraws_the_tuck_box_after_a_back_layout_edit(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    game = tmp_project.cards_dir / "demo"
    (game / "box.yaml").write_text("component: box\nkind: tuckbox\nname: Action tuck box\ndeck: actions\n"
                                   "color: \"#243b55\"\n")
    back = game / "layouts" / "actions-back.yaml"
    tuckboxes = tmp_project.build_dir / "demo" / "tuckboxes-full.pdf"
    seen: dict = {}

    def designer() -> None:
        _wait_for(tmp_project.build_dir / ".state.json")
        time.sleep(1.0)
        seen["first"] = tuckboxes.read_bytes()
        back.write_text(back.read_text().replace('fill: "#243b55"', 'fill: "#7b3fa0"'))

    result = _watch_while(designer, tmp_project, rebuilds=1)
    assert result.exit_code == 0, result.output
    assert (
        "wrote demo/tuckboxes-full.pdf"
        in result.output.split("changed: cards/demo/layouts/actions-back.yaml")[1]
    )
    assert tuckboxes.read_bytes() != seen["first"]


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
        deadline = time.monotonic() + 60
        lines = []
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            lines.append(line)
            if line.startswith("Watching"):
                break
        assert lines[-1].startswith("Watching"), lines
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=30)
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

    def wait_for(self, test, seconds: float = 60.0) -> None:
        """Until `test(events)` holds (a condition wait, no fixed sleeps); fails after `seconds`."""
        with self.condition:
            assert self.condition.wait_for(lambda: test(self.events), seconds), self.events


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
