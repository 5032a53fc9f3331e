"""Which files the studio may send: sources under cards/ and templates/, outputs under the build folder; no
other.

A URL path is refused (the caller answers 404) when it has a '..' segment, a backslash or a NUL, is absolute,
or resolves (symbolic links followed, through `Project.inside`) to anything but a file inside an allowed
folder.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from generator.core.errors import InputError
from generator.data.project import Project
from generator.data.spreadsheet import WORKBOOKS

SOURCE_SUFFIXES = (".yaml", ".yml", ".j2", ".md", ".svg", ".txt", ".csv")
WORKBOOK_SUFFIXES = WORKBOOKS  # shown as a table of one sheet, not as text


def _clean(path: str) -> PurePosixPath | None:
    if not path or "\\" in path or "\x00" in path or path.startswith("/"):
        return None
    pure = PurePosixPath(path)
    if any(part in ("..", ".") for part in pure.parts) or any(":" in part for part in pure.parts[:1]):
        return None
    return pure


def allowed_file(project: Project, path: str, folders: list[Path]) -> Path | None:
    """The file `path` (relative to the project root) when it lies inside one of `folders`, else None."""
    pure = _clean(path)
    if pure is None:
        return None
    try:
        resolved = project.inside(Path(*pure.parts))
    except (InputError, OSError, ValueError, RuntimeError):
        return None
    for folder in folders:
        try:
            base = folder.resolve()
        except OSError:
            continue
        if resolved.is_relative_to(base) and resolved != base and resolved.is_file():
            return resolved
    return None


def source_file(project: Project, path: str) -> Path | None:
    """A designer's source file (cards/..., templates/...) that the studio shows (as text, a workbook as a
    table), or None."""
    found = allowed_file(project, path, [project.cards_dir, project.templates_dir])
    return (
        found if found is not None and found.suffix.lower() in SOURCE_SUFFIXES + WORKBOOK_SUFFIXES else None
    )


def build_file(project: Project, path: str, build_dir: Path | None = None) -> Path | None:
    """An output under the build folder (path relative to it), or None."""
    build = (build_dir or project.build_dir).resolve()
    pure = _clean(path)
    if pure is None:
        return None
    try:
        relative = build.relative_to(project.root.resolve())
    except ValueError:  # a build folder outside the project: check against it directly
        target = (build / Path(*pure.parts)).resolve()
        return target if target.is_relative_to(build) and target.is_file() else None
    return allowed_file(project, str(PurePosixPath(*relative.parts, *pure.parts)), [build])
