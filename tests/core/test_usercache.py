"""The per-user cache: files' digests remembered by stamp (and read again when the stamp changes or the file
is too new to trust), a font's facts kept under its digest (used, invalidated by a changed font, a damaged
entry ignored)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core import fontfiles, usercache
from generator.core.fontfiles import inspect_font
from generator.core.fonts import font_files
from tests.fixtures.fonts import write_font

REPO = Path(__file__).resolve().parents[2]
OLD = 1_600_000_000 * 10**9  # a modification time long past: the file's stamp may be trusted


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty per-user cache of the test's own (and nothing of it remembered in this process)."""
    folder = tmp_path / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    usercache.forget()
    fontfiles._inspect.cache_clear()
    yield folder / "pnp-forge"
    usercache.forget()
    fontfiles._inspect.cache_clear()


def _aged(path: Path) -> Path:
    os.utime(path, ns=(OLD, OLD))
    return path


def _remembered(cache: Path, group: str = "files") -> dict:
    return json.loads((cache / usercache.digests_entry(group)).read_text(encoding="utf-8"))


def test_a_digest_is_remembered_by_stamp_and_taken_again_when_the_file_changes(cache, tmp_path, monkeypatch):
    file = tmp_path / "a.txt"
    file.write_bytes(b"pepperoni")
    _aged(file)
    assert usercache.file_digest(file) == hashlib.sha256(b"pepperoni").hexdigest()
    assert _remembered(cache)[str(file)][4] == hashlib.sha256(b"pepperoni").hexdigest()

    usercache.forget()  # a new run: the digest comes from the cache, the file is not read
    with monkeypatch.context() as patched:
        read = Path.read_bytes
        patched.setattr(
            Path, "read_bytes", lambda self: pytest.fail(f"{self} read again") if self == file else read(self)
        )
        assert usercache.file_digest(file) == hashlib.sha256(b"pepperoni").hexdigest()

    # same size, same modification time put back: the change time and so the stamp differ, the file is read
    # again
    file.write_bytes(b"margarita")
    _aged(file)
    usercache.forget()
    assert usercache.file_digest(file) == hashlib.sha256(b"margarita").hexdigest()


def test_a_file_changed_moments_ago_is_hashed_but_not_remembered(cache, tmp_path):
    file = tmp_path / "fresh.txt"
    file.write_bytes(b"hot")
    assert usercache.file_digest(file) == hashlib.sha256(b"hot").hexdigest()
    # a coarse clock could give the next version the same stamp
    assert not (cache / usercache.digests_entry("files")).exists()


@pytest.mark.parametrize(
    "damage", [b"{not json", b"\xff\xfe", b'{"x": [1, 2, 3, 4, "not a digest"]}', b"[1]"]
)
def test_a_damaged_digest_cache_is_ignored_and_written_again(cache, tmp_path, damage):
    file = tmp_path / "a.txt"
    file.write_bytes(b"olive")
    _aged(file)
    (cache / usercache.DIGESTS).mkdir(parents=True)
    (cache / usercache.digests_entry("files")).write_bytes(damage)
    assert usercache.file_digest(file) == hashlib.sha256(b"olive").hexdigest()
    assert list(_remembered(cache)) == [str(file)]


def test_a_wrong_remembered_digest_of_another_stamp_is_not_used(cache, tmp_path):
    file = tmp_path / "a.txt"
    file.write_bytes(b"basil")
    _aged(file)
    stat = file.stat()
    (cache / usercache.DIGESTS).mkdir(parents=True)
    # another change time
    stale = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns - 1, stat.st_ino, "0" * 64]
    (cache / usercache.digests_entry("files")).write_text(json.dumps({str(file): stale}), encoding="utf-8")
    assert usercache.file_digest(file) == hashlib.sha256(b"basil").hexdigest()


def test_each_group_of_files_is_remembered_apart_and_a_crowded_one_keeps_what_was_asked(
    cache, tmp_path, monkeypatch
):
    files = []
    for name in "abc":
        files.append(tmp_path / f"{name}.txt")
        files[-1].write_text(name, encoding="utf-8")
        _aged(files[-1])
    usercache.file_digests(files[:2], "install one")
    usercache.file_digest(files[2], "install two")
    assert sorted(_remembered(cache, "install one")) == [str(files[0]), str(files[1])]
    assert list(_remembered(cache, "install two")) == [str(files[2])]
    monkeypatch.setattr(usercache, "MAX_DIGESTS", 1)
    usercache.forget()
    files[1].write_text("B", encoding="utf-8")
    usercache.file_digest(_aged(files[1]), "install one")  # learnt: the group is written, the others left out
    assert list(_remembered(cache, "install one")) == [str(files[1])]


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    usercache.forget()
    file = tmp_path / "a.txt"
    file.write_bytes(b"")
    assert usercache.file_digest(_aged(file)) == hashlib.sha256(b"").hexdigest()
    usercache.forget()


def _entry(cache: Path, font: Path) -> Path:
    return (
        cache / "fonts" / f"{hashlib.sha256(font.read_bytes()).hexdigest()}-v{fontfiles.FACTS_VERSION}.json"
    )


def test_a_fonts_facts_are_kept_and_read_back_without_fonttools(cache, tmp_path, monkeypatch):
    font = write_font(tmp_path / "box.ttf", "ABC", family="Box Cache", cff=False, weight=700)
    first = inspect_font(font)
    assert (first.label, first.weight, first.cff, first.characters) == ("Box Cache", 700, False,
                                                                        frozenset(map(ord, " ABC")))
    assert _entry(cache, font).is_file()

    fontfiles._inspect.cache_clear()  # a new run: the facts come from the cache, fontTools is not asked
    monkeypatch.setattr(fontfiles, "_read", lambda file: pytest.fail(f"{file} read with fontTools"))
    assert inspect_font(font) == first


@pytest.mark.usefixtures("cache")
def test_a_changed_font_is_read_again(tmp_path):
    font = write_font(tmp_path / "box.ttf", "ABC", family="Box Cache", cff=False)
    assert ord("D") not in inspect_font(font).characters
    write_font(font, "ABD", family="Box Cache", cff=False)
    fontfiles._inspect.cache_clear()
    assert ord("D") in inspect_font(font).characters and ord("C") not in inspect_font(font).characters


@pytest.mark.parametrize("damage", [
    "{cut sho", '{"sha256": "x"}', "[]",
    '{"sha256": "%s", "label": "Box Cache", "weight": 400, "cff": false, "characters": [[66, 65]]}',
    '{"sha256": "%s", "label": "Box Cache", "weight": 400, "cff": false, "characters": [["A", "C"]]}',
    '{"sha256": "%s", "label": "Box Cache", "weight": "400", "cff": false, "characters": [[65, 67]]}',
    '{"sha256": "%s", "label": "Box Cache", "weight": 400, "cff": false, "characters": [[65]]}',
    '{"sha256": "%s", "label": "Box Cache", "weight": 400, "cff": false, "characters": []}',
])
def test_damaged_font_facts_are_ignored_and_written_again(cache, tmp_path, damage):
    font = write_font(tmp_path / "box.ttf", "ABC", family="Box Cache", cff=False)
    entry = _entry(cache, font)
    entry.parent.mkdir(parents=True)
    entry.write_text(damage.replace("%s", entry.name.split("-")[0]), encoding="utf-8")
    assert inspect_font(font).characters == frozenset(map(ord, " ABC"))
    assert json.loads(entry.read_text(encoding="utf-8"))["characters"] == [[32, 32], [65, 67]]


def test_a_font_problem_is_never_cached(cache, tmp_path):
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(b"not a font at all")
    for _ in range(2):
        fontfiles._inspect.cache_clear()
        with pytest.raises(fontfiles.FontFileError, match="'broken.ttf' is not a font"):
            inspect_font(broken)
    assert not (cache / "fonts").exists()


@pytest.mark.usefixtures("cache")
def test_cached_facts_of_the_built_in_faces_are_what_fonttools_reads():
    for path in dict.fromkeys(font_files().values()):
        read = fontfiles._read(path.resolve())
        inspect_font(path)  # writes the facts
        fontfiles._inspect.cache_clear()
        assert inspect_font(path) == read


def test_a_second_run_checks_characters_without_importing_fonttools(cache):
    script = ("import sys\nfrom generator.core.fonts import BODY_FAMILY, TITLE_FAMILY, uncovered\n"
              "assert uncovered('Kapitán Dvořák Дракон', TITLE_FAMILY) == []\n"
              "assert uncovered('中', BODY_FAMILY) == [('中', 'regular')]\n"
              "print('fontTools' in sys.modules)")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache.parent)}
    runs = [subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                           check=True).stdout.strip() for _ in range(2)]
    # the first run reads the fonts and keeps their facts; the second reads those
    assert runs == ["True", "False"]
