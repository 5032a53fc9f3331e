"""The game as typed objects: cards, decks, tables, boards and the game that holds them (what `load`
returns)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.fonts import BUILT_IN, FontTable
from generator.core.phrases import ENGLISH, SOURCE, Phrases
from generator.core.units import mm, to_pt
from generator.core.yamlio import YDict
from generator.data.models import BoardFile, FieldSpec, GameConfig, card_width_height_mm
from generator.data.project import Project

if TYPE_CHECKING:  # components.py builds on this module (its items are Cards)
    from generator.core.shapes import Shape
    from generator.data.components import Component
    from generator.data.translation import Translation


@dataclass
class Record:
    """One table row or card type: its id, name and declared fields, with where it was written."""

    id: str
    name: str
    fields: dict[str, Any]
    file: str
    line: int
    key_lines: dict = field(default_factory=dict, repr=False)
    sources: dict = field(default_factory=dict, repr=False)  # key -> (file, line) of a translated value

    def __getattr__(self, key: str):
        fields = self.__dict__.get("fields", {})
        if key in fields:
            return fields[key]
        raise AttributeError(key)

    def __getitem__(self, key: str):
        return self.as_dict()[key]

    def line_of(self, key: str) -> int:
        """Line of `key` in the YAML file (the record's own line when absent)."""
        return self.key_lines.get(key, self.line)

    def where(self, key: str) -> tuple[str, int]:
        """(file, line) where the value of `key` is written: the translation file for a translated value."""
        return self.sources.get(key) or (self.file, self.line_of(key))

    def as_dict(self) -> dict[str, Any]:
        """Everything a template may read about this record."""
        return {"id": self.id, "name": self.name, **self.fields}


@dataclass
class Card(Record):
    """A card type of a deck; `copies` physical cards are printed from it."""

    deck: str = ""
    index: int = 0
    code: str = ""
    copies: int = 1
    layout: str | None = None
    icon: str | None = None
    image: str | None = None
    back: str | None = None  # the card's own back layout (None: the deck's back)
    players: PlayerRange | None = None  # the player counts the card is in play for (None: every count)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "copies": self.copies, "code": self.code, "deck": self.deck,
            "layout": self.layout, "back": self.back, "icon": self.icon, "image": self.image,
            "players": self.players.label if self.players else None, **self.fields,
        }

    def in_play(self, players: int) -> bool:
        """Whether the card is in the game with `players` players."""
        return self.players is None or self.players.allows(players)


@dataclass
class Deck:
    """A deck: card types sharing one card size and (unless a card names its own) one back."""

    id: str
    name: str
    code: str
    file: str
    line: int
    size_mm: tuple[float, float]
    layout: str | None
    back: str | None
    total: int | None
    description: str
    field_specs: dict[str, FieldSpec]
    cards: list[Card]
    key_lines: dict = field(default_factory=dict, repr=False)
    field_lines: dict = field(default_factory=dict, repr=False)  # field name -> line of its declaration
    # the spreadsheet of the cards (as messages show it), None for `cards:` in the YAML
    source: str | None = None
    shape: Shape | None = None  # round, hexagonal or square cards (`size: {shape: ...}`); size_mm is its box

    @property
    def size_pt(self) -> tuple[float, float]:
        """Trim width and height of the deck's cards in points."""
        return mm(self.size_mm[0]), mm(self.size_mm[1])

    @property
    def copies(self) -> int:
        """Number of physical cards in the deck."""
        return sum(card.copies for card in self.cards)

    def card(self, card_id: str) -> Card:
        """The card type with this id."""
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def by_id(self) -> dict[str, Card]:
        """Card types keyed by id."""
        return {card.id: card for card in self.cards}


@dataclass
class Table:
    """Named rows of data that are not cards (food groups, player colours)."""

    id: str
    name: str
    file: str
    line: int
    field_specs: dict[str, FieldSpec]
    rows: list[Record]
    field_lines: dict = field(default_factory=dict, repr=False)  # field name -> line of its declaration

    def by_id(self) -> dict[str, Record]:
        """Rows keyed by id."""
        return {row.id: row for row in self.rows}


@dataclass
class Board:
    """A board or track: spaces on a grid, roads between them, streets and house numbers."""

    id: str
    file: str
    model: BoardFile
    raw: YDict = field(repr=False)
    address_format: str = "{number} {street}"  # how a house number and a street name make a printed address
    # (section, item id, key) -> (file, line) of a translation
    sources: dict = field(default_factory=dict, repr=False)

    def address(self, number: int, street: str) -> str:
        """The printed address of a house number on a street ('11 Pepperoni Parkway')."""
        return self.address_format.format(number=number, street=street)

    @property
    def spaces(self) -> dict:
        return {space.id: space for space in self.model.spaces}

    @property
    def streets(self) -> dict:
        return {street.id: street for street in self.model.streets}

    def addresses(self) -> dict[str, str]:
        """Printed address ('11 Pepperoni Parkway') -> space id, for every house number."""
        return {self.address(number, street.name): space for street in self.model.streets
                for number, space in street.houses.items()}

    def neighbours(self) -> dict[str, list[str]]:
        """The road graph: space id -> adjacent space ids (sorted, so iteration is deterministic)."""
        return self.model.road_graph()


@dataclass(frozen=True)
class PlayerRange:
    """The player counts a card is for: `players: 3+` (high None), `2-4`, or `3`."""

    low: int
    high: int | None

    @property
    def label(self) -> str:
        """'3+', '2-4' or '3', as it is written and printed."""
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    def allows(self, players: int) -> bool:
        """Whether `players` players lie in the range."""
        return self.low <= players and (self.high is None or players <= self.high)


_RANGE = re.compile(r"\s*([0-9]{1,3})\s*(\+|[-\u2013]\s*([0-9]{1,3}))?\s*")


def player_range(value: str | int) -> PlayerRange:
    """'3+' -> 3 and more, '2-4' (or '2–4') -> 2 to 4, 3 or '3' -> exactly 3; ValueError says what is
    expected."""
    match = _RANGE.fullmatch(str(value)) if not isinstance(value, bool) else None
    if match is None:
        raise ValueError(f"players is '{value}'; expected a player count such as '3+' (3 or more), '2-4' "
                         "or 3")
    low = int(match.group(1))
    high = None if match.group(2) == "+" else int(match.group(3) or low)
    if low < 1 or (high is not None and high < low):
        raise ValueError(f"players is '{value}', which no player count meets; expected a range from low to "
                         "high, such as '2-4'")
    return PlayerRange(low, high)


@dataclass
class Game:
    """Everything a game folder declares, loaded and typed."""

    id: str
    dir: Path
    project: Project
    config: GameConfig
    decks: dict[str, Deck]
    tables: dict[str, Table]
    boards: dict[str, Board]
    components: dict[str, Component] = field(default_factory=dict)  # component files, in print order
    files: dict[str, str] = field(default_factory=dict)  # shown path -> kind
    # data.overrides.Applied: the `--set` changes made to the YAML as read (files untouched)
    overrides: tuple = ()
    fonts: FontTable = field(default=BUILT_IN, repr=False)  # title, body and the fonts game.yaml declares
    warnings: list = field(default_factory=list, repr=False)  # Problems: slips that load (data.slips)
    key_lines: dict = field(default_factory=dict, repr=False)  # game.yaml key -> line
    language: str = SOURCE  # the language of this game's texts (the source language unless translated)
    phrases: Phrases = field(default=ENGLISH, repr=False)  # the tool's own words in that language
    translation: Translation | None = field(default=None, repr=False)  # i18n/<language>.yaml, when translated

    def for_players(self, players: int) -> Game:
        """The game as it is played with `players` players: every deck without the cards whose `players:`
        leaves them out (the game itself when no card says `players:`). Engines set up, deal and play from
        this, so the validator's simulations follow each card's player range."""
        if not any(card.players for deck in self.decks.values() for card in deck.cards):
            return self
        decks = {key: dataclasses.replace(deck, cards=[card for card in deck.cards if card.in_play(players)])
                 for key, deck in self.decks.items()}
        return dataclasses.replace(self, decks=decks)

    @property
    def languages(self) -> list[str]:
        """game.yaml `languages`, the source language first (English when the game names none)."""
        return list(self.config.languages) or [SOURCE]

    @property
    def source_language(self) -> str:
        """The language the game's files are written in."""
        return self.languages[0]

    @property
    def translated(self) -> bool:
        """True for a game in another language than its source."""
        return self.language != self.source_language

    def text_where(self, path: tuple, file: str, line: int) -> tuple[str, int]:
        """Where a text of the game is written: (file, line) in the translation file when it gives the text at
        `path` (see generator.data.translatable), else the given source place."""
        if self.translation is not None and tuple(path) in self.translation.values:
            return self.translation.where(tuple(path))
        return file, line

    @property
    def build_path(self) -> Path:
        """Where the game's outputs go in the build folder: <game>/, or <game>/<language>/ for a
        translation."""
        return Path(self.id) / self.language if self.translated else Path(self.id)

    @property
    def title(self) -> str:
        return self.config.title

    def papers(self, options) -> tuple[str, ...]:
        """The papers of this game's home-print sheets: its game.yaml `paper:` when the build was given no
        --paper (`options`: BuildOptions), else the build's."""
        if options.papers_from_game and self.config.paper:
            return tuple(self.config.paper)
        return tuple(options.papers)

    @property
    def bleed_pt(self) -> float:
        """The bleed around every card, in points."""
        return to_pt(self.config.bleed)

    @property
    def safe_pt(self) -> float:
        """How far text and icons keep inside the trim, in points."""
        return to_pt(self.config.safe)

    @property
    def corner_radius_pt(self) -> float:
        """The rounded corners of the cards (game.yaml `corner_radius`) in points; 0 for square corners."""
        return to_pt(self.config.corner_radius) if self.config.corner_radius is not None else 0.0

    @property
    def card_size_pt(self) -> tuple[float, float]:
        """The game's default card size (game.yaml `card_size`) in points, e.g. for card areas on a board."""
        w, h = card_width_height_mm(self.config.card_size)
        return mm(w), mm(h)

    def line_of(self, key: str) -> int:
        """Line of a top-level key of game.yaml (0 when unknown), for problems about it."""
        return self.key_lines.get(key, 0)

    def setting(self, name: str, default: Any = None) -> Any:
        """A rule parameter from game.yaml `settings`."""
        return self.config.settings.get(name, default)

    def collections(self) -> dict[str, set[str]]:
        """Every name a `ref` field may point into, with the ids it holds."""
        result: dict[str, set[str]] = {}
        for deck in self.decks.values():
            result[deck.id] = {card.id for card in deck.cards}
        for table in self.tables.values():
            result[table.id] = {row.id for row in table.rows}
        for board in self.boards.values():
            result[f"{board.id}.spaces"] = set(board.spaces)
            result[f"{board.id}.streets"] = set(board.streets)
        return result

    def addresses(self) -> dict[str, tuple[str, str]]:
        """Printed address -> (board id, space id) over every board."""
        return {
            text: (board.id, space)
            for board in self.boards.values()
            for text, space in board.addresses().items()
        }

    def show(self, path: Path) -> str:
        return self.project.show(path)
