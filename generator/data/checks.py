"""Stage 2, check: resolve references between files and run the game's own static composition checks."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from generator.core.errors import InputError, Problem, Problems, did_you_mean, known_list
from generator.core.yamlio import YDict
from generator.data.game import Board, Game, Record
from generator.data.models import FieldSpec
from generator.data.report import CheckReport  # noqa: F401 - where callers have always found it


def _ref_problem(record: Record, key: str, value: str, what: str, known) -> Problem:
    hint = did_you_mean(value, known)
    return Problem(
        record.file, record.line_of(key), f"{what} '{value}' is not defined{hint}; known: {known_list(known)}"
    )


def check_references(game: Game, problems: Problems) -> None:
    """Every ref/refs/counts/address field points at something that exists."""
    collections = game.collections()
    addresses = game.addresses()
    sources: list[tuple[dict[str, FieldSpec], Sequence[Record], str, dict]] = [
        (deck.field_specs, deck.cards, deck.file, deck.field_lines) for deck in game.decks.values()]
    sources += [
        (table.field_specs, table.rows, table.file, table.field_lines) for table in game.tables.values()
    ]
    for specs, records, file, field_lines in sources:
        for key, spec in specs.items():
            if spec.type in ("ref", "refs", "counts") and spec.to not in collections:
                target = (
                    f"points to '{spec.to}', which does not exist{did_you_mean(str(spec.to), collections)}"
                    if spec.to
                    else "has no `to:`"
                )
                problems.add(
                    file,
                    field_lines.get(key, 0),
                    f"field '{key}' {target}; expected one of: {known_list(collections)}",
                )
                continue
            if spec.type == "choice" and not spec.choices:
                problems.add(
                    file,
                    field_lines.get(key, 0),
                    f"field '{key}' is a choice without `choices`; expected a list of allowed values",
                )
            targets = collections.get(spec.to, set()) if spec.to else set()  # known for a ref type (above)
            for record in records:
                value = record.fields.get(key)
                if value is None:
                    continue
                what = spec.help or key.replace("_", " ").rstrip("s")
                if spec.type == "ref" and value not in targets:
                    problems.items.append(_ref_problem(record, key, value, what, targets))
                elif spec.type in ("refs", "counts"):
                    for item in value:
                        if item not in targets:
                            problems.items.append(_ref_problem(record, key, item, what, targets))
                elif spec.type == "address" and value not in addresses:
                    if not addresses:
                        problems.add(
                            record.file,
                            record.line_of(key),
                            f"address '{value}' needs a board with streets and house numbers; none is "
                            "defined",
                        )
                    else:
                        problems.items.append(
                            Problem(record.file, record.line_of(key), _address_problem(value, addresses))
                        )


def _address_problem(value: str, addresses) -> str:
    """Message for an unknown address: on a known street, name that street's house numbers, nearest first."""
    number, _, street = str(value).partition(" ")
    houses = sorted(int(a.split(" ", 1)[0]) for a in addresses if a.split(" ", 1)[1] == street)
    if houses and number.isdigit():
        nearest = min(houses, key=lambda h: (abs(h - int(number)), h))
        return (f"address '{value}' is not on the board (did you mean '{nearest} {street}'?); "
                f"{street} has house numbers {', '.join(map(str, houses))}")
    return (f"address '{value}' is not on the board{did_you_mean(value, addresses)}; known: "
            f"{known_list(addresses)}")


def check_decks(game: Game, problems: Problems) -> None:
    """Card ids are unique across the game's decks; declared deck totals match the copies; card images stay
    inside the game folder."""
    first: dict[str, tuple[str, str, int]] = {}  # card id -> (deck, file, line) where it is first defined
    for deck in game.decks.values():
        for card in deck.cards:
            if card.id in first and first[card.id][0] != deck.id:
                other, file, line = first[card.id]
                problems.add(
                    card.file,
                    card.line_of("id"),
                    f"card id '{card.id}' is also a card of deck '{other}' ({file}:{line}); expected card "
                    "ids "
                    "unique in the game (rules engines and the balance report tell cards apart by id)",
                )
            first.setdefault(card.id, (deck.id, card.file, card.line_of("id")))
    for deck in game.decks.values():
        if deck.total is not None and deck.total != deck.copies:
            problems.add(
                deck.file,
                deck.key_lines.get("total", deck.line),
                f"deck '{deck.id}' has {deck.copies} cards but `total` says {deck.total}; expected the "
                f"copies to add up to {deck.total}",
            )
        for card in deck.cards:
            if card.image:
                check_image_path(game, card, problems)


def check_image_path(game: Game, card, problems: Problems) -> Path | None:
    """The card's image exists and lies inside the game folder (links resolved); returns its path."""
    root = game.dir.resolve()
    try:
        path = game.project.inside(
            card.image, game.dir, file=card.file, line=card.line_of("image"), what="image"
        )
    except InputError as exc:
        problems.extend(exc.problems)
        return None
    if root not in path.parents:
        problems.add(
            card.file,
            card.line_of("image"),
            f"image '{card.image}' is outside the game folder; expected a path inside {game.show(game.dir)}",
        )
        return None
    if not path.is_file():
        problems.add(
            card.file,
            card.line_of("image"),
            f"image '{card.image}' not found; expected a PNG, JPG or SVG file in {game.show(game.dir)}",
        )
        return None
    return path


def _board_line(board: Board, section: str, index: int, key: str | None = None) -> int:
    items = board.raw.get(section)
    if items is None:
        return board.raw.line
    line = items.line_of(index)
    item = items[index] if index < len(items) else None
    if key and isinstance(item, YDict):
        return item.line_of(key)
    return line


def check_boards(game: Game, problems: Problems) -> None:
    """Spaces lie on the board, roads and streets name real spaces, house numbers map to street spaces."""
    for board in game.boards.values():
        _check_board_spaces(board, problems)
        _check_board_zones(board, problems)
        _check_board_links(board, problems)
        _check_board_addresses(board, problems)


def _check_board_spaces(board: Board, problems: Problems) -> None:
    """Space ids are unique and every space lies on the grid."""
    grid = board.model.grid
    seen: dict[str, int] = {}
    for i, space in enumerate(board.model.spaces):
        line = _board_line(board, "spaces", i)
        if space.id in seen:
            problems.add(
                board.file,
                line,
                f"duplicate space id '{space.id}' (first at line {seen[space.id]}); expected unique ids",
            )
        seen.setdefault(space.id, line)
        col, row = space.at
        if not (0 <= col < grid.cols and 0 <= row < grid.rows):
            problems.add(
                board.file,
                _board_line(board, "spaces", i, "at"),
                f"space '{space.id}' at ({col:g}, {row:g}) is outside the {grid.cols} x {grid.rows} "
                f"board; expected 0 <= col < {grid.cols} and 0 <= row < {grid.rows}",
            )


def _check_board_zones(board: Board, problems: Problems) -> None:
    """Every zone lies within the grid."""
    grid = board.model.grid
    for i, zone in enumerate(board.model.zones):
        (col, row), (width, height) = zone.at, zone.size
        if col < 0 or row < 0 or col + width > grid.cols or row + height > grid.rows:
            problems.add(
                board.file,
                _board_line(board, "zones", i),
                f"zone '{zone.id}' ({col:g}, {row:g}, {width:g} x {height:g} cells) reaches outside the "
                f"{grid.cols} x {grid.rows} board; expected it within the grid",
            )


def _check_board_links(board: Board, problems: Problems) -> None:
    """Roads and streets name spaces of the board; house numbers are on ordinary spaces of their street."""
    spaces = board.spaces
    for i, (a, b) in enumerate(board.model.edges):
        for end in (a, b):
            if end not in spaces:
                problems.add(
                    board.file,
                    _board_line(board, "edges", i),
                    f"road end '{end}' is not a space{did_you_mean(end, spaces)}; known: "
                    f"{known_list(spaces)}",
                )
    for i, street in enumerate(board.model.streets):
        for sid in street.spaces:
            if sid not in spaces:
                problems.add(
                    board.file,
                    _board_line(board, "streets", i, "spaces"),
                    f"street '{street.name}' lists space '{sid}', which is not on the "
                    f"board{did_you_mean(sid, spaces)}; known: {known_list(spaces)}",
                )
        for number, sid in street.houses.items():
            if sid not in street.spaces:
                problems.add(
                    board.file,
                    _board_line(board, "streets", i, "houses"),
                    f"house {number} {street.name} is at '{sid}', which is not a space of that street; "
                    f"expected one of: {known_list(street.spaces)}",
                )
            elif spaces.get(sid) is not None and spaces[sid].kind in ("restaurant", "junction"):
                problems.add(
                    board.file,
                    _board_line(board, "streets", i, "houses"),
                    f"house {number} {street.name} is on a {spaces[sid].kind} ('{sid}'); expected an "
                    "ordinary road space",
                )


def _check_board_addresses(board: Board, problems: Problems) -> None:
    """No two addresses share a space."""
    owners: dict[str, str] = {}
    for street in board.model.streets:
        for number, sid in street.houses.items():
            label = f"{number} {street.name}"
            if sid in owners:
                problems.add(
                    board.file,
                    board.raw.line_of("streets"),
                    f"addresses '{owners[sid]}' and '{label}' share space '{sid}'; expected one address "
                    "per space",
                )
            owners[sid] = label


def check_data(game: Game, problems: Problems) -> list[str]:
    """The static checks of the data itself (references, deck totals, board geometry for a game with a board);
    returns the names of those that ran."""
    check_references(game, problems)
    check_decks(game, problems)
    check_boards(game, problems)
    return ["references resolve", "deck totals"] + (["board geometry"] if game.boards else [])


def report_for(game: Game, checks: list[str]) -> CheckReport:
    """What was counted in a checked game."""
    return CheckReport(
        game=game.id,
        cards=sum(d.copies for d in game.decks.values()),
        card_types=sum(len(d.cards) for d in game.decks.values()),
        decks=len(game.decks),
        checks=checks,
    )
