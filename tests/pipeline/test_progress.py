"""The build's progress estimate weighs each output by its pages in the last build: a long card sheet counts
for what it costs, a one-page board for little."""

from __future__ import annotations

import json
from pathlib import Path

from generator.core.contract import Output
from generator.pipeline.build import drawing_weights
from tests.conftest import run_pnp


def _output(path: str) -> Output:
    return Output(game="demo", path=Path(path), kind="x", render=lambda _tmp: {})


def test_weights_are_the_last_builds_pages_and_new_outputs_the_mean(tmp_path):
    assert run_pnp("new", "demo", project=tmp_path).exit_code == 0
    assert run_pnp("build", "--paper", "a4", project=tmp_path).exit_code == 0
    manifest = json.loads((tmp_path / "build" / "manifest.json").read_text(encoding="utf-8"))
    pages = {e["path"]: e["pages"] for e in manifest["outputs"]}
    assert len(set(pages.values())) > 1  # outputs of different lengths: a count of files would mislead
    outputs = [_output(path) for path in pages] + [_output("demo/new-thing.pdf")]
    weights = drawing_weights(outputs, tmp_path / "build")
    assert {path: weights[path] for path in pages} == {path: float(n) for path, n in pages.items()}
    assert weights["demo/new-thing.pdf"] == sum(pages.values()) / len(pages)
    assert drawing_weights([_output("a.pdf")], tmp_path / "nothing") == {"a.pdf": 1.0}  # a first build
