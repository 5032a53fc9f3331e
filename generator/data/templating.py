"""The one template language of a game: a sandboxed Jinja environment, the game as plain data, shared helpers.

Card layouts (rich text, colours, icon names) and rules booklets (Markdown) both read the same `game_view`
and the same helpers; each adds the few helpers of its own medium (inline icons, figures). Templates see data
only: dicts, lists and scalars, never objects with methods that reach files or Python internals.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from jinja2 import BaseLoader, StrictUndefined, pass_context

from generator.core.colours import contrast, tint
from generator.core.errors import did_you_mean, known_list
from generator.core.graphs import distances
from generator.core.phrases import ENGLISH, Phrases
from generator.core.words import join_and
from generator.data import filters as collection_filters
from generator.data.sandbox import BoundedSandbox


class View(dict):
    """Plain data handed to a template: keys read as attributes (`deck.cards`) before dict methods."""


class DataUndefined(StrictUndefined):
    """A missing key names what is there instead of Jinja's "'View object' has no attribute"."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        if isinstance(obj, dict) and isinstance(name, str) and not self._undefined_hint:
            keys = [str(k) for k in obj]
            return f"no field '{name}' here{did_you_mean(name, keys)}; known: {known_list(keys)}"
        return super()._undefined_message


class DataEnvironment(BoundedSandbox):
    """A bounded sandbox (generator.data.sandbox) where data keys win over dict methods, so a field named
    `items` or `values` still reads."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, View) and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def plain(value: Any) -> Any:
    """Data only: Views, lists and scalars (pydantic models are dumped, anything else becomes its text)."""
    if isinstance(value, dict):
        return View({str(k) if not isinstance(k, int) else k: plain(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if hasattr(value, "model_dump"):
        return plain(value.model_dump())
    return str(value)


def _track_starts(board) -> list[View]:
    """For a track: per player count, its start space and the moves from there to the end space (= rounds)."""
    ends = [s.id for s in board.model.spaces if s.kind == "end"]
    if not ends:
        return []
    distance = distances(board.neighbours(), ends[0])
    starts = []
    for space in board.model.spaces:
        for players in space.start_for:
            starts.append(
                View(players=players, space=space.id, label=space.label, rounds=distance.get(space.id, 0))
            )
    return sorted(starts, key=lambda s: s["players"])


def game_view(game) -> View:
    """Everything a template may read about a game, as plain data with counts computed from the YAML."""
    from generator.data.assembly import assembly_text
    from generator.data.components import component_size
    from generator.data.inventory import component_line, inventory

    config = game.config
    decks = View()
    for deck in game.decks.values():
        cards = [View(plain(card.as_dict()), index=card.index) for card in deck.cards]
        decks[deck.id] = View(
            id=deck.id, name=deck.name, code=deck.code, copies=deck.copies, card_types=len(deck.cards),
            description=deck.description, cards=cards, by_id=View({c["id"]: c for c in cards}),
            size_mm=list(deck.size_mm), layout=deck.layout, back=deck.back, total=deck.total,
        )
    tables = View()
    for table in game.tables.values():
        rows = [plain(row.as_dict()) for row in table.rows]
        tables[table.id] = View(
            id=table.id, name=table.name, rows=rows, by_id=View({r["id"]: r for r in rows})
        )
    boards = View()
    for board in game.boards.values():
        model = plain(board.model.model_dump())
        model["id"] = board.id
        model["spaces_by_id"] = View({s["id"]: s for s in model["spaces"]})
        model["streets_by_id"] = View({s["id"]: s for s in model["streets"]})
        model["starts"] = _track_starts(board)
        boards[board.id] = model
    components = View()
    for component in game.components.values():
        items = [View(plain(item.as_dict()), index=item.index) for item in component.items]
        size, size_mm = component_size(component, game.decks, game.phrases)
        line = component_line(game, component)
        boxes = [View(number=b.number, cards=b.cards, width_mm=round(b.width / 72 * 25.4, 1),
                      height_mm=round(b.height / 72 * 25.4, 1), depth_mm=round(b.depth / 72 * 25.4, 1))
                 for b in component.model.folded_boxes(game.decks)]
        components[component.id] = View(
            id=component.id, name=component.name, kind=component.kind, code=component.code, copies=line.count,
            size=size, size_mm=size_mm, description=component.model.description, detail=line.detail,
            assembly=assembly_text(game, component), items=items, by_id=View({i["id"]: i for i in items}),
            boxes=boxes, made_up=component.model.made_up)
    box = [View(name=line.name, count=line.count, detail=line.detail) for line in inventory(game)]
    return View(
        id=game.id,
        title=config.title,
        subtitle=config.subtitle,
        code=config.code,
        players=View(min=config.players.min, max=config.players.max),
        ages=config.ages,
        play_time=config.play_time,
        settings=plain(config.settings),
        extras=plain([c.model_dump() for c in config.extras]),
        decks=decks,
        tables=tables,
        boards=boards,
        components=components,
        inventory=box,
    )


# --- helpers every template may call
# --------------------------------------------------------------------------

def words(number: int) -> str:
    """'six' for 6 (numbers above twelve stay digits)."""
    return ENGLISH.words(number)


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """'1 card', '3 cards' (or the given plural form)."""
    return ENGLISH.plural(count, singular, *([plural_form] if plural_form else []))


def signed(number: int | float) -> str:
    """'+2' or '−4' (a real minus sign)."""
    return f"+{number}" if number >= 0 else f"\u2212{abs(number)}"


def money(value) -> str:
    """'$5'."""
    return ENGLISH.t("words.money", value=value)


def language_helpers(phrases: Phrases) -> dict[str, Callable]:
    """The helpers whose words depend on the language: `words`, `plural`, `join_and` and `money`."""
    return {"words": phrases.words, "plural": phrases.plural, "join_and": phrases.join_and,
            "money": lambda value: phrases.t("words.money", value=value)}


@pass_context
def _words_filter(context, number):
    """`n | words` in the language of the template's `words` helper."""
    return context.get("words", words)(number)


@pass_context
def _join_and_filter(context, items, last=None):
    """`items | join_and` (or `join_and("or")`) in the language of the template's `join_and` helper."""
    return (
        context.get("join_and", join_and)(items, last)
        if last is not None
        else context.get("join_and", join_and)(items)
    )


def last_number(text: str) -> int:
    """The number at the end of a text such as 'egg +1' (1)."""
    match = re.search(r"([+-]?\d+)\s*$", str(text))
    if not match:
        raise ValueError(f"'{text}' does not end with a number")
    return int(match.group(1))


class GameHelpers:
    """The helpers that read the game: `setting`, `street` (of a printed address), `ref` (a card or row),
    `distance` (road steps between two spaces of a board), and `in_play` and `copies_for` (a deck's cards with
    a number of players, as their `players:` says)."""

    def __init__(self, game, view: View):
        self.game, self.view = game, view
        self.addresses = game.addresses()
        self._distances: dict[tuple[str, str], dict[str, int]] = {}

    def setting(self, name: str, default=None):
        """A rule parameter from game.yaml `settings`."""
        return self.game.setting(name, default)

    def street(self, address: str) -> dict:
        """The street of a printed address: name, color, color_name, id, number, board, space."""
        if address not in self.addresses:
            raise ValueError(f"address '{address}' is not on any board")
        board_id, space = self.addresses[address]
        board = self.game.boards[board_id]
        for street in board.model.streets:
            for number, house in street.houses.items():
                if house == space and board.address(number, street.name) == address:
                    return {
                        "id": street.id,
                        "name": street.name,
                        "color": street.color,
                        "color_name": street.color_name,
                        "number": number,
                        "board": board_id,
                        "space": space,
                    }
        raise ValueError(f"address '{address}' has no street")

    def ref(self, collection: str, item: str) -> dict:
        """A card (by deck id) or table row (by table id) as data."""
        if collection in self.view["decks"]:
            return self.view["decks"][collection]["by_id"][item]
        if collection in self.view["tables"]:
            return self.view["tables"][collection]["by_id"][item]
        raise ValueError(f"no deck or table '{collection}'")

    def distance(self, board: str, start: str, end: str) -> int:
        """Road steps from space `start` to space `end` on a board (breadth-first search); -1 when
        unreachable."""
        if board not in self.game.boards:
            raise ValueError(f"no board '{board}'; known: {', '.join(self.game.boards)}")
        key = (board, start)
        if key not in self._distances:
            graph = self.game.boards[board].neighbours()
            if start not in graph:
                raise ValueError(f"no space '{start}' on board '{board}'")
            self._distances[key] = distances(graph, start)
        return self._distances[key].get(end, -1)

    def in_play(self, deck: str, players: int) -> list:
        """The cards of `deck` in the game with `players` players (a card's `players:` may leave it out)."""
        found = self.game.decks.get(deck)
        if found is None:
            known = list(self.game.decks)
            raise ValueError(f"no deck '{deck}'{did_you_mean(deck, known)}; known: {known_list(known)}")
        views = self.view["decks"][deck]["cards"]
        return [view for card, view in zip(found.cards, views, strict=True) if card.in_play(int(players))]

    def copies_for(self, deck: str, players: int) -> int:
        """How many cards of `deck` are in the game with `players` players."""
        return sum(view["copies"] for view in self.in_play(deck, players))

    def functions(self) -> dict[str, Callable[..., Any]]:
        """The game's helpers, with the language helpers of the game's language."""
        own: dict[str, Callable[..., Any]] = {"setting": self.setting, "street": self.street, "ref": self.ref,
                                              "distance": self.distance, "in_play": self.in_play,
                                              "copies_for": self.copies_for}
        return own | language_helpers(getattr(getattr(self, "game", None), "phrases", ENGLISH))


FILTERS: dict[str, Callable] = {
    "words": _words_filter,
    "join_and": _join_and_filter,
    "signed": signed,
    "dictsum": lambda d: sum(d.values()),
    "lookup": lambda ids, table: [table[i] for i in ids],
    "last_number": last_number,
}
GLOBALS: dict[str, Callable] = {
    "words": words, "plural": plural, "join_and": join_and, "signed": signed, "money": money,
    "contrast": contrast, "tint": tint,
}


def environment(
    *,
    autoescape: bool,
    loader: BaseLoader | None = None,
    keep_trailing_newline: bool = False,
    helpers: dict[str, Callable] | None = None,
    finalize: Callable | None = None,
) -> DataEnvironment:
    """A sandboxed environment with the shared helpers and filters (plus `helpers`), strict about missing
    data; `finalize` is applied to every printed value."""
    env = DataEnvironment(loader=loader, undefined=DataUndefined, autoescape=autoescape, trim_blocks=True,
                          lstrip_blocks=True, keep_trailing_newline=keep_trailing_newline, finalize=finalize)
    env.globals.update(GLOBALS)
    env.globals.update(collection_filters.GLOBALS)
    env.globals.update(helpers or {})
    env.filters.update(FILTERS)
    env.filters.update(collection_filters.FILTERS)
    return env
