"""The producers of build outputs, listed explicitly, and the plan of every output they make."""

from __future__ import annotations

from generator.boards.pdf import BOARDS
from generator.booklet.pdf import RULE_BOOKLETS
from generator.cards.print_options import check_only
from generator.cards.sheets import CARD_SHEETS
from generator.components.sheets import COMPONENT_SHEETS
from generator.core.contract import BuildOptions, Output, Producer
from generator.core.errors import InputError, Problem
from generator.data.game import Game

# Every producer of build outputs, in the order their outputs are drawn.
PRODUCERS: tuple[Producer, ...] = (BOARDS, RULE_BOOKLETS, CARD_SHEETS, COMPONENT_SHEETS)


def plan(games: list[Game], options: BuildOptions) -> list[Output]:
    """Every output of every game, from the producers in order. A `--only` reprint makes card sheets alone. The
    problems every producer finds are reported together (a character missing from the rules and from a card is one
    run, not two)."""
    producers = PRODUCERS
    if options.only:
        check_only(games, options.only)
        producers = (CARD_SHEETS,)
    outputs: list[Output] = []
    problems: list[Problem] = []
    for producer in producers:
        for game in games:
            try:
                outputs += producer.outputs(game, options)
            except InputError as exc:
                problems += exc.problems
    if problems:
        raise InputError(list(dict.fromkeys(problems)))
    return outputs
