"""The version stamp of the bundled games: on every card's back, inside the safe zone, clear of the art,
legible; and a card's revision: the same however it is printed, changed by what its faces show."""

from __future__ import annotations

import pytest

from generator.core.colours import contrast_ratio
from generator.data.load import load_game
from generator.faces.face import renderer_for
from generator.faces.revisions import PLACEHOLDER, STAMP_BOX
from tests.cards.test_sheets import REAL_GAMES


@pytest.mark.parametrize("name", REAL_GAMES)
def test_the_bundled_backs_carry_a_small_stamp_clear_of_their_art(repo_project, name):
    game = load_game(repo_project, name)
    renderer = renderer_for(game)
    renderer.check()
    revisions = renderer.card_revisions()
    for deck in game.decks.values():
        width, height = renderer.size(deck)
        for card in deck.cards:
            layout = renderer.back_layout(deck, card)
            stamp = next(box for box in layout.boxes if box.name == STAMP_BOX)
            assert renderer.safe <= stamp.x and stamp.x + stamp.w <= width - renderer.safe
            assert renderer.safe <= stamp.y and stamp.y + stamp.h <= height - renderer.safe
            for other in layout.boxes:  # no text or picture under it
                if other is stamp or other.kind not in ("text", "icon", "image"):
                    continue
                apart = other.y + other.h <= stamp.y or stamp.y + stamp.h <= other.y \
                    or other.x + other.w <= stamp.x or stamp.x + stamp.w <= other.x
                assert apart, f"{name} {deck.id}: the stamp lies over {other.name}"
            drawn = next(data for box, data in renderer.resolved(deck, card, back=True)
                         if box.name == STAMP_BOX)
            assert drawn.markup == revisions[deck.id][card.id]
            fills = [b.spec["fill"] for b in layout.boxes if isinstance(b.spec.get("fill"), str)
                     and b.kind == "shape" and b.y <= stamp.y and stamp.y + stamp.h <= b.y + b.h]
            assert contrast_ratio(drawn.color, fills[-1]) >= 4.5  # readable on what lies under it
        assert len({revisions[deck.id][card.id] for card in deck.cards}) == len(deck.cards)


def test_a_revision_is_the_same_printed_anywhere_and_follows_the_face(tmp_path):
    from tests.fixtures.demo_game import demo_game

    game = demo_game(tmp_path)
    plain = renderer_for(game).card_revisions()
    layout = tmp_path / "cards" / "demo" / "layouts" / "things.yaml"
    layout.write_text(layout.read_text() + "  rev: {x: 4mm, y: 44mm, width: 30mm, height: 4mm, size: 7pt, "
                                           "text: \"r{{ card.revision }} {{ build.revision }}\"}\n")
    game_file = tmp_path / "cards" / "demo" / "game.yaml"
    game_file.write_text(game_file.read_text() + "stamp: {side: both, corner: top-left}\n")
    game = load_game(game.project, "demo")
    renderer = renderer_for(game)
    stamped = renderer.card_revisions()
    alpha = game.decks["things"].cards[0]
    texts = {box.name: data.markup for box, data in renderer.resolved(game.decks["things"], alpha)
             if box.kind == "text"}
    assert texts[STAMP_BOX] == stamped["things"]["alpha"]
    assert texts["rev"].startswith("r" + stamped["things"]["alpha"]) and PLACEHOLDER not in texts["rev"]
    # the box that prints the revisions is a box of the face: it changes every card's revision, once
    assert stamped != plain and len({r for deck in stamped.values() for r in deck.values()}) == 3
    things = tmp_path / "cards" / "demo" / "things.yaml"
    things.write_text(things.read_text().replace("name: Beta", "name: Bet"))
    again = renderer_for(load_game(game.project, "demo")).card_revisions()
    assert again["things"]["alpha"] == stamped["things"]["alpha"] and again["minis"] == stamped["minis"]
    assert again["things"]["beta"] != stamped["things"]["beta"]
