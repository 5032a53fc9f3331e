"""Planning a changed game's outputs, only where its inputs changed.

A producer's `outputs(game)` checks everything it will draw (every card face fitted, the rules rendered and
checked), which costs more than the hashes of what they are made from. So each unit (a game in one language,
one producer) first gets a fingerprint from the game as loaded (the parts its producer `plans_from`): when it
is the one the unit was last planned from and the unit's outputs are on disk untouched, the unit is not
planned at all and its outputs are kept. Otherwise the producer plans, and each output gets its own
fingerprint (what it is drawn from, as rendered), so an output whose drawing would not change is still not
drawn again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.contract import BuildOptions, Output, Producer
from generator.core.errors import InputError, Problem
from generator.data.game import Game
from generator.pipeline import producers, translations
from generator.pipeline.fingerprints import GameParts
from generator.pipeline.incremental import BuildState, GameKey


@dataclass
class Planned:
    """One game in one language: the outputs planned (each with its fingerprint), the outputs kept without
    planning, and the units to record once it is built."""

    game: Game
    outputs: list[Output] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    fingerprints: dict[str, str] = field(default_factory=dict)
    units: list[tuple[str, str, list[Path]]] = field(default_factory=list)  # (unit, fingerprint, its outputs)

    def paths(self) -> list[Path]:
        """Every output of this game in this language, planned or kept."""
        return [o.path for o in self.outputs] + [Path(p) for p in self.kept]


class Planner:
    """Plans the games of one build against the build state (`listed`: the outputs the last manifest
    lists)."""

    def __init__(self, state: BuildState, keys: dict[str, GameKey], options: BuildOptions, listed: set[str]):
        self.state, self.keys, self.options, self.listed = state, keys, options, listed
        # a --only reprint plans card sheets of its own names, a --force build plans everything (and records
        # it)
        self.reuse = not options.force and not options.only and not options.changed
        self._parts: dict[int, GameParts] = {}
        self._kept: dict[tuple[int, str], tuple[str, str, list[str] | None]] = {}

    def parts(self, game: Game) -> GameParts:
        """The hashes of a game's parts, worked out once per game and language."""
        if id(game) not in self._parts:
            self._parts[id(game)] = GameParts(game, self.keys[game.id].tool)
        return self._parts[id(game)]

    def _unit(self, game: Game, producer: Producer) -> tuple[str, str, list[str] | None]:
        """(unit, fingerprint, the outputs kept when it needs no planning else None)."""
        if (id(game), producer.name) not in self._kept:
            unit = f"{game.id}/{game.language}/{producer.name}"
            fingerprint = self.parts(game).unit_fingerprint(producer, self.options)
            kept = self.state.unit_outputs(unit, fingerprint, self.listed) if self.reuse else None
            self._kept[(id(game), producer.name)] = (unit, fingerprint, kept)
        return self._kept[(id(game), producer.name)]

    def needs_planning(self, game: Game) -> bool:
        """True when some producer must plan this game (in its language) again."""
        return self.options.only != () or self.options.changed \
            or any(self._unit(game, p)[2] is None for p in producers.PRODUCERS)

    def units_to_plan(self, games: list[Game]) -> list[tuple[Game, Producer]]:
        """The units of these games that `plan` will plan (the others are kept as they are)."""
        if not self.reuse:
            return [(game, producer) for producer in producers.PRODUCERS for game in games]
        return [(game, producer) for producer in producers.PRODUCERS for game in games
                if self._unit(game, producer)[2] is None]

    def fingerprint(self, game: Game, output: Output) -> str:
        """What an output this game (in its language) planned is drawn from, as one hash: an output whose hash
        is the one last drawn is not drawn again."""
        return self.parts(game).fingerprint(output.path, producers.made_as(output.kind), self.options)

    def plan(self, games: list[Game],
             on_planned: Callable[[Game, Producer, list[Output]], None] | None = None) -> list[Planned]:
        """Plan the units of these games that changed; InputError with every problem of every producer (in the
        order the producers draw, as producers.plan reports them). `on_planned(game, producer, outputs)` is
        told of each unit as soon as it is planned."""
        planned = [Planned(game) for game in games]
        if not self.reuse and (self.options.only or self.options.changed):
            outputs = producers.plan(games, self.options)
            for one in planned:
                one.outputs = translations.in_language(
                    one.game, [o for o in outputs if o.game == one.game.id]
                )
        else:
            problems: list[Problem] = []
            for producer in producers.PRODUCERS:
                for one in planned:
                    unit, fingerprint, kept = self._unit(one.game, producer)
                    if kept is not None:
                        one.kept += kept
                        one.units.append((unit, fingerprint, [Path(p) for p in kept]))
                        continue
                    try:
                        made = producers.declared(producer, producer.outputs(one.game, self.options))
                        outputs = translations.in_language(one.game, made)
                    except InputError as exc:
                        problems += exc.problems
                        continue
                    one.outputs += outputs
                    one.units.append((unit, fingerprint, [o.path for o in outputs]))
                    if on_planned is not None:
                        on_planned(one.game, producer, outputs)
            if problems:
                raise InputError(list(dict.fromkeys(problems)))
        for one in planned:
            for o in one.outputs:
                one.fingerprints[str(o.path)] = self.fingerprint(one.game, o)
        return planned
