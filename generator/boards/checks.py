"""Checks that need the board plan: every card address has its house number drawn, every referenced space is
drawn, every character of the board's texts is in the font that draws it."""

from __future__ import annotations

from generator.boards.plan import HOUSE_MIN_PT, plan_spaces
from generator.core.errors import Problems
from generator.data.fonts import text_problems
from generator.data.game import Board, Game


def _item_line(board: Board, section: str, index: int, key: str) -> int:
    items = board.raw.get(section)
    if items is None:
        return board.raw.line
    item = items[index] if index < len(items) else None
    return item.line_of(key) if hasattr(item, "line_of") else items.line_of(index)


def check_board_characters(game: Game, problems: Problems) -> None:
    """Every text a board prints (title, names, labels, captions, notes) is checked against the font that sets
    it; a translated text is located in the translation file."""
    title, body = game.fonts["title"], game.fonts["body"]
    for board in game.boards.values():
        model, file = board.model, board.file
        both = ("regular", "bold")
        texts = [
            (
                model.title,
                title,
                ("regular",),
                board.raw.line_of("title"),
                f"board '{board.id}' title",
                ("title",),
            ),
            (model.name, body, both, board.raw.line_of("name"), f"board '{board.id}' name", ("name",)),
        ]
        for i, street in enumerate(model.streets):
            for key, styles in (("name", both), ("color_name", ("regular",))):
                texts.append((getattr(street, key), body, styles, _item_line(board, "streets", i, key),
                              f"street '{street.id}' {key}", ("streets", street.id, key)))
        for i, space in enumerate(model.spaces):
            if space.label:
                family = title if space.kind in ("track", "start", "end") else body
                texts.append(
                    (
                        space.label + space.label.upper(),
                        family,
                        both,
                        _item_line(board, "spaces", i, "label"),
                        f"space '{space.id}' label",
                        ("spaces", space.id, "label"),
                    )
                )
            if space.color_name:
                texts.append((space.color_name + space.color_name.upper(), body, both,
                              _item_line(board, "spaces", i, "color_name"), f"space '{space.id}' color_name",
                              ("spaces", space.id, "color_name")))
        for i, zone in enumerate(model.zones):
            for key, styles in (("caption", both), ("text", ("regular",))):
                texts.append((getattr(zone, key), body, styles, _item_line(board, "zones", i, key),
                              f"zone '{zone.id}' {key}", ("zones", zone.id, key)))
        notes = board.raw.get("notes")
        for i, note in enumerate(model.notes):
            line = notes.line_of(i) if hasattr(notes, "line_of") else board.raw.line
            texts.append((note, body, ("regular",), line, f"board '{board.id}' note", ("notes",)))
        for text, family, styles, line, what, key in texts:
            where = board.sources.get(key) or (file, line)
            problems.extend(text_problems(text or "", family, *where, what, styles))


def check_board_drawing(game: Game, problems: Problems) -> None:
    """Board and cards agree: every card address has its house number drawn, every referenced space is drawn;
    every character of the board's texts can be drawn."""
    check_board_characters(game, problems)
    # no text measured
    plans = {board_id: plan_spaces(board.model) for board_id, board in game.boards.items()}
    for board_id, board in game.boards.items():
        plan = plans[board_id]
        smallest = min((shape.rect.w for shape in plan.spaces.values() if shape.house), default=None)
        if smallest is not None and smallest < HOUSE_MIN_PT * 2.2:
            problems.add(
                board.file,
                board.raw["grid"].line_of("cell"),
                f"cells of {board.model.grid.cell} are too small for house numbers of {HOUSE_MIN_PT:g} pt; "
                "expected a cell of at least 8mm",
            )
    addresses = game.addresses()
    for deck in game.decks.values():
        for key, spec in deck.field_specs.items():
            board_id = (spec.to or "").removesuffix(".spaces")
            for card in deck.cards:
                value = card.fields.get(key)
                if value is None:
                    continue
                if spec.type == "address" and value in addresses:
                    where, sid = addresses[value]
                    drawn = plans[where].house_labels().get(sid)
                    board = game.boards[where]
                    numbers = {board.address(n, street.name): str(n) for street in board.model.streets
                               for n in street.houses}
                    if drawn != numbers.get(value):
                        problems.add(
                            card.file,
                            card.line_of(key),
                            f"address '{value}' has no house number drawn on board '{where}' (space '{sid}' "
                            f"shows {drawn or 'none'}); expected the number on that space",
                        )
                elif (
                    spec.type in ("ref", "refs", "counts")
                    and spec.to == f"{board_id}.spaces"
                    and board_id in plans
                ):
                    plan = plans[board_id]
                    for sid in [value] if spec.type == "ref" else list(value):
                        shape = plan.spaces.get(sid)
                        if shape is not None and not plan.trim.contains(shape.rect):
                            problems.add(
                                card.file,
                                card.line_of(key),
                                f"space '{sid}' is not drawn on board '{board_id}' (it lies outside the "
                                "board); expected a space inside the grid",
                            )
