"""Dataclasses' generated methods, typing's forward references and regular expressions compiled once across runs:
from the third `pnp` process on, what the second compiled is read back and gives what compiling gives (the same
behaviour, the same errors); a text that changes every run is never kept, a damaged cache is ignored and only the
main process writes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from generator.core import codecache

REPO = Path(__file__).resolve().parents[2]

# A child process: the memo installed as `pnp` does, then dataclasses, pydantic models, a forward reference and
# patterns used.
CHILD = r"""
import json, random, re, sys, typing
from generator.core import codecache
codecache.install()
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: list = field(default_factory=list, compare=False)

import generator.data.models as models
config = models.CardSize(width="63mm", height="88mm")
try:
    Point(1).x = 2
    frozen = False
except Exception as exc:
    frozen = type(exc).__name__
try:
    typing.ForwardRef("1 +")
    bad = None
except SyntaxError as exc:
    bad = str(exc)
WORD = r"(?P<word>[a-zé]+)-(\d+)(?:/(?P<rest>.*))?"
word = re.compile(WORD, re.I)
found = word.match("Ab-12/xyz")
shuffled = ["alpha", "beta", "gamma", "delta"]
random.shuffle(shuffled)
every_run = re.compile("|".join(shuffled) + "|" + str(random.random()))  # a new text each run
try:
    re.compile("(unclosed")
    broken = None
except re.error as exc:
    broken = str(exc)
print(json.dumps({
    "learnt": codecache._learnt, "known": len(codecache._codes or {}),
    "word_kept": ("re", WORD, int(re.I)) in (codecache._codes or {}),
    "repr": repr(Point(1)), "equal": Point(1, 2, ["a"]) == Point(1, 2), "hash": hash(Point(1)) == hash(Point(1)),
    "model": config.width, "bad": bad, "frozen": frozen,
    "pattern": [word.pattern, word.flags, word.groups, dict(word.groupindex), found.groups(), found.span("word")],
    "every_run": bool(every_run.match("beta")), "broken": broken,
}))
"""


def _child(cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PNP_NO_CODECACHE"} | {"XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=REPO, env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def _stamp(path: Path) -> int:
    return path.stat().st_mtime_ns


def test_from_the_third_run_the_code_is_read_and_behaves_the_same(tmp_path):
    folder = tmp_path / "pnp-forge"
    first = _child(tmp_path)
    assert first["learnt"] is False and first["known"] == 0  # compiled once: noted, not kept
    second = _child(tmp_path)
    assert second["learnt"] is True and second["known"] > 50 and second["word_kept"]
    codes = folder / codecache.cache_name()
    written = _stamp(codes)
    third = _child(tmp_path)
    assert third["learnt"] is False and third["known"] == second["known"] and third["word_kept"]
    assert _stamp(codes) == written  # nothing new kept: the codes are not written again
    for run in (second, third):
        for key in ("repr", "equal", "hash", "model", "bad", "frozen", "pattern", "every_run", "broken"):
            assert run[key] == first[key], key
    assert first["repr"] == "Point(x=1, y=0, tags=[])" and first["equal"] is True and first["hash"] is True
    assert first["model"] == "63mm" and first["frozen"] == "FrozenInstanceError"
    assert first["bad"] and "Forward reference must be an expression" in first["bad"]
    assert first["pattern"] == [r"(?P<word>[a-zé]+)-(\d+)(?:/(?P<rest>.*))?", int(re.I | re.U), 3,
                                {"word": 1, "rest": 3}, ["Ab", "12", "xyz"], [0, 2]]
    assert first["every_run"] is True and "missing )" in first["broken"]
    # a text built anew every run is noted as compiled once (a digest), never kept
    seen = (folder / codecache.seen_name()).stat().st_size
    assert seen % codecache.DIGEST == 0 and seen <= codecache.MAX_SEEN * codecache.DIGEST


def test_a_damaged_cache_is_compiled_again(tmp_path):
    folder = tmp_path / "pnp-forge"
    _child(tmp_path)
    _child(tmp_path)
    entry = folder / codecache.cache_name()
    entry.write_bytes(b"\x00not marshal at all")
    (folder / codecache.seen_name()).write_bytes(b"short")
    run = _child(tmp_path)
    assert run["known"] == 0 and run["model"] == "63mm" and run["pattern"][4] == ["Ab", "12", "xyz"]
    _child(tmp_path)
    assert entry.read_bytes() != b"\x00not marshal at all"  # written again, whole
    assert _child(tmp_path)["learnt"] is False


def test_the_code_is_what_compiling_gives(monkeypatch):
    source = "def f(a, b=2):\n    return a * b\n"
    key = ("exec", source)
    digest = codecache.hashlib.sha256(repr(key).encode()).digest()[:codecache.DIGEST]
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setattr(codecache, "_seen", [digest])  # compiled in an earlier run
    monkeypatch.setattr(codecache, "_seen_set", {digest})
    monkeypatch.setattr(codecache, "_learnt", False)
    code = codecache.compiled(source, "exec")
    assert codecache._codes[key] is code and codecache._learnt
    assert codecache.compiled(source, "exec") is code  # once
    assert code == compile(source, "<string>", "exec") and code.co_filename == "<string>"
    namespace: dict = {}
    codecache._exec(source, {}, namespace)
    assert namespace["f"](3) == 6
    assert codecache._compile("1 + 2", "<string>", "eval") == compile("1 + 2", "<string>", "eval")
    # other files and flags are compiled as asked, not remembered
    assert codecache._compile("x = 1", "elsewhere.py", "exec").co_filename == "elsewhere.py"


def test_only_the_process_that_installed_it_writes(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(codecache, "_owner", os.getpid() + 1)  # as in a forked worker
    monkeypatch.setattr(codecache, "_codes", {("exec", "x = 1"): compile("x = 1", "<string>", "exec")})
    monkeypatch.setattr(codecache, "_learnt", True)
    codecache.save()
    assert not (tmp_path / "pnp-forge").exists()
    monkeypatch.setattr(codecache, "_owner", os.getpid())
    codecache.save()
    assert (tmp_path / "pnp-forge" / codecache.cache_name()).is_file()
