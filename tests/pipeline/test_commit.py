"""The manifest is committed with the outputs: an interrupted or refused commit never leaves
build/manifest.json describing other files than the PDFs on disk; temporary files of dead builds are removed;
outputs of games, decks and boards that no longer exist are listed as stale."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from generator.core import write
from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.core.write import sha256_file
from generator.data.project import Project
from generator.pipeline.build import build
from tests.conftest import run_pnp


@pytest.fixture
def two_games(tmp_path) -> Project:
    project = Project(tmp_path / "p")
    for name in ("demo", "other"):
        assert run_pnp("new", name, project=project).exit_code == 0
    assert run_pnp("build", "--paper", "a4", project=project).exit_code == 0
    return project


def manifest_matches_disk(project: Project) -> bool:
    manifest = json.loads((project.build_dir / "manifest.json").read_text())
    return all(
        sha256_file(project.build_dir / entry["path"]) == entry["sha256"] for entry in manifest["outputs"]
    )


def change_both(project: Project) -> None:
    for name in ("demo", "other"):
        deck = project.cards_dir / name / "actions.yaml"
        deck.write_text(deck.read_text().replace("name: Draw Two", "name: Draw Three"))


def test_a_build_interrupted_among_its_renames_is_finished_by_the_next(two_games: Project, monkeypatch):
    change_both(two_games)
    real_replace, calls = os.replace, []

    def interrupted(src, dst):
        calls.append(dst)
        if len(calls) == 3:  # two PDFs are in place, the rest (and the manifest) not yet
            raise KeyboardInterrupt
        return real_replace(src, dst)

    monkeypatch.setattr(write.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(two_games, ["demo", "other"], BuildOptions(papers=("a4",)))
    monkeypatch.setattr(write.os, "replace", real_replace)
    journals = list(two_games.build_dir.glob(".commit-*.json"))
    assert journals and not manifest_matches_disk(two_games)  # what a kill at this moment leaves behind
    # The journal names a living process (this one): another build must not touch it until that process is
    # gone.
    os.rename(journals[0], journals[0].with_name(".commit-999999999.json"))
    result = run_pnp("build", "--paper", "a4", project=two_games)
    assert result.exit_code == 0, result.output
    assert manifest_matches_disk(two_games)
    assert not list(two_games.build_dir.glob(".commit-*")) and not list(two_games.build_dir.rglob("*.tmp"))
    from pypdf import PdfReader

    assert any(
        "Draw Three" in page.extract_text()
        for page in PdfReader(two_games.build_dir / "other" / "cards-a4.pdf").pages
    )


def test_a_manifest_that_cannot_be_written_replaces_no_pdf(two_games: Project, monkeypatch):
    """build/ refuses new files while build/<game>/ accepts them: no PDF is renamed, the problem names the
    folder."""
    before = {p: p.read_bytes() for p in two_games.build_dir.rglob("*.pdf")}
    change_both(two_games)
    real_mkstemp = write.tempfile.mkstemp

    def read_only_build_dir(prefix="", suffix="", dir=None):  # noqa: A002 - mkstemp's name
        if dir is not None and os.path.samefile(dir, two_games.build_dir):
            raise PermissionError(13, "Permission denied")
        return real_mkstemp(prefix=prefix, suffix=suffix, dir=dir)

    monkeypatch.setattr(write.tempfile, "mkstemp", read_only_build_dir)
    with pytest.raises(InputError) as info:
        build(two_games, ["demo", "other"], BuildOptions(papers=("a4",)))
    assert "manifest.json: Permission denied; expected a folder that can be created and written" in str(
        info.value
    )
    assert {p: p.read_bytes() for p in two_games.build_dir.rglob("*.pdf")} == before
    assert not list(two_games.build_dir.rglob("*.tmp")) and manifest_matches_disk(two_games)


def _dead_pid() -> int:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    return int(child.stdout)


def test_temporary_files_of_dead_builds_are_removed_and_running_ones_kept(two_games: Project):
    folder = two_games.build_dir / "demo"
    dead = folder / f".cards-a4.pdf.{_dead_pid()}.x1y2z3.tmp"
    running = folder / f".cards-a4.pdf.{os.getppid()}.a1b2c3.tmp"  # the process that started these tests runs
    for path in (dead, running):
        path.write_bytes(b"half a PDF")
    assert run_pnp("build", "--paper", "a4", project=two_games).exit_code == 0
    assert not dead.exists() and running.exists()


def test_outputs_of_vanished_games_decks_and_boards_are_listed_as_stale(two_games: Project):
    # exported before the deck was removed
    (two_games.build_dir / "demo" / "png" / "old-deck").mkdir(parents=True)
    # built before the board was removed
    (two_games.build_dir / "demo" / "board-full.pdf").write_bytes(b"%PDF")
    change_both(two_games)  # a game is searched for stale outputs when it is built (a change of its data)
    shutil.rmtree(two_games.cards_dir / "other")
    result = run_pnp("build", "--paper", "a4", project=two_games)
    assert result.exit_code == 0, result.output
    stale = json.loads((two_games.build_dir / "manifest.json").read_text())["stale"]
    assert stale == [
        {"path": "demo/board-full.pdf", "why": "demo has no board any more"},
        {"path": "demo/png/old-deck/", "why": "deck or component 'old-deck' no longer exists in demo"},
        {"path": "other/", "why": "game 'other' no longer exists"},
    ]
    assert (
        "stale: build/other/ (game 'other' no longer exists; delete it if you no longer need it)"
        in result.output
    )
    manifest = json.loads((two_games.build_dir / "manifest.json").read_text())
    assert {o["game"] for o in manifest["outputs"]} == {"demo"}  # the vanished game's entries are gone

    again = run_pnp("build", "--paper", "a4", project=two_games)  # nothing changed: the list stays
    assert json.loads((two_games.build_dir / "manifest.json").read_text())["stale"] == stale
    assert "0 files written" in again.output


def test_setuptools_and_docs_folders_in_build_are_not_stale_games(two_games: Project):
    # what `pip install .` of a checkout and `make docs` leave in build/
    package = two_games.build_dir / "lib" / "generator"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (two_games.build_dir / "bdist.linux-x86_64" / "wheel").mkdir(parents=True)
    (two_games.build_dir / "site" / "search").mkdir(parents=True)
    (two_games.build_dir / "site" / "search" / "search_index.json").write_text("{}", encoding="utf-8")
    shutil.rmtree(two_games.cards_dir / "other")
    result = run_pnp("build", "--paper", "a4", project=two_games)
    assert result.exit_code == 0, result.output
    stale = json.loads((two_games.build_dir / "manifest.json").read_text())["stale"]
    assert [entry["path"] for entry in stale] == ["other/"]  # built before: it holds PDFs


def test_a_writers_digest_stands_for_the_file_it_wrote_only(tmp_path):
    import hashlib

    from generator.core.write import sha256_of, written_record

    path = tmp_path / "sheet.pdf"
    path.write_bytes(b"%PDF as drawn")
    said = written_record(path, "0" * 64)  # what a writer says it wrote (a made-up digest, to see it used)
    assert sha256_of(path, said) == "0" * 64
    assert sha256_of(path) == hashlib.sha256(b"%PDF as drawn").hexdigest()
    # a later stage (the colour stage) writes the output again: another file, so it is read and hashed
    other = tmp_path / "other.pdf"
    other.write_bytes(b"%PDF in press CMYK, longer")
    os.replace(other, path)
    assert sha256_of(path, said) == hashlib.sha256(b"%PDF in press CMYK, longer").hexdigest()
    assert sha256_of(path, {"sha256": 5}) == sha256_of(path, None)  # a record not as written: not used


def test_open_to_write_writes_a_file_from_its_start_whatever_was_there(tmp_path):
    from generator.core.write import open_to_write

    made = tmp_path / "new.pdf"  # not there yet
    with open_to_write(made) as file:
        file.write(b"drawn")
    longer = tmp_path / "longer.pdf"  # longer than what replaces it: nothing of it is left
    longer.write_bytes(b"an old and much longer sheet")
    with open_to_write(longer) as file:
        file.write(b"drawn")
    empty = tmp_path / "empty.pdf"  # as the build makes it (mkstemp)
    empty.touch()
    with open_to_write(empty) as file:
        file.write(b"drawn")
    assert [p.read_bytes() for p in (made, longer, empty)] == [b"drawn"] * 3
