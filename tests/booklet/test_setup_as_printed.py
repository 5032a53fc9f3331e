"""The pizza rulebook's setup, done exactly as printed in rules.pdf, gives the Order Up deck the engine sets up.

Step 6 used to say "count 14 cards off the top of the deck, put the Game Over card on top of them, and put the rest
of the deck on top of that": read literally, Game Over ended up under 15 cards, not 14, and the Short and Long
presets swapped places. The test reads the printed steps sentence by sentence and does what they say.
"""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from generator.booklet.pdf import outputs
from generator.core.contract import BuildOptions
from generator.data.load import load_game
from generator.engines.base import ChanceOutcome
from generator.engines.order_up_pizza import ENGINE

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
        elif match := re.fullmatch(r"(?:then )?count (\d+) cards off the top of the deck( into a pile of their own)?",
                                   text):
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
    old = ("Deal 3 orders face up next to the Order Up deck. Then count 14 cards off the top of the deck, put the "
           "Game Over card on top of them, and put the rest of the deck on top of that.")
    _faceup, deck = follow(old, orders)
    assert deck.index(GAME_OVER) == 15  # the engine (and the "How long a game lasts" note) put 14 above it


@pytest.fixture(scope="module")
def printed_setup(repo_project, tmp_path_factory) -> tuple[str, str]:
    game = load_game(repo_project, "order-up-pizza")
    [reading] = [o for o in outputs(game, BuildOptions(papers=())) if o.kind == "rules"]
    path = tmp_path_factory.mktemp("rules") / "rules.pdf"
    reading.render(path)
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())
    five = re.search(r" 5\. (Take the Game Over card.*?) 6\. ", text)[1]
    six = re.search(r" 6\. (Deal .*?) 7\. ", text)[1]
    return five, six


def test_setup_as_printed_matches_the_engine(repo_project, printed_setup):
    five, six = printed_setup
    assert five.startswith("Take the Game Over card out of the Order Up deck and shuffle the other order cards")
    game = load_game(repo_project, "order-up-pizza")
    state = ENGINE.new_state(game, 2, dict(ENGINE.options))
    for colour in ("red", "yellow"):
        state.apply(state.parse_action(f"choose {colour}"))
    state.apply(ChanceOutcome("toppings-deck", state.chance_request().items))
    shuffled = list(state.chance_request().items)  # the order cards as shuffled in step 5 (any order will do)
    state.apply(ChanceOutcome("order-deck", tuple(shuffled)))
    engine_deck = list(reversed(state.odeck))  # top first
    faceup, deck = follow(six, shuffled)
    assert faceup == state.ofaceup
    depth = engine_deck.index(GAME_OVER)
    assert deck.index(GAME_OVER) == depth == 14  # the standard preset
    assert set(deck[:depth]) == set(engine_deck[:depth]) and sorted(deck) == sorted(engine_deck)
