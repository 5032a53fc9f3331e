"""Work done once per loaded game, forgotten with the game."""

import gc

from generator.core.caching import per_game


class Game:
    """A stand-in for a loaded game (any object that can be weakly referenced)."""


def test_built_once_per_game_and_again_for_another_game():
    built = []
    view = per_game(lambda game: built.append(game) or len(built))
    first, second = Game(), Game()
    assert (view(first), view(first), view(second), view(first)) == (1, 1, 2, 1)
    assert built == [first, second]


def test_a_game_that_is_gone_is_never_answered_for_another_that_reuses_its_id():
    view = per_game(lambda _game: object())
    game = Game()
    answer = view(game)
    del game
    gc.collect()
    fresh = [Game() for _ in range(50)]  # one of these may take the old id
    assert all(view(g) is not answer for g in fresh)
