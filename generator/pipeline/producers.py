"""The producers of build outputs, listed explicitly, and the plan of every output they make."""

from __future__ import annotations

from generator.boards.pdf import BOARDS
from generator.booklet.pdf import RULE_BOOKLETS
from generator.cards.print_options import check_only
from generator.cards.sheets import CARD_SHEETS
from generator.components.sheets import COMPONENT_SHEETS
from generator.core.contract import BuildOptions, Output, OutputKind, Producer
from generator.core.errors import InputError, Problem
from generator.data.game import Game

# Every producer of build outputs, in the order their outputs are drawn.
PRODUCERS: tuple[Producer, ...] = (BOARDS, RULE_BOOKLETS, CARD_SHEETS, COMPONENT_SHEETS)


def plan(games: list[Game], options: BuildOptions) -> list[Output]:
    """Every output of every game, from the producers in order. A `--only` reprint makes card sheets alone.
    The problems every producer finds are reported together (a character missing from the rules and from a
    card is one run, not two)."""
    producers = PRODUCERS
    if options.only:
        check_only(games, options.only)
    if options.only or options.changed:
        producers = (CARD_SHEETS,)
    outputs: list[Output] = []
    problems: list[Problem] = []
    for producer in producers:
        for game in games:
            try:
                outputs += declared(producer, producer.outputs(game, options))
            except InputError as exc:
                problems += exc.problems
    if problems:
        raise InputError(list(dict.fromkeys(problems)))
    return outputs


def declared(producer: Producer, outputs: list[Output]) -> list[Output]:
    """The outputs a producer planned, each of a kind it declares it `makes` (else what decides when it is
    drawn again is not known: a bug of the producer's)."""
    kinds = {made.kind for made in producer.makes}
    for output in outputs:
        if output.kind not in kinds:
            raise ValueError(f"{producer.name} made {output.path} of kind '{output.kind}', which it does not "
                             f"declare (it makes {', '.join(sorted(kinds))})")
    return outputs


def made_as(kind: str) -> OutputKind:
    """The declaration of the outputs of this kind (what they are drawn from), by the producer that makes
    them."""
    found = [made for producer in PRODUCERS for made in producer.makes if made.kind == kind]
    if len(found) != 1:
        raise ValueError(f"{len(found)} producers make outputs of kind '{kind}'; expected one")
    return found[0]
