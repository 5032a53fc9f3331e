"""Sheet options of one game's card sheets: the `pnp build` flags over the game's `print:` block, the cards a
`--only` reprint selects, and the groups of decks that share sheets (one per deck, or packed by card size).

Pure data, no drawing: the sheet writer, the cut files and the print check read a resolved `SheetOptions`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace

from generator.cards.cut_machines import CUT_MACHINE_NAMES, CUT_MACHINES, CutMachine
from generator.cards.marks import MARK_MODES
from generator.core.contract import BuildOptions
from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.core.phrases import ENGLISH, Phrases
from generator.core.units import UnitError, flag_length, mm, to_pt
from generator.data.expand import expand_deck
from generator.data.game import Card, Deck, Game

INK_MODES = ("normal", "saver")
CUT_FILES = ("svg", "none")
COLOURS = ("rgb", "cmyk")  # cmyk: the sheets through the colour stage (cards.colour)
MAX_GAP = mm(50)


@dataclass(frozen=True)
class SheetOptions:
    """How one game's card sheets are made, every choice resolved (lengths in points)."""

    layout: str = "duplex"
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, as the designer gives it
    gap: float = 0.0
    marks: str = "crop"
    pack: bool = False
    ink: str = "normal"
    cut_file: str = "none"
    only: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (deck id, card ids; empty = the whole deck)
    cut_machine: str = "none"
    colour: str = "rgb"

    @property
    def machine(self) -> CutMachine | None:
        """The print-and-cut machine the sheets are laid out for (None: a plain home-print sheet)."""
        return CUT_MACHINES.get(self.cut_machine)

    @property
    def cut_files(self) -> bool:
        """Whether a cut file goes beside each page of fronts (asked for, or a print-and-cut machine)."""
        return self.cut_file == "svg" or self.machine is not None

    # `--changed` (generator.cards.reprint): the reprint of what changed since the cards were marked printed,
    # per deck the cards and how many copies of each (`only` then names the same cards)
    changed: bool = False
    copies: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()

    @property
    def suffix(self) -> str:
        """What the output names add after `cards-<paper>`, so no variant overwrites the full sheets."""
        text = "-inksaver" if self.ink == "saver" else ""
        text += f"-{self.cut_machine}" if self.machine is not None else ""
        text += "-cmyk" if self.colour == "cmyk" else ""
        if self.changed:
            return text + "-changed"
        if self.only:
            words = "-".join(deck + ("-" + "-".join(cards) if cards else "") for deck, cards in self.only)
            if len(words) > 60:  # a long selection: the first deck and a short, stable hash of the rest
                words = self.only[0][0] + "-" + hashlib.sha256(words.encode()).hexdigest()[:8]
            text += "-only-" + words
        return text

    def describe(self, phrases: Phrases = ENGLISH) -> str:
        """One sentence for the print check: how the cards are arranged, marked and inked."""
        say = phrases.t
        spacing = (
            say("check.spacing_gap", gap=f"{self.gap / mm(1):g}") if self.gap else say("check.spacing_butted")
        )
        marks = say("check.marks_machine") if self.machine is not None else say(f"check.marks_{self.marks}")
        parts = [say("check.cards_stand", spacing=spacing, marks=marks)]
        if self.pack:
            parts.append(say("check.packed"))
        if self.ink == "saver":
            parts.append(say("check.ink_saver"))
        if self.only:
            parts.append(say("check.reprint", what="; ".join(deck + (": " + ", ".join(cards) if cards else "")
                                                            for deck, cards in self.only)))
        if self.machine is not None:
            parts.append(say("check.cut_machine", machine=self.machine.label))
        elif self.cut_file == "svg":
            parts.append(say("check.cut_file"))
        if self.colour == "cmyk":
            parts.append(say("check.colour_cmyk"))
        return " ".join(parts)


def _flag_gap(value: str) -> float:
    try:
        gap = flag_length(value, "--gap")
    except UnitError as exc:
        raise InputError(Problem("", 0, str(exc))) from None
    if not 0 <= gap <= MAX_GAP:
        raise InputError(Problem("", 0, f"--gap {value}: out of range; expected 0 to {MAX_GAP / mm(1):g} mm"))
    return gap


def _choice(flag: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InputError(Problem("", 0, f"{flag} {value}: unknown; expected one of: {', '.join(allowed)}"))
    return value


def sheet_options(game: Game, options: BuildOptions) -> SheetOptions:
    """The flags where given, else the game's `print:` block, else the defaults; --only checked against the
    game."""
    block = game.config.print
    chosen = SheetOptions(
        layout=options.layout,
        duplex=options.duplex,
        back_offset=tuple(options.back_offset),
        gap=_flag_gap(options.gap) if options.gap is not None else to_pt(block.gap),
        marks=_choice("--marks", options.marks, MARK_MODES) if options.marks is not None else block.marks,
        pack=options.pack if options.pack is not None else block.pack,
        ink=_choice("--ink", options.ink, INK_MODES) if options.ink is not None else block.ink,
        cut_file=_choice("--cut-file", options.cut_file, CUT_FILES)
        if options.cut_file is not None
        else block.cut_file,
        only=select(game, options.only),
        cut_machine=_choice("--cut-machine", options.cut_machine, CUT_MACHINE_NAMES)
        if options.cut_machine is not None
        else block.cut_machine,
        colour=_choice("--colour", options.colour, COLOURS) if options.colour is not None else block.colour,
    )
    if chosen.machine is not None and chosen.layout != "duplex":
        flags = f"--cut-machine {chosen.cut_machine} with --layout {chosen.layout}"
        raise InputError(Problem("", 0, f"{flags}: a print-and-cut sheet is laid out as duplex pages; "
                                        "expected --layout duplex"))
    return chosen


def with_changes(sheet: SheetOptions, copies: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
                 ) -> SheetOptions:
    """The sheet options of a `--changed` reprint of these cards (per deck: card ids and copies)."""
    only = tuple((deck, tuple(card for card, _ in cards)) for deck, cards in copies)
    return replace(sheet, changed=True, copies=copies, only=only)


_SPEC = re.compile(r"^\s*([^:\s]+)\s*(?::\s*(.*))?$")


def parse_only(specs: tuple[str, ...]) -> list[tuple[str, str, list[str]]]:
    """Each `--only DECK[:CARD,...]` as (the spec, deck, cards); raises InputError for an empty or broken
    spec."""
    parsed = []
    for spec in specs:
        match = _SPEC.match(spec)
        cards = [c.strip() for c in (match.group(2) or "").split(",") if c.strip()] if match else []
        if match is None or (match.group(2) is not None and not cards):
            raise InputError(
                Problem("", 0, f"--only {spec!r}: expected DECK or DECK:CARD,CARD (card ids or codes)")
            )
        parsed.append((spec, match.group(1), cards))
    return parsed


def select(game: Game, specs: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The decks and card ids of `--only` that this game has (decks it lacks are another game's)."""
    chosen: dict[str, list[str] | None] = {}
    problems = []
    for spec, deck_id, names in parse_only(specs):
        deck = game.decks.get(deck_id)
        if deck is None:
            continue
        ids = []
        by_code = {card.code.lower(): card.id for card in deck.cards}
        for name in names:
            card_id = name if name in deck.by_id() else by_code.get(name.lower())
            if card_id is None:
                known = [c.id for c in deck.cards]
                problems.append(
                    Problem(
                        "",
                        0,
                        f"--only {spec}: deck '{deck_id}' of {game.id} has no card '{name}'"
                        f"{did_you_mean(name, known)}; known: {known_list(known)}",
                    )
                )
            elif card_id not in ids:
                ids.append(card_id)
        if not names:
            chosen[deck_id] = None
        elif chosen.get(deck_id, []) is not None:
            chosen[deck_id] = list(dict.fromkeys((chosen.get(deck_id) or []) + ids))
    if problems:
        raise InputError(problems)
    order = list(game.decks)
    return tuple((d, tuple(chosen[d] or ())) for d in sorted(chosen, key=order.index))


def check_only(games: list[Game], specs: tuple[str, ...]) -> None:
    """Every deck named by `--only` belongs to one of the games being built."""
    known = {deck for game in games for deck in game.decks}
    missing = [(spec, deck) for spec, deck, _ in parse_only(specs) if deck not in known]
    if missing:
        raise InputError([Problem("", 0, f"--only {spec}: no game being built has a deck '{deck}'"
                                  f"{did_you_mean(deck, known)}; known decks: {known_list(known)}")
                          for spec, deck in missing])


@dataclass
class DeckGroup:
    """Decks printed on the same run of sheets: one deck, or (with --pack) every deck of one card size."""

    decks: list[Deck]
    cards: list[tuple[Deck, Card]]  # every physical card, in print order

    @property
    def first(self) -> Deck:
        return self.decks[0]


def pack_key(deck: Deck) -> tuple:
    """Decks with equal keys can share sheets: the same card size and outline give the same grid and the same
    back slots (each slot still gets its own card's back, shared or per card)."""
    w, h = deck.size_pt
    return round(w, 3), round(h, 3), repr(deck.shape)


def deck_groups(game: Game, sheet: SheetOptions) -> list[DeckGroup]:
    """The runs of sheets of a game: per deck in print order, packed by card size with `pack`, only the cards
    chosen by `only`. A deck with no chosen card is left out."""
    chosen = dict(sheet.only)
    counts = {deck: dict(cards) for deck, cards in sheet.copies}
    groups: dict[object, DeckGroup] = {}
    for deck in game.decks.values():
        if (sheet.only or sheet.changed) and deck.id not in chosen:
            continue
        wanted = set(chosen.get(deck.id) or ())
        cards = [(deck, card) for card in expand_deck(deck) if not wanted or card.id in wanted]
        if deck.id in counts:  # a --changed reprint: the extra copies of a card whose face is unchanged
            left = dict(counts[deck.id])
            cards = [(d, card) for d, card in cards if _take(left, card.id)]
        key = pack_key(deck) if sheet.pack else deck.id
        group = groups.setdefault(key, DeckGroup([], []))
        group.decks.append(deck)
        group.cards += cards
    return list(groups.values())


def _take(left: dict[str, int], card_id: str) -> bool:
    """True while copies of this card are left to print (counting one down)."""
    if left.get(card_id, 0) <= 0:
        return False
    left[card_id] -= 1
    return True
