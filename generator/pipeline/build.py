"""The build, in one readable function: gather and check every game first, then write every output."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.contract import BuildOptions, Output
from generator.core.errors import InputError, Problem
from generator.core.write import Staging, atomic_write, sha256_file
from generator.data.project import Project
from generator.data.report import CheckReport
from generator.pipeline.incremental import BuildState, game_keys

if TYPE_CHECKING:
    from generator.data.game import Game

# Loading, checking and drawing (generator.pipeline.gather, .producers, .fingerprints) are imported when a game needs
# them: a build with nothing to do reads hashes and the state only, and is done before those imports would be.


@dataclass
class BuildResult:
    """What a build wrote (and, with incremental builds, skipped)."""

    games: list[CheckReport]
    written: list[dict] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def deck_summary(game: Game) -> list[dict]:
    """Per deck: card types and total copies, for the manifest."""
    return [
        {"game": game.id, "deck": deck.id, "name": deck.name, "card_types": len(deck.cards), "copies": deck.copies}
        for deck in game.decks.values()
    ]


def component_summary(game: Game) -> list[dict]:
    """Per component: its kind, size (in words and mm; tuck boxes: the inside) and printed copies."""
    from generator.data.components import component_size
    from generator.data.inventory import component_line

    summary = []
    for component in game.components.values():
        size, size_mm = component_size(component, game.decks)
        summary.append({"game": game.id, "component": component.id, "name": component.name, "kind": component.kind,
                        "size": size, "size_mm": size_mm, "copies": component_line(game, component).count})
    return summary


def write_manifest(build_dir: Path, games: list[Game], written: list[dict], partial: bool = False) -> Path:
    """build/manifest.json: every output (path, pages, bytes, sha256), deck and component; keeps other games'
    entries (and, for a `partial` build such as a --only reprint, the built games' other outputs too)."""
    path = build_dir / "manifest.json"
    old = {"outputs": [], "decks": [], "components": []}
    if path.is_file():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, OSError):
            pass
    built = {g.id for g in games}
    new = {o["path"] for o in written}
    outputs = [o for o in old.get("outputs", [])
               if (o.get("game") not in built or partial) and o.get("path") not in new] + written
    decks = [d for d in old.get("decks", []) if d.get("game") not in built]
    components = [c for c in old.get("components", []) if c.get("game") not in built]
    for game in games:
        decks += deck_summary(game)
        components += component_summary(game)
    manifest = {
        "outputs": sorted(outputs, key=lambda o: o["path"]),
        "decks": sorted(decks, key=lambda d: (d["game"], d["deck"])),
        "components": sorted(components, key=lambda c: (c["game"], c["component"])),
    }
    return atomic_write(path, json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def build(project: Project, names: list[str], options: BuildOptions | None = None,
          progress: Callable[[Output], None] | None = None,
          on_start: Callable[[int], None] | None = None,
          drawn: Callable[[Output], None] | None = None) -> BuildResult:
    """Load and check everything, draw every output, then rename them all into place and write the manifest.

    `drawn(output)` is called as each output is drawn (a progress bar), `progress(output)` once it is in place.

    Incremental (generator.pipeline.incremental): a game whose inputs did not change since the last build is not loaded
    and its outputs are reported as skipped; in a changed game only outputs with a changed hash are drawn.
    `options.force` draws everything.
    """
    options = options or BuildOptions()
    build_dir = Path(options.out_dir or project.build_dir)
    state = BuildState(build_dir)
    keys = game_keys(project, names, options)
    fresh = [] if options.force else [name for name in names if state.game_is_fresh(name, keys[name])]
    if len(fresh) == len(names) and fresh:
        return _nothing_to_do(state, names)
    from generator.pipeline.fingerprints import GameParts
    from generator.pipeline.gather import gather
    from generator.pipeline.producers import plan

    games, reports = gather(project, [name for name in names if name not in fresh])
    outputs = plan(games, options)
    parts = {game.id: GameParts(game, keys[game.id].tool) for game in games}
    fingerprints = {str(o.path): parts[o.game].fingerprint(o.path, o.kind, keys[o.game].look(o.kind)) for o in outputs}
    result = BuildResult(games=[])
    by_game = {report.game: report for report in reports}
    for name in names:  # reports in the order asked for; skipped games show their last check
        result.games.append(by_game[name] if name in by_game else CheckReport(**state.game_report(name)))
    for name in fresh:
        result.skipped += state.game_outputs(name)
    previous = _manifest_entries(build_dir)
    carried: list[dict] = []  # manifest entries of skipped outputs of the games being built
    todo: list[Output] = []
    for output in outputs:
        if not options.force and state.output_is_fresh(output.path, fingerprints[str(output.path)]) \
                and str(output.path) in previous:
            result.skipped.append(str(output.path))
            carried.append(previous[str(output.path)])
        else:
            todo.append(output)
    if on_start:
        on_start(len(todo))
    problems: list[Problem] = []
    drawn_facts: list[tuple[Output, dict]] = []
    with Staging() as staging:
        # Draw every output first and rename them into place only when all of them succeeded: a problem found
        # while drawing (a text that does not fit) must not replace any of the last good PDFs.
        for output in todo:
            facts: dict = {}

            def produce(tmp: Path, output=output, facts=facts) -> None:
                facts.update(output.render(tmp) or {})

            try:
                staging.stage(build_dir / output.path, produce)
            except InputError as exc:
                problems.extend(exc.problems)
                continue
            except Exception as exc:  # a renderer bug must still name the output, not dump a traceback
                problems.append(Problem(str(output.path), 0, f"could not build: {type(exc).__name__}: {exc}"))
                continue
            drawn_facts.append((output, facts))
            if drawn:
                drawn(output)
        if problems:  # the same card can fail in several outputs (both papers, the rules): report it once
            raise InputError(list(dict.fromkeys(problems)))
        staging.commit()
    for output, facts in drawn_facts:
        target = build_dir / output.path
        result.written.append({
            "game": output.game, "path": str(output.path), "kind": output.kind,
            "bytes": target.stat().st_size, "sha256": sha256_file(target), **facts,
        })
        state.record_output(output.path, fingerprints[str(output.path)])
        if progress:
            progress(output)
    write_manifest(build_dir, games, result.written + carried, partial=bool(options.only))
    for report in reports:
        state.record_game(report.game, keys[report.game],
                          [o.path for o in outputs if o.game == report.game], report)
    state.save()
    return result


def _nothing_to_do(state: BuildState, names: list[str]) -> BuildResult:
    """Every game is as its last build left it: their outputs are reported skipped, their last checks shown again."""
    result = BuildResult(games=[CheckReport(**state.game_report(name)) for name in names])
    for name in names:
        result.skipped += state.game_outputs(name)
    return result


def _manifest_entries(build_dir: Path) -> dict[str, dict]:
    """The outputs listed in the last manifest, by path (carried over for outputs that are skipped)."""
    path = build_dir / "manifest.json"
    try:
        return {o["path"]: o for o in json.loads(path.read_text(encoding="utf-8")).get("outputs", [])}
    except (ValueError, OSError, KeyError, TypeError):
        return {}
