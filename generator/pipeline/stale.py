"""Outputs in build/ that belong to nothing any more: a game folder that was deleted or renamed, a deck, a
board, a component or a rules template that no longer exists. They are listed (in build/manifest.json and by
`pnp build`), never deleted: a designer may still want the last print of a game they removed.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.data.game import Game
from generator.data.project import Project

NOT_GAMES = {"schema", "site"}  # build/ folders that are not a game's outputs (site: `make docs`)
OUTPUT_SUFFIXES = {".pdf", ".json", ".png", ".csv", ".svg", ".zip"}  # what pnp writes into build/<game>/
# board-<id>-<full or a paper: a named one or a custom size such as 300x450mm>.pdf
_BOARD = re.compile(r"^board(?:-(?P<id>.+))?-"
                    r"(?P<kind>full|letter|a4|legal|tabloid|a3|[\d.]+x[\d.]+(?:mm|cm|in))\.pdf$")
_TTS = re.compile(r"^(?P<deck>.+?)(?:-sheet-\d+|-back)?\.(?:png|json)$")


def stale_outputs(project: Project, build_dir: Path, games: list[Game]) -> list[dict]:
    """Every output below `build_dir` made from a game, deck, board or rules template that no longer exists,
    as {"path", "why"} (paths relative to build_dir), sorted by path."""
    build_dir = Path(build_dir)
    if not build_dir.is_dir():
        return []
    known = set(project.game_ids())
    found: list[dict] = []
    for folder in sorted(p for p in build_dir.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if folder.name not in known and folder.name not in NOT_GAMES and _holds_outputs(folder):
            found.append({"path": f"{folder.name}/", "why": f"game '{folder.name}' no longer exists"})
    for game in games:
        found += _stale_in_game(game, build_dir / game.id)
    return sorted(found, key=lambda entry: entry["path"])


def _holds_outputs(folder: Path) -> bool:
    """True when a folder of build/ holds what pnp writes for a game (setuptools' build/lib and
    build/bdist.* of a `pip install .`, with Python files two folders down, do not)."""
    near = [*folder.glob("*"), *folder.glob("*/*")]
    return any(p.suffix.lower() in OUTPUT_SUFFIXES and p.is_file() for p in near)


def _entry(folder: Path, path: Path, why: str) -> dict:
    return {"path": path.relative_to(folder.parent).as_posix() + ("/" if path.is_dir() else ""), "why": why}


def _stale_in_game(game: Game, folder: Path) -> list[dict]:
    """Outputs in build/<game>/ of decks, boards or rules the game no longer has."""
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.pdf")):
        why = _why_pdf_stale(game, path.name)
        if why is not None:
            found.append(_entry(folder, path, why))
    return found + _stale_deck_files(game, folder)


def _why_pdf_stale(game: Game, name: str) -> str | None:
    """Why a PDF of build/<game>/ is of something the game no longer has (None: it still has it)."""
    board = _BOARD.match(name)
    if board:
        return _why_board_stale(game, board["id"])
    if name.startswith("rules") and not game.project.rules_template(game.id).is_file():
        return f"{game.id} has no rules template any more"
    if name.startswith("components-") and not game.components:
        return f"{game.id} has no components any more"
    if name == "tuckboxes-full.pdf" and not any(c.model.full_size_pages for c in game.components.values()):
        return f"{game.id} has no tuck boxes any more"
    return None


def _why_board_stale(game: Game, name: str | None) -> str | None:
    """Why a board PDF (`name`: the board id in its file name, None for board-*.pdf) is stale, if it is."""
    single_board = len(game.boards) == 1
    if not game.boards:
        return f"{game.id} has no board any more"
    if name is None and not single_board:
        return f"{game.id} has several boards now, printed as board-<id>-*.pdf"
    if name is not None and (single_board or name not in game.boards):
        return f"board '{name}' is not printed under this name any more"
    return None


def _stale_deck_files(game: Game, folder: Path) -> list[dict]:
    """The exports (png/, preview/, pod/, tts/) of decks and components the game no longer has."""
    decks = set(game.decks)
    pictured = decks | set(game.components)  # png/ holds a folder per deck and per component
    found = []
    for path in sorted((folder / "png").glob("*")):
        if path.is_dir() and path.name not in pictured:
            found.append(
                _entry(folder, path, f"deck or component '{path.name}' no longer exists in {game.id}")
            )
    for path in sorted((folder / "preview").glob("*.png")):
        if path.stem not in decks:
            found.append(_entry(folder, path, f"deck '{path.stem}' no longer exists in {game.id}"))
    for path in sorted((folder / "pod").glob("*/*")):
        deck = path.name.removesuffix(".pdf")
        if deck not in decks:
            found.append(_entry(folder, path, f"deck '{deck}' no longer exists in {game.id}"))
    for path in sorted((folder / "tts").glob("*")):
        match = _TTS.match(path.name)
        if match and match["deck"] not in decks and match["deck"] != game.id:
            found.append(_entry(folder, path, f"deck '{match['deck']}' no longer exists in {game.id}"))
    return found
