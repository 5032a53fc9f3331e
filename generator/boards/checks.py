"""Checks that need the board plan: every card address has its house number drawn, every referenced space is drawn."""

from __future__ import annotations

from generator.boards.plan import HOUSE_MIN_PT, plan_board
from generator.core.errors import Problems
from generator.data.game import Game


def check_board_drawing(game: Game, problems: Problems) -> None:
    """Board and cards agree: every card address has its house number drawn, every referenced space is drawn."""
    plans = {board_id: plan_board(board.model) for board_id, board in game.boards.items()}
    for board_id, board in game.boards.items():
        plan = plans[board_id]
        smallest = min((shape.rect.w for shape in plan.spaces.values() if shape.house), default=None)
        if smallest is not None and smallest < HOUSE_MIN_PT * 2.2:
            problems.add(board.file, board.raw["grid"].line_of("cell"),
                         f"cells of {board.model.grid.cell} are too small for house numbers of {HOUSE_MIN_PT:g} pt; expected a cell of at least 8mm")
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
                    if drawn != str(value).split()[0]:
                        problems.add(card.file, card.line_of(key),
                                     f"address '{value}' has no house number drawn on board '{where}' (space '{sid}' shows {drawn or 'none'}); expected the number on that space")
                elif spec.type in ("ref", "refs", "counts") and spec.to == f"{board_id}.spaces" and board_id in plans:
                    plan = plans[board_id]
                    for sid in [value] if spec.type == "ref" else list(value):
                        shape = plan.spaces.get(sid)
                        if shape is not None and not plan.trim.contains(shape.rect):
                            problems.add(card.file, card.line_of(key),
                                         f"space '{sid}' is not drawn on board '{board_id}' (it lies outside the board); expected a space inside the grid")
