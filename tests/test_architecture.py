"""The package layout itself: one package per stage, layers that only look down, no import cycles."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "generator"
LAYERS = [
    "core",
    "data",
    "engines",
    "rules",
    "faces",
    "boards",
    "cards",
    "components",
    "booklet",
    "validator",
    "exports",
    "pipeline",
    "studio",
    "cli",
]  # bottom to top


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path, known: set[str]) -> set[str]:
    """Every generator module this file imports (lazy imports included, type-checking-only imports not)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                found.add(child.module)
                found.update(f"{child.module}.{alias.name}" for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {name for name in found if name in known}


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: _imports(path, set(files)) - {name} for name, path in files.items()}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_at_most_eight_modules_sit_directly_in_the_package():
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(loose) <= 8, loose
    stages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert stages == sorted(LAYERS)


def test_layers_only_import_their_own_layer_or_lower():
    upward = []
    for module, imported in _graph().items():
        here = _layer(module)
        for target in imported:
            there = _layer(target)
            if here is not None and there is not None and there > here:
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_the_import_graph_has_no_cycle():
    graph = _graph()
    # a package's __init__ is imported with each of its modules, so edges to a bare package are left out
    graph = {m: {t for t in targets if not (PACKAGE / Path(*t.split(".")[1:]) / "__init__.py").is_file()}
             for m, targets in graph.items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt, path + [nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])
    assert cycles == []


def test_the_checker_sees_real_imports():
    """A guard for the tests above: the graph holds the edges that are known to exist."""
    graph = _graph()
    assert "generator.core.errors" in graph["generator.data.load"]
    assert "generator.pipeline.build" in graph["generator.cli.build"]  # a lazy import inside a command
    assert "generator.data.game" not in graph["generator.core.contract"]  # only imported for type checking


def test_the_package_holds_no_game_rules():
    """A game's engine lives with the game (cards/<game>/engine/) and comes in by the door a designer's engine
    uses: the package keeps the engine API, the doors and the helpers engines share."""
    kept = sorted(p.name for p in (PACKAGE / "engines").iterdir() if p.name != "__pycache__")
    assert kept == ["__init__.py", "base.py", "common.py", "options.py", "project_code.py", "registry.py"]
    bundled = sorted(d.name.replace("-", "_") for d in (REPO / "cards").iterdir() if (d / "engine").is_dir())
    assert bundled == ["order_up_pizza", "order_up_trading", "short_order_hero"]
    named = [f"{p.relative_to(REPO)}: {name}" for p in PACKAGE.rglob("*.py") for name in bundled
             if name in p.read_text(encoding="utf-8")]
    assert named == []
