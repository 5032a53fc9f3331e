"""A rules engine written in the project: the module game.yaml names with `engine: {module: ...}`, imported.

The module is a file (`engine.py`) or a package folder (`engine/` with `__init__.py`, whose modules import
each other relatively: `from .state import ...`), relative to the game folder and inside the project. It is
imported under the name `pnp_engine_<game>` so that its classes and functions can be pickled to worker
processes and, with its code uploaded (`package_code`), to the workers of a Dask cluster. Like pytest's
conftest.py, this is the project's own Python: running it is what `pnp validate` of the game means. Every way
it can fail to give an engine is one located line: the file missing or outside the project, not Python, a
syntax error (at its line), an exception while importing (at the engine's line that raised), no `ENGINE`, or
an `ENGINE` of the wrong type.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import re
import sys
import traceback
import zipfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from generator.core.errors import InputError, Problem
from generator.engines.base import Engine

MODULE_PREFIX = "pnp_engine_"
PACKAGE_FILES = 2000  # files of an engine package that are packed for a cluster, at the most
PACKAGE_BYTES = 20 * 1024 * 1024  # and their bytes


@dataclass(frozen=True)
class ImportedEngine:
    """An engine module imported from the project: its module name, where its code is, and its ENGINE."""

    module: str
    path: Path  # the .py file, or the package folder
    engine: Engine


_imported: dict[Path, ImportedEngine] = {}  # by the resolved path of the file or folder


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (or its type when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def module_name(game_id: str, path: Path | None = None) -> str:
    """The name the game's engine module is imported under: a Python identifier made from the game id, and,
    when an engine of another folder (a copy of the game) already has that name in this process, a digest of
    where this one is too, so that each keeps its own module and both pickle by name."""
    name = MODULE_PREFIX + re.sub(r"\W", "_", game_id)
    taken = next((known for known in _imported.values() if known.module == name), None)
    if path is None or taken is None or taken.path == path:
        return name
    return f"{name}_{hashlib.sha256(str(path).encode()).hexdigest()[:10]}"


def _where(game, file: str, line: int) -> tuple[Path, Path]:
    """The engine's path (file or package folder) and the file that is executed first; located errors
    otherwise."""
    written = game.config.engine.module
    path = game.project.inside(written, game.dir, file=file, line=line, what="engine module")
    if path.is_dir():
        init = path / "__init__.py"
        if not init.is_file():
            raise InputError(
                Problem(
                    file,
                    line,
                    f"engine module '{written}' is a folder without __init__.py; "
                    "expected a Python package (a folder with __init__.py) or a .py file",
                )
            )
        return path, init
    if not path.exists():
        raise InputError(
            Problem(
                file,
                line,
                f"engine module '{written}' does not exist in {game.show(game.dir)}/; "
                "expected a .py file or a package folder there",
            )
        )
    if path.suffix != ".py":
        raise InputError(
            Problem(
                file,
                line,
                f"engine module '{written}' is not Python; expected a .py file or a "
                "package folder with __init__.py",
            )
        )
    return path, path


def origin(game) -> str:
    """The engine's file or folder as messages show it (no import)."""
    written = game.config.engine.module
    try:
        path = game.project.inside(written, game.dir)
    except InputError:
        return written
    return game.show(path) + ("/" if path.is_dir() else "")


def _raised_at(game, exc: BaseException, root: Path) -> tuple[str, int]:
    """The innermost line of the engine's own code in the exception's traceback (file, line)."""
    found = ("", 0)
    for frame in traceback.extract_tb(exc.__traceback__):
        here = Path(frame.filename)
        if here == root or root in here.parents:
            found = (game.show(here), frame.lineno or 0)
    return found


def _execute(game, name: str, path: Path, first: Path) -> ModuleType:
    """Import the engine module under `name` (a package when `path` is a folder)."""
    locations = [str(path)] if path.is_dir() else None
    spec = importlib.util.spec_from_file_location(name, first, submodule_search_locations=locations)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has a loader
        raise InputError(Problem(game.show(first), 0, "cannot be imported; expected a Python source file"))
    module = importlib.util.module_from_spec(spec)
    stale = [key for key in sys.modules if key == name or key.startswith(name + ".")]
    for key in stale:  # an earlier import of another version of this game's engine
        del sys.modules[key]
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        del sys.modules[name]
        shown = game.show(Path(exc.filename)) if exc.filename else game.show(first)
        raise InputError(
            Problem(
                shown,
                exc.lineno or 0,
                f"the rules engine's Python does not parse: {exc.msg}; expected valid Python 3.11",
            )
        ) from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the designer's code may raise anything, exit too
        del sys.modules[name]
        file, line = _raised_at(game, exc, path if path.is_dir() else first)
        raise InputError(
            Problem(
                file or game.show(first),
                line,
                f"the rules engine raised {type(exc).__name__} while it was imported: {first_line(exc)}",
            )
        ) from None
    return module


def load_engine(game, file: str, line: int) -> Engine:
    """The ENGINE of the module game.yaml names (imported once per process); located errors otherwise."""
    path, first = _where(game, file, line)
    known = _imported.get(path)
    if known is not None:
        return known.engine
    module = _execute(game, module_name(game.id, path), path, first)
    engine = getattr(module, "ENGINE", None)
    if engine is None:
        raise InputError(
            Problem(
                game.show(first),
                0,
                "the rules engine defines no ENGINE; expected "
                "`ENGINE = Engine(...)` (generator.engines.base.Engine) at "
                "the top level of the module",
            )
        )
    if not isinstance(engine, Engine):
        raise InputError(
            Problem(
                game.show(first),
                _assigned_line(first, "ENGINE"),
                f"ENGINE is a {type(engine).__name__}; expected a generator.engines.base.Engine",
            )
        )
    _imported[path] = ImportedEngine(module.__name__, path, engine)
    return engine


def _assigned_line(source: Path, name: str) -> int:
    """The line where `name` is first assigned at the start of a line of `source` (0 when not found)."""
    pattern = re.compile(rf"^{re.escape(name)}\s*(:[^=]*)?=")
    for number, text in enumerate(source.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if pattern.match(text):
            return number
    return 0


def imported_engines() -> list[ImportedEngine]:
    """Every engine module imported from a project in this process."""
    return list(_imported.values())


def engine_module(engine: Engine) -> ImportedEngine | None:
    """The project module `engine` was imported from, or None for an engine that is not project code."""
    return next((known for known in _imported.values() if known.engine is engine), None)


def package_code(known: ImportedEngine) -> bytes:
    """The engine's code as a zip archive whose top level is the module (`pnp_engine_x.py` or
    `pnp_engine_x/`), for workers that import it from their path (Dask's upload_file); caches and hidden files
    are left out."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if known.path.is_file():
            _add(archive, known.path, f"{known.module}.py")
        else:
            files = sorted(p for p in known.path.rglob("*") if p.is_file() and not _skipped(p, known.path))
            if len(files) > PACKAGE_FILES or sum(p.stat().st_size for p in files) > PACKAGE_BYTES:
                raise InputError(
                    Problem(
                        str(known.path.name),
                        0,
                        f"the rules engine package holds more than "
                        f"{PACKAGE_FILES} files or {PACKAGE_BYTES >> 20} MB; "
                        "expected only its code",
                    )
                )
            for path in files:
                _add(archive, path, f"{known.module}/{path.relative_to(known.path).as_posix()}")
    return buffer.getvalue()


def _skipped(path: Path, root: Path) -> bool:
    parts = path.relative_to(root).parts
    return any(part == "__pycache__" or part.startswith(".") for part in parts) or path.suffix in (
        ".pyc",
        ".pyo",
    )


def _add(archive: zipfile.ZipFile, path: Path, name: str) -> None:
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # the same bytes for the same code
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, path.read_bytes())
