"""Dataclasses' generated methods and typing's forward references compiled once across runs: a second `pnp` process
reads the code the first compiled, gets what compiling gives (the same behaviour, the same errors), ignores a damaged
cache and writes it from the main process only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from generator.core import codecache

REPO = Path(__file__).resolve().parents[2]

# A child process: the memo installed as `pnp` does, then dataclasses, pydantic models and a forward reference used.
CHILD = """
import json, sys, typing
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
print(json.dumps({
    "learnt": codecache._learnt, "known": len(codecache._codes or {}),
    "repr": repr(Point(1)), "equal": Point(1, 2, ["a"]) == Point(1, 2), "hash": hash(Point(1)) == hash(Point(1)),
    "model": config.width, "bad": bad, "frozen": frozen,
}))
"""


def _child(cache: Path, *extra: str) -> dict:
    import json

    env = {k: v for k, v in os.environ.items() if k != "PNP_NO_CODECACHE"} | {"XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", CHILD, *extra], cwd=REPO, env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def test_a_second_run_compiles_nothing_and_behaves_the_same(tmp_path):
    first = _child(tmp_path)
    assert first["learnt"] is True and first["known"] > 50  # the models' dataclasses and annotations
    files = list((tmp_path / "pnp-forge" / "code-v1").iterdir())
    assert [f.name for f in files] == [Path(codecache.cache_name()).name]
    second = _child(tmp_path)
    assert second["learnt"] is False and second["known"] == first["known"]
    for key in ("repr", "equal", "hash", "model", "bad", "frozen"):
        assert second[key] == first[key], key
    assert first["repr"] == "Point(x=1, y=0, tags=[])" and first["equal"] is True
    assert first["model"] == "63mm" and first["frozen"] == "FrozenInstanceError"
    assert first["bad"] and "Forward reference must be an expression" in first["bad"]


def test_a_damaged_cache_is_compiled_again(tmp_path):
    entry = tmp_path / "pnp-forge" / codecache.cache_name()
    entry.parent.mkdir(parents=True)
    entry.write_bytes(b"\x00not marshal at all")
    run = _child(tmp_path)
    assert run["learnt"] is True and run["model"] == "63mm"
    assert entry.read_bytes() != b"\x00not marshal at all"  # written again, whole
    assert _child(tmp_path)["learnt"] is False


def test_the_code_is_what_compiling_gives():
    source = "def f(a, b=2):\n    return a * b\n"
    code = codecache.compiled(source, "exec")
    assert code.co_filename == "<string>"
    assert codecache.compiled(source, "exec") is code  # once
    assert code == compile(source, "<string>", "exec")
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
