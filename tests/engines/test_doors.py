"""The doors engines come in by: a module of the project, an installed package's entry point; each bad one a
located line; building, serving and exporting never import an engine; the first line of a run names project
code."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.project import Project
from generator.data.scaffold import new_game
from generator.engines import project_code, registry
from generator.engines.registry import engine_for
from tests.conftest import run_pnp

GOOD_ENGINE = (
    Path(__file__).resolve().parents[2] / "generator" / "assets" / "scaffold" / "engine" / "engine.py"
)


@pytest.fixture
def demo(tmp_path: Path) -> Project:
    """`pnp new demo --engine` in an empty folder."""
    project = Project(tmp_path / "designer")
    new_game(project, "demo", engine=True)
    return project


def set_engine(project: Project, line: str) -> None:
    game_yaml = project.cards_dir / "demo" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    start = text.index("engine: ")
    end = text.index("\n", start)
    game_yaml.write_text(text[:start] + line + text[end:], encoding="utf-8")


def engine_problem(project: Project) -> str:
    with pytest.raises(InputError) as caught:
        engine_for(load_game(project, "demo"))
    (problem,) = caught.value.problems
    return str(problem)


def test_a_new_game_with_an_engine_validates_at_once(demo):
    result = run_pnp("validate", "--games", "40", project=demo)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "demo: running its rules engine, the project's own Python in cards/demo/engine.py"
    assert "OK  demo: 1 of 1 scripts pass" in lines
    assert "Played 120 games" in result.output and "OK  demo: 0 failed games, 0 composition problems" in lines


def test_a_new_game_has_a_lookahead_bot(demo):
    result = run_pnp("replay", "demo", "--seed", "4", "--players", "3", "--bots", "lookahead:4,greedy,random",
                     project=demo)
    assert result.exit_code == 0, result.output
    assert "# seat 0 (lookahead:4): play " in result.output and "Scores" in result.output


def test_an_engine_package_with_relative_imports_is_found(demo):
    folder = demo.cards_dir / "demo" / "rules"
    folder.mkdir()
    source = (demo.cards_dir / "demo" / "engine.py").read_text(encoding="utf-8")
    (demo.cards_dir / "demo" / "engine.py").unlink()
    (folder / "state.py").write_text(source.replace("ENGINE = Engine(", "_UNUSED = dict("), encoding="utf-8")
    (folder / "__init__.py").write_text(textwrap.dedent("""\
        from generator.engines.base import Engine

        from .state import GameState, greedy_bot, random_bot

        ENGINE = Engine(name="demo", new_state=GameState, player_counts=(2, 3, 4),
                        bots={"greedy": greedy_bot, "random": random_bot}, options={"target": None})
        """), encoding="utf-8")
    set_engine(demo, "engine: {module: rules}")
    result = run_pnp("validate", "--games", "10", project=demo)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].endswith("the project's own Python in cards/demo/rules/")
    engine = engine_for(load_game(demo, "demo"))
    # importable by name, so it pickles to workers (a digest follows when another test's demo took the name)
    assert engine.new_state.__module__.startswith("pnp_engine_demo")
    assert engine.new_state.__module__.endswith(".state")


@pytest.mark.parametrize(
    ("write", "line", "expected"),
    [
        (
            None,
            "engine: {module: missing.py}",
            "game.yaml:12: engine module 'missing.py' does not exist in cards/demo/",
        ),
        (
            None,
            "engine: {module: ../../../outside.py}",
            "game.yaml:12: engine module '../../../outside.py' is outside the project folder",
        ),
        (
            {"notes.txt": "hello"},
            "engine: {module: notes.txt}",
            "game.yaml:12: engine module 'notes.txt' is not Python",
        ),
        (
            {"pkg/x.py": ""},
            "engine: {module: pkg}",
            "game.yaml:12: engine module 'pkg' is a folder without __init__.py",
        ),
        (
            {"bad.py": "x = 1\ndef broken(:\n"},
            "engine: {module: bad.py}",
            "cards/demo/bad.py:2: the rules engine's Python does not parse: ",
        ),
        (
            {"raises.py": "import os\n\nraise RuntimeError('no table yet')\n"},
            "engine: {module: raises.py}",
            "cards/demo/raises.py:3: the rules engine raised RuntimeError while it was imported: no table "
            "yet",
        ),
        (
            {"empty.py": "X = 1\n"},
            "engine: {module: empty.py}",
            "cards/demo/empty.py: the rules engine defines no ENGINE",
        ),
        (
            {"wrong.py": "A = 1\nENGINE = {'name': 'demo'}\n"},
            "engine: {module: wrong.py}",
            "cards/demo/wrong.py:2: ENGINE is a dict; expected a generator.engines.base.Engine",
        ),
        (None, "engine: crazy-eights", "game.yaml:12: rules engine 'crazy-eights' does not exist"),
    ],
)
def test_every_bad_engine_is_one_located_line(demo, write, line, expected):
    for name, text in (write or {}).items():
        path = demo.cards_dir / "demo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    set_engine(demo, line)
    assert expected in engine_problem(demo)
    result = run_pnp("validate", "--no-sim", project=demo)
    assert result.exit_code == 1 and expected in result.output and "Traceback" not in result.output


def test_a_symbolic_link_out_of_the_project_is_refused(demo, tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text(GOOD_ENGINE.read_text(encoding="utf-8"), encoding="utf-8")
    (demo.cards_dir / "demo" / "linked.py").symlink_to(outside)
    set_engine(demo, "engine: {module: linked.py}")
    assert "engine module 'linked.py' is outside the project folder" in engine_problem(demo)


def test_build_serve_and_export_never_import_the_engine(demo):
    marker = demo.root / "imported.txt"
    (demo.cards_dir / "demo" / "engine.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nraise SystemExit('imported!')\n", encoding="utf-8")
    result = run_pnp("build", project=demo)
    assert result.exit_code == 0, result.output
    assert (demo.build_dir / "demo" / "cards-a4.pdf").is_file()
    result = run_pnp("export", "png", project=demo)
    assert result.exit_code == 0, result.output
    for command in (["list"], ["schema"], ["i18n", "extract", "demo", "--lang", "cs"]):
        result = run_pnp(*command, project=demo)
        assert result.exit_code == 0, (command, result.output)
    shutil.rmtree(demo.cards_dir / "demo" / "i18n")  # extract's new translation is not declared in game.yaml
    from generator.studio.state import Studio
    from tests.studio.test_state import _idle

    studio = Studio(demo)
    try:
        studio.start()
        _idle(studio)
        state = studio.games["demo"]
        assert state.game is not None and state.data_problems == [] and state.faces
    finally:
        studio.stop()
    assert not marker.exists()
    result = run_pnp("validate", "--no-engine", project=demo)
    assert result.exit_code == 0, result.output
    assert "--no-engine: its rules engine was not imported" in result.output
    result = run_pnp("validate", "--no-sim", project=demo)
    assert (
        result.exit_code == 1
        and "cards/demo/engine.py:2: the rules engine raised SystemExit" in result.output
    )
    assert marker.exists()  # the check above is not vacuous: validate does import it


def _write_distribution(site: Path, name: str, module: str, source: str, engines: dict[str, str]) -> None:
    """An installed distribution as importlib.metadata finds one: its module and a dist-info with entry
    points."""
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"  # the folder's name is the normalised name
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    points = "".join(f"{key} = {value}\n" for key, value in engines.items())
    (info / "entry_points.txt").write_text(f"[pnp.engines]\n{points}", encoding="utf-8")


@pytest.fixture
def site(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "site-packages"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    return folder


def test_an_installed_package_is_found_by_its_entry_point(demo, site):
    source = GOOD_ENGINE.read_text(encoding="utf-8").replace('name="__NAME__"', 'name="demo-cards"')
    _write_distribution(
        site, "demo-cards", "demo_cards_engine", source, {"demo-cards": "demo_cards_engine:ENGINE"}
    )
    set_engine(demo, "engine: demo-cards")
    assert "demo-cards" in registry.engine_names()
    engine = engine_for(load_game(demo, "demo"))
    assert engine.name == "demo-cards" and engine.new_state.__module__ == "demo_cards_engine"
    result = run_pnp("validate", "--games", "10", project=demo)
    assert result.exit_code == 0, result.output
    assert "project's own Python" not in result.output  # an installed package is not the project's code


def test_entry_points_that_fail_or_clash_are_one_line(demo, site):
    _write_distribution(site, "broken-cards", "broken_cards", "raise ImportError('needs numpy')\n",
                        {"broken": "broken_cards:ENGINE"})
    _write_distribution(site, "twin-a", "twin_a", "ENGINE = None\n", {"twin": "twin_a:ENGINE"})
    _write_distribution(site, "twin-b", "twin_b", "ENGINE = None\n", {"twin": "twin_b:ENGINE"})
    _write_distribution(site, "not-engine", "not_engine", "ENGINE = 42\n", {"number": "not_engine:ENGINE"})
    set_engine(demo, "engine: broken")
    assert (
        "game.yaml:12: rules engine 'broken' (entry point broken_cards:ENGINE of broken-cards 1.0) fails to "
        "load: ImportError: needs numpy"
    ) in engine_problem(demo)
    set_engine(demo, "engine: twin")
    assert (
        "rules engine 'twin' is offered by two installed packages (twin-a 1.0, twin-b 1.0)"
        in engine_problem(demo)
    )
    set_engine(demo, "engine: number")
    assert "is a int; expected a generator.engines.base.Engine" in engine_problem(demo)


def test_the_engine_code_is_packed_for_workers_reproducibly(demo):
    engine = engine_for(load_game(demo, "demo"))
    known = project_code.engine_module(engine)
    assert known is not None and known.module.startswith("pnp_engine_demo")
    first, second = project_code.package_code(known), project_code.package_code(known)
    assert first == second
    import io
    import zipfile

    assert zipfile.ZipFile(io.BytesIO(first)).namelist() == [f"{known.module}.py"]


def test_a_project_engine_plays_the_same_games_on_a_local_cluster(demo):
    pytest.importorskip("distributed")
    reports = []
    for where in (["--jobs", "2"], ["--cluster", "local:2"]):
        report = demo.root / f"report-{len(reports)}.json"
        result = run_pnp("sweep", "demo", "--vary", "settings.target=8,10", "--games", "20", "--players", "2",
                         *where, "--report", str(report), project=demo)
        assert result.exit_code == 0, result.output
        reports.append(json.loads(report.read_text(encoding="utf-8")))
    assert "Dask cluster local:2" in result.output
    assert reports[0] == reports[1]
    assert [v["status"] for v in reports[0]["variants"]] == ["simulated", "simulated"]


@pytest.mark.slow  # a scheduler of its own; the local cluster is the quick case
def test_a_project_engine_plays_on_a_running_scheduler(demo, tmp_path):
    pytest.importorskip("distributed")
    from tests.validator.cluster_processes import running_scheduler

    reports = []
    with running_scheduler(tmp_path / "workers") as address:
        for where in (["--jobs", "1"], ["--cluster", address]):
            report = demo.root / f"validate-{len(reports)}.json"
            result = run_pnp("validate", "--games", "30", "--seed", "3", "--report", str(report), *where,
                             project=demo)
            assert result.exit_code == 0, result.output
            reports.append(report.read_bytes())
    assert f"Dask cluster {address}" in result.output
    assert reports[0] == reports[1]


def test_two_copies_of_a_game_keep_their_own_engine_modules(demo, tmp_path):
    """A copy of the game in another folder (a test's throw-away project, a second checkout) imports its
    engine under a name of its own: the first engine's functions still pickle by name afterwards."""
    import pickle

    first = engine_for(load_game(demo, "demo"))
    copy = Project(tmp_path / "copy")
    shutil.copytree(demo.root, copy.root)
    second = engine_for(load_game(copy, "demo"))
    assert first.new_state.__module__.startswith("pnp_engine_demo")
    assert second.new_state.__module__.startswith("pnp_engine_demo_") and second is not first
    assert second.new_state.__module__ != first.new_state.__module__
    for engine in (first, second):
        assert pickle.loads(pickle.dumps(engine)).new_state is engine.new_state
