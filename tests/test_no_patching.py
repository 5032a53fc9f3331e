"""No patched Python or libraries (docs/house rules): no module of generator/ assigns to (or deletes) an
attribute of dataclasses, typing, re or ReportLab, or of anything imported from them, and pnp leaves through
SystemExit; no module calls os._exit (the forked workers of core.forked are multiprocessing's processes, which
end without running the parent's exit handlers)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

SOURCES = sorted((REPO / "generator").rglob("*.py"))
LIBRARIES = ("dataclasses", "typing", "re", "reportlab")
# Patches no module may make (issue 28): none is left, and a new one fails below.
STILL_PATCHING: dict[str, list[str]] = {}


def _library(module: str | None) -> bool:
    return module is not None and any(module == name or module.startswith(name + ".") for name in LIBRARIES)


def _imported(tree: ast.Module) -> set[str]:
    """The names a module binds to those libraries or to anything imported from them."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {
                (alias.asname or alias.name).split(".")[0] for alias in node.names if _library(alias.name)
            }
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _library(node.module):
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def _root(node: ast.expr) -> str | None:
    """The name an attribute chain starts from (`re` of re._compiler.compile), None when it is no name."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def patches(source: str) -> list[str]:
    """Each assignment, augmented assignment, deletion or setattr/delattr of an attribute of those libraries
    in a module's source, as 'line: what'."""
    tree = ast.parse(source)
    library = _imported(tree)
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr",
                                                                                                 "delattr"):
            targets = [ast.Attribute(value=node.args[0], attr="?")] if node.args else []
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and _root(part) in library:
                    found.append(f"{node.lineno}: {ast.unparse(target)}")
                    break
    return found


def test_the_scan_finds_patches():
    source = (
        "import re\nimport dataclasses as dc\nfrom reportlab.lib import rl_accel\nfrom typing import Any\n"
        "re._compiler.compile = None\ndc.exec = exec\nrl_accel.fp_str += ''\ndel Any.x\n"
        "setattr(rl_accel, 'asciiBase85Encode', None)\nx = re.compile('a')\nx.y = 1\n"
    )
    assert patches(source) == ["5: re._compiler.compile", "6: dc.exec", "7: rl_accel.fp_str", "8: Any.x",
                               "9: rl_accel.?"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_module_patches_python_or_reportlab(path: Path):
    found = patches(path.read_text(encoding="utf-8"))
    expected = STILL_PATCHING.get(path.relative_to(REPO).as_posix(), [])
    assert [line.split(": ", 1)[1] for line in found] == expected, found


def test_no_module_leaves_through_os_exit():
    leaving = [f"{path.relative_to(REPO)}:{node.lineno}" for path in SOURCES
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.Attribute) and node.attr == "_exit"]
    assert leaving == []
