"""Where a project's games, templates and outputs live (like mkdocs: the current folder or --project DIR)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.errors import InputError, Problem, did_you_mean, known_list


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

    def show(self, path: Path) -> str:
        """A path relative to the project root, as error messages print it."""
        try:
            return str(Path(path).resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(path)

    def game_ids(self) -> list[str]:
        """Every folder under cards/ (sorted); each is a game."""
        if not self.cards_dir.is_dir():
            return []
        return sorted(p.name for p in self.cards_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))

    def select(self, names: tuple[str, ...] | list[str]) -> list[str]:
        """The games named on the command line (all games when none), or an error listing those that exist."""
        known = self.game_ids()
        if not self.cards_dir.is_dir():
            raise InputError(Problem(self.show(self.cards_dir), 0, f"no cards/ folder in {self.root}; expected a project folder (or pass --project DIR)"))
        if not names:
            if not known:
                raise InputError(Problem(self.show(self.cards_dir), 0, "no games found; expected one folder per game (try `pnp new NAME`)"))
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
