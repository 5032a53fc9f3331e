"""Where a project's games, templates and outputs live (like mkdocs: the current folder or --project DIR)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import generator
from generator.core.errors import InputError, Problem, did_you_mean, known_list

# Files shipped with the tool (package data): the built-in icon library every project can use, the print-shop
# presets and the template of `pnp new`.
ASSETS = Path(generator.__file__).resolve().parent / "assets"
BUILTIN_ICONS = ASSETS / "icons"
PRESETS_DIR = ASSETS / "presets"
SCAFFOLD_DIR = ASSETS / "scaffold"
RULES_DIR = "rules"
NAME_MAX, PATH_MAX = 255, 4096  # what file systems accept for one name and a whole path
# What a build reads from a project: data and templates, pictures, spreadsheet decks and font files (each
# reader
# takes its own part: cards.image, data.spreadsheet, core.fontfiles). Anything else in a game's folder (notes,
# a
# spreadsheet program's lock file) is not an input: it starts no rebuild, in `pnp build` or in `pnp watch`.
SOURCE_SUFFIXES = frozenset({".yaml", ".yml", ".j2", ".md", ".svg", ".png", ".jpg", ".jpeg", ".csv", ".xlsx",
                             ".xlsm", ".xls", ".ods", ".ttf", ".otf", ".woff", ".woff2", ".ttc", ".otc"})


def is_source(name: str) -> bool:
    """Whether a file of this name is one a build reads: a source suffix, and not hidden or a program's
    leftover (LibreOffice's .~lock.x.ods#, Excel's ~$x.xlsx, .DS_Store, an editor's backup or swap file)."""
    return not name.startswith((".", "~")) and os.path.splitext(name)[1].lower() in SOURCE_SUFFIXES


@dataclass(frozen=True)
class Project:
    """A designer's project: cards/<game>/, templates/ and build/."""

    root: Path

    @property
    def cards_dir(self) -> Path:
        return self.root / "cards"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def build_dir(self) -> Path:
        return self.root / "build"

    def game_dir(self, game_id: str) -> Path:
        """cards/<game>/."""
        return self.cards_dir / game_id

    def icon_dirs(self, game_id: str) -> list[Path]:
        """Where a game's icons are looked up, first match wins: its own icons/, the project's
        templates/icons/, then the built-in library."""
        return [self.game_dir(game_id) / "icons", self.templates_dir / "icons", BUILTIN_ICONS]

    def layout_dirs(self, game_id: str) -> list[Path]:
        """Where a game's card layouts are looked up: its own layouts/, then the project's
        templates/layouts/."""
        return [self.game_dir(game_id) / "layouts", self.templates_dir / "layouts"]

    def rules_template(self, game_id: str, language: str | None = None) -> Path:
        """The game's rules booklet template: templates/rules/<game>.md.j2, or <game>.<language>.md.j2 for the
        rules in a language the game is translated into."""
        return (
            self.templates_dir
            / RULES_DIR
            / (f"{game_id}.{language}.md.j2" if language else f"{game_id}.md.j2")
        )

    def inside(self, path: str | Path, base: Path | None = None, *, file: str = "", line: int = 0,
               what: str = "file") -> Path:
        """`path` (relative to `base`, default the project root) with symlinks resolved, when it lies inside
        the project folder; otherwise a located InputError that names the path as written, never the outside
        file.

        Every file the project reads from a name a designer wrote (layouts, images, fonts, spreadsheets,
        includes) goes through here, so nothing outside the project reaches an output or a message."""
        root = self.root.resolve()
        written = str(path)
        shown = written if len(written) <= 80 else written[:77] + "..."
        if (
            "\x00" in written
            or any(len(part) > NAME_MAX for part in Path(written).parts)
            or len(written) > PATH_MAX
        ):
            raise InputError(
                Problem(
                    file,
                    line,
                    f"{what} '{shown.replace(chr(0), '?')}' is not a usable path; expected "
                    f"names of at most {NAME_MAX} characters and no NUL character",
                )
            )
        try:
            resolved = ((base or root) / path).resolve()
        except (OSError, RuntimeError, ValueError) as exc:  # a loop of symbolic links, say
            raise InputError(
                Problem(
                    file,
                    line,
                    f"{what} '{shown}' cannot be followed ({exc.__class__.__name__}); "
                    "expected a path to a file inside the project",
                )
            ) from None
        if resolved != root and root not in resolved.parents:
            raise InputError(
                Problem(
                    file,
                    line,
                    f"{what} '{path}' is outside the project folder; expected a path "
                    f"inside {root.name}/ (symbolic links are followed before checking)",
                )
            )
        return resolved

    def in_game(
        self, game_id: str, path: str | Path, *, file: str = "", line: int = 0, what: str = "file"
    ) -> Path:
        """A file a game names that incremental builds must see change (a spreadsheet, a font): `path`
        relative to the game folder, lying inside that folder or the project's templates/ (both are hashed);
        otherwise a located error."""
        game_dir = self.game_dir(game_id)
        resolved = self.inside(path, game_dir, file=file, line=line, what=what)
        if not any(resolved == root or root in resolved.parents
                   for root in (game_dir.resolve(), self.templates_dir.resolve())):
            raise InputError(
                Problem(
                    file,
                    line,
                    f"{what} '{path}' is outside the game folder; expected a path "
                    f"inside {self.show(game_dir)}/ or templates/",
                )
            )
        return resolved

    def show(self, path: Path) -> str:
        """A path relative to the project root, as error messages print it. A symbolic link is shown where it
        is, not where it points (that may be outside the project)."""
        absolute = Path(os.path.abspath(path))
        for root in (Path(os.path.abspath(self.root)), self.root.resolve()):
            try:
                return str(absolute.relative_to(root))
            except ValueError:
                pass
        try:
            return str(Path(path).resolve().relative_to(self.root.resolve()))
        except (ValueError, OSError, RuntimeError):
            return str(path)

    def game_ids(self) -> list[str]:
        """Every folder under cards/ (sorted); each is a game."""
        if not self.cards_dir.is_dir():
            return []
        return sorted(
            p.name for p in self.cards_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))
        )

    def select(self, names: tuple[str, ...] | list[str]) -> list[str]:
        """The games named on the command line (all games when none), or an error listing those that exist."""
        known = self.game_ids()
        if not self.cards_dir.is_dir():
            raise InputError(
                Problem(
                    self.show(self.cards_dir),
                    0,
                    f"no cards/ folder in {self.root}; expected a project folder: start one here with "
                    "`pnp new NAME`, or pass --project DIR",
                )
            )
        if not names:
            if not known:
                raise InputError(
                    Problem(
                        self.show(self.cards_dir),
                        0,
                        "no games found; expected one folder per game (try `pnp new NAME`)",
                    )
                )
            return known
        problems = [
            Problem("", 0, f"no game '{name}'{did_you_mean(name, known)}; known games: {known_list(known)}")
            for name in names
            if name not in known
        ]
        if problems:
            raise InputError(problems)
        return list(dict.fromkeys(names))


def find_project(start: Path | None = None) -> Project:
    """The project at `start` (default: the current directory)."""
    return Project(Path(start or Path.cwd()).resolve())
