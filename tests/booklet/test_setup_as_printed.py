"""The pizza rulebook's setup, done exactly as printed in rules.pdf, gives the Order Up deck the engine sets
up.

Step 6 used to say "count 14 cards off the top of the deck, put the Game Over card on top of them, and put the
rest of the deck on top of that": read literally, Game Over ended up under 15 cards, not 14, and the Short and
Long presets swapped places. The test reads the printed steps sentence by sentence and does what they say.
"""

from __future__ import annotations

import re

import pytest
from pnp_engine_order_up_pizza import ENGINE
from pypdf import PdfReader

from generator.booklet.pdf import outputs
from generator.core.contract import BuildOptions
from generator.data.load import load_game
from generator.engines.base import ChanceOutcome

GAME_OVER = "game-over"


def follow(step: str, deck: list[str]) -> tuple[list[str], list[str]]:
    """(face-up orders, the deck top first) after doing what setup step 6 says to a deck (top first)."""
    faceup, pile = [], None
    step = re.sub(r"\s*\([^)]*\)", "", step)  # asides such as "(see How long a game lasts below)"
    for clause in re.split(r"\.\s+|,\s*(?:then\s+|and\s+)?|;\s*", step):
        text = " ".join(clause.lower().split()).strip(". ")
        if not text:
            continue
        if match := re.fullmatch(r"deal (\d+) orders face up next to the order up deck", text):
            count = int(match[1])
            faceup, deck = deck[:count], deck[count:]
        elif match := re.fullmatch(
            r"(?:then )?count (\d+) cards off the top of the deck( into a pile of their own)?", text
        ):
            count = int(match[1])
            pile, deck = list(reversed(deck[:count])), deck[count:]  # counted one by one onto a new pile
        elif text == "put the game over card on top of them":
            pile = [GAME_OVER] + pile
        elif text == "put the game over card on top of the rest of the deck":
            deck = [GAME_OVER] + deck
        elif text == "put the rest of the deck on top of that":
            deck, pile = deck + pile, None
        elif match := re.fullmatch(r"put the pile of (\d+) back on top", text):
            assert pile is not None and len(pile) == int(match[1])
            deck, pile = pile + deck, None
        else:
            raise AssertionError(f"the test cannot follow this setup instruction literally: {clause!r}")
    assert pile is None, "a pile of cards is left over"
    return faceup, deck


def test_the_old_wording_put_game_over_one_card_too_deep():
    orders = [f"o{i}" for i in range(32)]
    old = (
        "Deal 3 orders face up next to the Order Up deck. Then count 14 cards off the top of the deck, put "
        "the "
        "Game Over card on top of them, and put the rest of the deck on top of that."
    )
    _faceup, deck = follow(old, orders)
    assert deck.index(GAME_OVER) == 15  # the engine (and the "How long a game lasts" note) put 14 above it


@pytest.fixture(scope="module")
def printed(repo_project, tmp_path_factory) -> str:
    """The text of the pizza game's rules.pdf, as one line."""
    game = load_game(repo_project, "order-up-pizza")
    [reading] = [o for o in outputs(game, BuildOptions(papers=())) if o.kind == "rules"]
    path = tmp_path_factory.mktemp("rules") / "rules.pdf"
    reading.render(path)
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


@pytest.fixture(scope="module")
def printed_setup(printed) -> tuple[str, str]:
    five = re.search(r" 5\. (Take the Game Over card.*?) 6\. ", printed)[1]
    six = re.search(r" 6\. (Deal .*?) 7\. ", printed)[1]
    return five, six


def printed_lengths(printed: str) -> dict[str, int]:
    """The lengths of the "How long a game lasts" note: preset name -> cards above Game Over."""
    note = re.search(r"Pick a length: (.*?)\. With ", printed)[1]
    lengths = {}
    for name, cards, deliveries in re.findall(r"(\w+): (\d+) cards \((\d+) deliveries\)", note):
        assert int(deliveries) == int(cards) + 1
        lengths[name.lower()] = int(cards)
    return lengths


def engine_deck(game, options: dict) -> tuple[list[str], list[str], list[str]]:
    """(the order cards as shuffled in step 5, the face-up orders, the Order Up deck top first) after the
    engine's setup of a 2-player game with `options`."""
    state = ENGINE.new_state(game, 2, {**ENGINE.options, **options})
    for colour in ("red", "yellow"):
        state.apply(state.parse_action(f"choose {colour}"))
    state.apply(ChanceOutcome("toppings-deck", state.chance_request().items))
    shuffled = list(state.chance_request().items)  # any order will do
    state.apply(ChanceOutcome("order-deck", tuple(shuffled)))
    return shuffled, list(state.ofaceup), list(reversed(state.odeck))


def test_setup_as_printed_matches_the_engine(repo_project, printed_setup):
    five, six = printed_setup
    assert five.startswith(
        "Take the Game Over card out of the Order Up deck and shuffle the other order cards"
    )
    game = load_game(repo_project, "order-up-pizza")
    shuffled, engine_faceup, engine = engine_deck(game, {})
    faceup, deck = follow(six, shuffled)
    assert faceup == engine_faceup
    depth = engine.index(GAME_OVER)
    assert deck.index(GAME_OVER) == depth == 14  # the standard preset
    assert set(deck[:depth]) == set(engine[:depth]) and sorted(deck) == sorted(engine)


def test_each_printed_game_length_is_the_engines_preset(repo_project, printed, printed_setup):
    """The note's Short, Standard, Long and Max, put into step 6 as printed, give the engine's deck for that
    preset: Game Over under exactly that many cards, one more delivery than that in the game."""
    _five, six = printed_setup
    lengths = printed_lengths(printed)
    assert list(lengths) == ["short", "standard", "long", "max"] and lengths["short"] < lengths["long"]
    game = load_game(repo_project, "order-up-pizza")
    standard = lengths["standard"]
    assert six.count(f" {standard} ") == 2  # "Count 14 cards ..." and "the pile of 14 back"
    for name, cards in lengths.items():
        shuffled, engine_faceup, engine = engine_deck(game, {"game_over_depth": name})
        faceup, deck = follow(six.replace(f" {standard} ", f" {cards} "), shuffled)
        assert faceup == engine_faceup and deck.index(GAME_OVER) == engine.index(GAME_OVER) == cards, name
        assert sorted(deck) == sorted(engine)


def test_the_components_table_counts_the_dice_in_the_plural(printed):
    table = re.search(r"Component How many Notes (.*?) The Toppings deck", printed)[1]
    assert "Dice 2 printed die" in table and "Die 2" not in table
