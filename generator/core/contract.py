"""The output contract between the build and the producers: what was asked for, one output, a producer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the game model lives in a higher layer; producers receive it, the contract only names it
    from generator.data.game import Game


@dataclass
class BuildOptions:
    """What the designer asked `pnp build` for."""

    papers: tuple[str, ...] = ("letter", "a4")
    out_dir: Path | None = None
    duplex: str = "long"
    layout: str = "duplex"  # the sheet arrangement: duplex (alternate pages) or fold (side by side)
    back_offset: tuple[float, float] = (0.0, 0.0)
    force: bool = False
    # Sheet options: None means "not given", so the game's `print:` block (game.yaml) decides.
    gap: str | None = None          # a length such as '3mm'
    marks: str | None = None        # crop | lines | both
    pack: bool | None = None
    ink: str | None = None          # normal | saver
    cut_file: str | None = None     # svg | none
    cut_machine: str | None = None  # none | cricut | silhouette | scanncut (print-and-cut sheets)
    colour: str | None = None       # rgb | cmyk (card sheets as PDF/X in press CMYK)
    only: tuple[str, ...] = ()      # 'DECK' or 'DECK:CARD,CARD' (ids or codes): a reprint of just those cards
    changed: bool = False           # a reprint of the cards changed since `pnp mark-printed` (cards.reprint)
    jobs: int = 0                   # processes drawing outputs side by side (0: every available core)
    languages: tuple[str, ...] = ()  # the games' languages to build ('all' or none: every declared language)
    papers_from_game: bool = False  # no --paper given: a game's `paper:` (game.yaml) replaces `papers`


# The BuildOptions that decide how a build runs, never what it writes: every other option is in each game's
# key (a build with another one is no build with nothing to do); which of them change how an output looks,
# each producer declares (`OutputKind.looks`), and `papers` and `languages` decide which outputs there are.
HOW_TO_BUILD = ("out_dir", "force", "jobs")


@dataclass
class Output:
    """One file the build writes: `render(tmp_path)` draws it and returns facts for the manifest."""

    game: str
    path: Path  # relative to the build directory
    kind: str
    render: Callable[[Path], dict]
    language: str | None = None  # the language of a translated game's output (None: the source language)


@dataclass(frozen=True)
class OutputKind:
    """One kind of output a producer makes (its outputs' `kind`) and what such an output is drawn from: the
    parts of a game it reads, as rendered (named as generator.pipeline.fingerprints.PARTS does), and the
    BuildOptions that change how it looks. An output is drawn again when one of them changed, and only
    then."""

    kind: str
    drawn_from: tuple[str, ...]
    looks: tuple[str, ...]


class Producer(Protocol):
    """A named maker of outputs (card sheets, boards, rule booklets), listed explicitly by the build.

    `outputs` checks everything the producer needs (layouts, templates, geometry) and raises InputError with
    every problem before anything is drawn; `check` names what that covers for `pnp validate`. `plans_from`
    names the parts of a game, as loaded, that `outputs` reads: while none of them (nor the papers or an
    option of `makes`) changed, the producer is not asked to plan that game again. `makes` declares every kind
    of output it makes."""

    name: str
    check: str
    plans_from: tuple[str, ...]
    makes: tuple[OutputKind, ...]

    def outputs(self, game: Game, options: BuildOptions) -> list[Output]:
        """Every output of this producer for one game."""
        ...


@dataclass(frozen=True)
class FunctionProducer:
    """A producer made of a name, a description of its checks, an `outputs(game, options)` function and what
    it plans from and makes (as Producer)."""

    name: str
    check: str
    outputs: Callable[[Game, BuildOptions], list[Output]]
    plans_from: tuple[str, ...]
    makes: tuple[OutputKind, ...]


def looks_of(producer: Producer) -> tuple[str, ...]:
    """The BuildOptions that change how any output of the producer looks, in the order it declares them."""
    return tuple(dict.fromkeys(name for made in producer.makes for name in made.looks))
