"""What the Order Up engine reads from the game folder: cards, board graph and seats."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.caching import per_game
from generator.core.graphs import distances
from generator.data.expand import expand_ids

from .actions import SPEED_TRAP, Action

BOARD_ID, PLAYERS_TABLE = "city", "players"


def board_of(game):
    """The city board: the board called `city`, else the first board that has streets."""
    if BOARD_ID in game.boards:
        return game.boards[BOARD_ID]
    return next((b for b in game.boards.values() if b.model.streets), None)


def is_game_over(card) -> bool:
    """True for the Game Over card of the orders deck."""
    return card.fields.get("kind") == "game-over"


@dataclass
class PizzaData:
    """The printed game as the engine needs it, built once per loaded game."""

    topping_deck: tuple[str, ...]  # one id per physical Toppings card, in file order
    topping_kinds: dict[str, str]  # card id -> topping | action
    order_ids: tuple[str, ...]  # one id per physical order card (Game Over excluded)
    game_over: str
    order_req: dict[str, tuple[tuple[str, int], ...]]
    order_value: dict[str, int]
    order_space: dict[str, str]
    space_order: dict[str, str]  # address space -> order id
    neighbours: dict[str, tuple[str, ...]]
    dist: dict[str, dict[str, int]]
    seats: tuple[tuple[str, str, str], ...]  # (colour id, colour name, restaurant space) in seat order
    reference_copies: int
    # Tables the engine and the bots look up on every decision instead of building them again (simulations
    # play
    # thousands of games on one PizzaData): the move actions out of each space, each order's needs as a dict,
    # the Speed Trap action aimed at each colour, the actions naming a Toppings card, and the first step of a
    # shortest way (filled as asked).
    moves: dict[str, tuple[Action, ...]] = field(default_factory=dict)
    needs: dict[str, dict[str, int]] = field(default_factory=dict)
    traps: dict[str, Action] = field(default_factory=dict)
    draws: dict[str, Action] = field(default_factory=dict)
    discards: dict[str, Action] = field(default_factory=dict)
    takes: dict[str, Action] = field(default_factory=dict)
    first_step: dict[tuple[str, str], Action | None] = field(default_factory=dict)
    payments: dict[tuple, list[Action]] = field(default_factory=dict)  # deliveries() by what pays (as asked)

    def __post_init__(self):
        self.moves = {sid: tuple(Action("move", nxt) for nxt in adj) for sid, adj in self.neighbours.items()}
        self.needs = {order: dict(req) for order, req in self.order_req.items()}
        self.traps = {
            colour: Action("play", f"{SPEED_TRAP} {colour}") for colour, _name, _space in self.seats
        }
        cards = sorted(set(self.topping_deck) | set(self.topping_kinds))
        self.draws = {card: Action("draw", card) for card in cards}
        self.discards = {card: Action("discard", card) for card in cards}
        self.takes = {card: Action("take", card) for card in cards}

    def step_towards(self, here: str, goal: str) -> Action | None:
        """The move to the first neighbour (in road order) one step nearer `goal`; None when none is."""
        key = (here, goal)
        found = self.first_step.get(key, self)
        if found is self:
            dist, best = self.dist, self.dist[here][goal] - 1
            found = next((move for nxt, move in zip(self.neighbours[here], self.moves[here], strict=True)
                          if dist[nxt][goal] == best), None)
            self.first_step[key] = found
        return found

    @classmethod
    def build(cls, game) -> PizzaData:
        """Read the game's decks, board and players table."""
        toppings, orders = game.decks["toppings"], game.decks["orders"]
        board = board_of(game)
        addresses = board.addresses()
        neighbours = {sid: tuple(adj) for sid, adj in board.neighbours().items()}
        real = [c for c in orders.cards if not is_game_over(c)]
        game_over = next(c.id for c in orders.cards if is_game_over(c))
        space = {c.id: addresses[c.address] for c in real}
        rows = game.tables[PLAYERS_TABLE].rows
        return cls(
            topping_deck=tuple(expand_ids(toppings)),
            topping_kinds={c.id: c.kind for c in toppings.cards},
            order_ids=tuple(c.id for c in real for _ in range(c.copies)),
            game_over=game_over,
            order_req={c.id: tuple(sorted(c.toppings.items())) for c in real},
            order_value={c.id: c.value for c in real},
            order_space=space,
            space_order={s: o for o, s in space.items()},
            neighbours=neighbours,
            dist={sid: distances(neighbours, sid) for sid in neighbours},
            seats=tuple((r.id, r.name, r.restaurant) for r in rows),
            reference_copies=game.decks["reference"].copies if "reference" in game.decks else 0,
        )


pizza_data = per_game(PizzaData.build)  # PizzaData for a loaded game, built once per Game object
