"""The build, in one readable function: gather and check every game first, then write every output."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.collector import Paused
from generator.core.contract import BuildOptions, Output
from generator.core.errors import InputError, Problem
from generator.core.write import WRITTEN, Staging, cannot_write, recover, sha256_of
from generator.data.project import Project
from generator.data.report import CheckReport
from generator.pipeline.incremental import SOURCE_ROOT, BuildState, game_keys

if TYPE_CHECKING:
    from generator.data.game import Game
    from generator.pipeline.drawing import Drawings, Drawn
    from generator.pipeline.planning import Planner

# Loading, checking and drawing (generator.pipeline.gather, .producers, .fingerprints) are imported when a
# game needs them: a build with nothing to do reads hashes and the state only, and is done before those
# imports would be.

MANIFEST = "manifest.json"
PICTURE_CACHE = Path(".cache") / "pictures"  # generator.faces.embedding
RULES_LAYOUTS = Path(".cache") / "rules-layouts"  # generator.booklet.pdf: the balancing's choices
FACES = Path(".cache") / "faces"  # generator.faces.facecache: the card sheets' faces as drawn
# what every card face of a game may read besides its boxes as rendered (which the kept faces are keyed by)
FACE_PARTS = ("game", "layouts", "pictures", "fonts", "templates")


@dataclass
class BuildResult:
    """What a build wrote (and, with incremental builds, skipped), and what in build/ belongs to nothing any
    more. `problems` are those of translations, which never stop the source language from building; `warnings`
    are texts a translation does not give yet."""

    games: list[CheckReport]
    written: list[dict] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    stale: list[dict] = field(default_factory=list)
    languages: dict[str, list[str]] = field(default_factory=dict)  # game -> the languages built
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    # game -> its languages kept out by problems
    not_built: dict[str, list[str]] = field(default_factory=dict)
    # the manifest entries of the outputs skipped (their warnings are said again, as when they were drawn)
    kept: list[dict] = field(default_factory=list)
    # game -> the warnings of its translations (recorded, and said again while the game is skipped)
    warned: dict[str, list[Problem]] = field(default_factory=dict)


def _language(game: Game) -> dict:
    """The manifest's `language` key of a translated game's entries (none for the source language)."""
    return {"language": game.language} if game.translated else {}


def _unit(entry: dict) -> tuple[str, str | None]:
    """A manifest entry's game and language (None: the source language)."""
    return entry["game"], entry.get("language")


def deck_summary(game: Game) -> list[dict]:
    """Per deck: card types and total copies, for the manifest."""
    return [
        {
            "game": game.id,
            "deck": deck.id,
            "name": deck.name,
            "card_types": len(deck.cards),
            "copies": deck.copies,
            **_language(game),
        }
        for deck in game.decks.values()
    ]


def component_summary(game: Game) -> list[dict]:
    """Per component: its kind, size (in words and mm; tuck boxes: the inside) and printed copies."""
    from generator.data.components import component_size
    from generator.data.inventory import component_line

    summary = []
    for component in game.components.values():
        size, size_mm = component_size(component, game.decks)
        summary.append(
            {
                "game": game.id,
                "component": component.id,
                "name": component.name,
                "kind": component.kind,
                "size": size,
                "size_mm": size_mm,
                "copies": component_line(game, component).count,
                **_language(game),
            }
        )
    return summary


def drawing_weights(outputs: list[Output], build_dir: Path) -> dict[str, float]:
    """Output path -> how long it takes to draw, relative to the others, for a progress estimate: its page
    count in the last manifest (pages cost about the same), else the mean of those known (else 1)."""
    pages = {entry["path"]: entry.get("pages") for entry in read_manifest(build_dir)["outputs"]}
    known = {str(o.path): float(n) for o in outputs
             if isinstance(n := pages.get(str(o.path)), int | float) and n > 0}
    usual = sum(known.values()) / len(known) if known else 1.0
    return {str(o.path): known.get(str(o.path), usual) for o in outputs}


def read_manifest(build_dir: Path) -> dict:
    """The last build/manifest.json, keeping only entries of the expected shape (a damaged file counts as
    empty)."""
    empty: dict = {"outputs": [], "decks": [], "components": [], "stale": []}
    try:
        data = json.loads((Path(build_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return empty
    if not isinstance(data, dict):
        return empty

    def entries(key: str, needed: tuple[str, ...]) -> list[dict]:
        items = data.get(key)
        return [e for e in items if isinstance(e, dict) and all(isinstance(e.get(k), str) for k in needed)] \
            if isinstance(items, list) else []

    return {
        "outputs": entries("outputs", ("game", "path")),
        "decks": entries("decks", ("game", "deck")),
        "components": entries("components", ("game", "component")),
        "stale": entries("stale", ("path", "why")),
    }


def manifest_text(old: dict, project: Project, games: list[Game], outputs: list[dict], stale: list[dict],
                  partial: bool = False) -> str:
    """build/manifest.json: every output (path, pages, bytes, sha256), deck and component, and the stale
    outputs; entries of games not built this time are kept while those games exist (and, for a `partial` build
    such as a
    --only reprint, the built games' other outputs too). A game in one of its languages is built on its own:
    the entries of its other languages are kept."""
    built = {(g.id, g.language if g.translated else None) for g in games}
    existing = set(project.game_ids())
    new = {o["path"] for o in outputs}
    keep = [o for o in old["outputs"]
            if (_unit(o) not in built or partial) and o["game"] in existing and o["path"] not in new]
    decks = [d for d in old["decks"] if _unit(d) not in built and d["game"] in existing]
    components = [c for c in old["components"] if _unit(c) not in built and c["game"] in existing]
    for game in games:
        decks += deck_summary(game)
        components += component_summary(game)
    manifest = {
        "outputs": sorted(keep + outputs, key=lambda o: o["path"]),
        "decks": sorted(decks, key=lambda d: (d["game"], d.get("language", ""), d["deck"])),
        "components": sorted(components, key=lambda c: (c["game"], c.get("language", ""), c["component"])),
        "stale": stale,
    }
    return json.dumps(manifest, indent=2, sort_keys=True) + "\n"


def write_manifest(build_dir: Path, games: list[Game], written: list[dict], partial: bool = False) -> Path:
    """Write build/manifest.json for these games on its own (a build commits it with its outputs instead)."""
    from generator.core.write import atomic_write

    path = Path(build_dir) / MANIFEST
    if not games:
        return path
    return atomic_write(
        path, manifest_text(read_manifest(build_dir), games[0].project, games, written, [], partial)
    )


def build(project: Project, names: list[str], options: BuildOptions | None = None,
          progress: Callable[[Output], None] | None = None,
          on_start: Callable[[list[Output]], None] | None = None,
          drawn: Callable[[Output], None] | None = None) -> BuildResult:
    """Load and check everything, draw every output, then rename them all into place with the manifest.

    `on_start(outputs)` is told every output that will be drawn, `drawn(output)` is called as each one is
    drawn (a progress bar), `progress(output)` once it is in place.

    Languages (generator.pipeline.translations): each game is built in every language it declares, or those of
    `options.languages`; a translation goes to build/<game>/<language>/. A translation's problems (a key that
    translates nothing, a text that does not fit) keep that language's outputs out and are in the result's
    `problems`; they never stop the source language or another language from building.

    Incremental (generator.pipeline.incremental): a game whose inputs did not change since the last build is
    not loaded and its outputs are reported as skipped; a changed game is checked again only when the data its
    checks read changed, each of its languages is planned only by the producers whose inputs changed
    (generator.pipeline.planning), and only outputs with a changed hash are drawn. `options.force` draws
    everything. The outputs, build/manifest.json and build/.state.json are committed together
    (generator.core.write), so the manifest always describes the PDFs on disk, even after a build was killed.
    """
    # Python's cycle collector rests until the drawing starts (generator.core.collector)
    with Paused() as collector:
        try:
            result = _build(project, names, options or BuildOptions(), progress, on_start, drawn,
                            collector.resume)
        finally:  # the rules' layouts were kept by this build's hashes (_plan): not for what runs next
            rules_pdf = sys.modules.get("generator.booklet.pdf")  # imported by a build that planned
            if rules_pdf is not None:
                rules_pdf.keep_layouts_in(None)
            facecache = sys.modules.get("generator.faces.facecache")
            if facecache is not None:
                facecache.keep_faces_in(None)
    from generator.pipeline.editor import editor_files_wanted, write_editor_files

    if editor_files_wanted(project):  # `pnp new` or `pnp schema` asked for them: keep them current
        try:
            write_editor_files(project)  # (a game that does not load was reported by the build already)
        except (InputError, OSError):
            pass  # a convenience for the editor, never the build's failure: the next build writes them again
    return result


def _build(
    project: Project,
    names: list[str],
    options: BuildOptions,
    progress: Callable[[Output], None] | None,
    on_start: Callable[[list[Output]], None] | None,
    drawn: Callable[[Output], None] | None,
    drawing_starts: Callable[[], None],
) -> BuildResult:
    """build() once the collector is paused; `drawing_starts()` is called just before the outputs are
    drawn."""
    build_dir = Path(options.out_dir or project.build_dir)
    try:
        recover(build_dir)  # finish what a killed build left half-committed, remove its temporary files
    except OSError as exc:
        raise cannot_write(build_dir, exc) from None
    state = BuildState(build_dir)
    keys = game_keys(project, names, options)
    old_manifest = read_manifest(build_dir)
    previous = {o["path"]: o for o in old_manifest["outputs"]}
    fresh = [] if options.force else _fresh_games(state, names, keys, previous)
    if len(fresh) == len(names) and fresh:
        return _nothing_to_do(state, names, old_manifest)
    from generator.pipeline.check_cache import CHECKS_FILE, passed_text, read_passed
    from generator.pipeline.gather import load_games
    from generator.pipeline.stale import stale_outputs

    changed = [name for name in names if name not in fresh]
    # a game whose checks read the same inputs as when they last passed (a rules template or translation
    # edit) is loaded, not checked again
    checked = {} if options.force else _checked_before(state, changed, keys)
    # each of game.yaml's `checks:` that passed with the inputs it reads now is not run again
    # (generator.pipeline.check_cache); --force runs them all
    passed = read_passed(build_dir, [] if options.force else changed, keys[changed[0]].tool)
    loaded = load_games(project, changed, checked=checked, passed=passed)
    # a game that did not load, or wrong data or references: every game's problems, as gather
    if loaded.failed:
        loaded.finish()
    games = loaded.games
    # The composition checks (game.yaml `checks:`, the engines' static checks) run while the outputs are
    # drawn: planning reads only what check_references checked. Whatever the planning raises, the checks'
    # problems come first: bad data they catch may be what broke it.
    # Draw every output first (generator.pipeline.drawing: in worker processes when there are cores to use,
    # started before this process runs the composition checks) and rename them into place only when the
    # checks passed and every output was drawn: a problem found while drawing (a text that does not fit) must
    # not replace any of the last good PDFs. Every language is drawn in the same run of workers; a problem in
    # a source language stops the build, a problem in a translation keeps that language out only.
    from generator.faces import embedding
    from generator.pipeline.drawing import Drawings, available_cores, tasks_of

    embedding.keep_in(build_dir / PICTURE_CACHE)  # decoded pictures kept between builds (workers inherit it)

    with Drawings() as drawings:
        cores = options.jobs or available_cores()

        def start_early(outputs: list[Output]) -> int:
            if _few_pages(outputs, previous):  # drawn here with the rest: a fork would cost more
                return 0
            drawing_starts()  # the workers collect as they draw
            drawings.start(outputs, build_dir, options.jobs, busy=True)
            return min(cores, len(tasks_of(outputs)))  # the workers started

        try:
            early = _EarlyStart(start_early, loaded.pending, cores) if cores > 1 else None
            result, units, todo, carried, failed = _plan(state, keys, options, previous, games, fresh, early)
            # every game's warnings in the order asked for, whichever of them were skipped
            result.warnings = [w for name in names for w in result.warned.get(name, [])]
            result.kept = [previous[path] for path in result.skipped if path in previous]
        except Exception:
            drawings.cancel()
            loaded.finish()
            raise
        everything = [o for group in todo for o in group]
        drawing_starts()
        _start_the_rest(drawings, everything, build_dir, options.jobs, loaded.pending, previous)
        # a failed check stops the workers and removes their files (leaving the block): its problems are
        # reported, never a drawing problem or bug the bad data caused
        reports = loaded.finish()
        _report_games(result, state, names, reports)
        if on_start:
            on_start(everything)
        results = drawings.results(everything, drawn)
    fingerprints = {path: fingerprint for unit in units for path, fingerprint in unit.fingerprints.items()}
    drawn_outputs: list[Output] = []
    built: list[Game] = []
    with Staging() as staging:
        problems: list[Problem] = []
        at = 0
        for unit, group in zip(units, todo, strict=True):
            game = unit.game
            found, at = results[at:at + len(group)], at + len(group)
            wrong = [problem for one in found for problem in one.problems]
            if wrong and game.translated:
                _keep_out(result, game, found, wrong)
                failed.add(game.id)
                continue
            problems += wrong
            _adopt(staging, state, build_dir, zip(group, found, strict=True), fingerprints, result.written)
            drawn_outputs += group
            built.append(game)
            for name, fingerprint, made in unit.units:
                state.record_unit(name, fingerprint, made)
        if problems:  # the same card can fail in several outputs (both papers, the rules): report it once
            raise InputError(list(dict.fromkeys(problems)))
        _record_games(state, keys, units, [r for r in reports if r.game not in failed], result.languages,
                      result.warned)
        result.stale = _stale(stale_outputs(project, build_dir, games), old_manifest, fresh)
        text = manifest_text(old_manifest, project, built, result.written + carried, result.stale,
                             partial=bool(options.only or options.changed))
        staging.stage(build_dir / MANIFEST, lambda tmp: tmp.write_text(text, encoding="utf-8"))
        staging.stage(state.path, lambda tmp: tmp.write_text(state.text(), encoding="utf-8"))
        checks = passed_text(build_dir, passed)
        if checks is not None:
            staging.stage(build_dir / CHECKS_FILE, lambda tmp: tmp.write_text(checks, encoding="utf-8"))
        staging.commit(journal_dir=build_dir)
    if progress:
        for output in drawn_outputs:
            progress(output)
    return result


FEW_PAGES = 4  # at most this many pages in all (at their last build): drawn without a worker


def _start_the_rest(drawings: Drawings, everything: list[Output], build_dir: Path, jobs: int, busy: bool,
                    previous: dict[str, dict]) -> None:
    """Start drawing the outputs not started while planning (`busy`: the composition checks are still to
    run). A job of a few faces is drawn in this process, after the checks: forking a worker for it (and
    waiting on it) costs more than it overlaps."""
    started = {id(o) for o in drawings.outputs}
    rest = [o for o in everything if id(o) not in started]
    if rest:
        few = _few_pages(rest, previous)
        drawings.start(rest, build_dir, 1 if few else jobs, busy and not few)


def _few_pages(outputs: list[Output], previous: dict[str, dict]) -> bool:
    """True when these outputs had at most FEW_PAGES pages in all at their last build (each one known)."""
    pages = [previous.get(str(o.path), {}).get("pages") for o in outputs]
    known = [n for n in pages if isinstance(n, int)]
    return len(known) == len(pages) and sum(known) <= FEW_PAGES


def _stale(found: list[dict], manifest: dict, fresh: list[str]) -> list[dict]:
    """The stale outputs: those `found` in the games built, and those of the skipped (`fresh`) games when they
    were last built (a game is searched for stale outputs only when it is built)."""
    return sorted(found + [e for e in manifest["stale"] if e["path"].split("/")[0] in fresh],
                  key=lambda e: e["path"])


def _fresh_games(state: BuildState, names: list[str], keys: dict, previous: dict[str, dict]) -> list[str]:
    """The games whose inputs did not change, with their outputs untouched and listed in the manifest (a
    damaged manifest costs a rebuild)."""
    return [name for name in names if state.game_is_fresh(name, keys[name])
            and all(path in previous for path in state.game_outputs(name))]


def _checked_before(state: BuildState, names: list[str], keys: dict) -> dict[str, CheckReport]:
    """The last check report of each game whose checks read the same inputs as when they last passed."""
    return {name: CheckReport(**report) for name in names
            if (report := state.checked_report(name, keys[name])) is not None}


def _report_games(result: BuildResult, state: BuildState, names: list[str],
                  reports: list[CheckReport]) -> None:
    """The check reports in the order asked for; skipped games show their last check (and languages)."""
    by_game = {report.game: report for report in reports}
    for name in names:
        result.games.append(by_game[name] if name in by_game else CheckReport(**state.game_report(name)))
        if name not in by_game:
            result.languages.setdefault(name, state.game_languages(name))


def _keep_out(result: BuildResult, game: Game, found: list[Drawn], wrong: list[Problem]) -> None:
    """A translation with problems while drawing: its drawn files are not put in place, its problems are
    the result's and the language is not built."""
    from generator.pipeline.translations import named

    for one in found:
        one.file.unlink(missing_ok=True)
    result.problems += named(list(dict.fromkeys(wrong)), game.language)
    result.not_built.setdefault(game.id, []).append(game.language)


def _adopt(staging: Staging, state: BuildState, build_dir: Path, drawn: Iterable[tuple[Output, Drawn]],
           fingerprints: dict[str, str], written: list[dict]) -> None:
    """Stage every output of a unit drawn without problems, listing it in `written` and recording it."""
    for output, one in drawn:
        if one.problems:
            continue
        tmp = staging.adopt(one.file, build_dir / output.path)  # the staging owns it now
        record = one.facts.pop(WRITTEN, None)  # the writer's digest of what it wrote, if it hashed it
        written.append({
            "game": output.game, "path": str(output.path), "kind": output.kind,
            **({"language": output.language} if output.language else {}),
            "bytes": tmp.stat().st_size, "sha256": sha256_of(tmp, record), **one.facts,
        })
        state.record_output(output.path, fingerprints[str(output.path)], written=tmp)


def _record_games(state: BuildState, keys: dict, units: list, reports: list[CheckReport],
                  languages: dict[str, list[str]], warned: dict[str, list[Problem]]) -> None:
    """Record each game built (all its languages) as up to date: its key, outputs, report, languages and
    the warnings of its translations."""
    for report in reports:
        paths = [path for unit in units if unit.game.id == report.game for path in unit.paths()]
        state.record_game(report.game, keys[report.game], paths, report, languages.get(report.game, []),
                          warned.get(report.game, []))


@dataclass(frozen=True)
class _EarlyStart:
    """Drawing while planning: `start(outputs)` starts workers on outputs to draw (returning how many it
    started), up to `cores`, while more units are still to be planned or (`busy`) composition checks to
    run."""

    start: Callable[[list[Output]], int]
    busy: bool
    cores: int


def _plan(state: BuildState, keys: dict, options: BuildOptions, previous: dict[str, dict], games: list[Game],
          fresh: list[str], early: _EarlyStart | None = None
          ) -> tuple[BuildResult, list, list[list[Output]], list[dict], set[str]]:
    """The languages, the units planned and the outputs to draw of the loaded games: (the result so far, the
    units (planning.Planned), the outputs to draw per unit, the manifest entries of the outputs kept, the
    games with a language that did not build).

    `early.start(outputs)` is given each unit's outputs to draw as soon as they are planned, while it has
    started fewer workers than there are `early.cores` and more units are still to be planned or
    (`early.busy`) composition checks to run; it returns the number of workers it started. On a rebuild
    after a card's text changed, the rules and their booklets (planned before the card sheets, and the
    longest to draw) are drawn while the card sheets are planned, and the card sheets while the translations
    are planned and the checks run. The outputs stay in the outputs to draw that this returns."""
    from generator.pipeline.planning import Planner
    from generator.pipeline.translations import choose_languages

    languages = choose_languages(games, options.languages)  # a --lang no game declares stops here
    result = BuildResult(games=[], languages=languages)
    planner = Planner(state, keys, options, set(previous))
    from generator.booklet import pdf as rules_pdf

    def layout_key(game: Game) -> str | None:  # what the rules' pages' geometry is made from
        return planner.parts(game).key("rules layout", rules_pdf.LAYOUT_PARTS) if game.id in keys else None

    # the rules are laid out in the layout chosen for the same geometry by an earlier build, alone; --force
    # chooses again (the build ends with keep_layouts_in(None))
    rules_pdf.keep_layouts_in(state.build_dir / RULES_LAYOUTS, layout_key, reuse=not options.force)
    from generator.faces import facecache

    def face_salt(game: Game) -> str | None:  # a kept face names its icons' files by where they are
        if game.id not in keys:
            return None
        return f"{planner.parts(game).key('faces', FACE_PARTS)} {game.project.root.resolve()} {SOURCE_ROOT}"

    # a face whose inputs and fonts are those it was drawn from last time is not drawn again; --force draws
    # them all (and keeps them)
    facecache.keep_faces_in(state.build_dir / FACES, face_salt, reuse=not options.force)

    def drawn_again(output: Output, fingerprint: str) -> bool:
        return options.force or not state.output_is_fresh(output.path, fingerprint) \
            or str(output.path) not in previous

    source = [game for game in games if game.source_language in languages[game.id]]
    to_plan = len(planner.units_to_plan(source))
    workers = 0  # started early

    def planned(game: Game, _producer, outputs: list[Output]) -> None:
        nonlocal to_plan, workers
        assert early is not None  # told only then
        to_plan -= 1
        # only with cores to use and something else to do meanwhile
        if workers >= early.cores or not (to_plan or early.busy):
            return
        try:
            stale = [o for o in outputs if drawn_again(o, planner.fingerprint(game, o))]
        # what it is drawn from cannot be drawn: reported below, after the planning problems
        except InputError:
            stale = []
        if stale:
            workers += early.start(stale)

    # every problem of every game's source language in one run
    units = planner.plan(source, planned if early is not None else None)
    failed: set[str] = set()  # games with a language that did not build: not recorded as up to date
    for game in games:
        before = len(result.warnings)
        wrong = _plan_translations(planner, game, languages[game.id], result, units)
        result.warned[game.id] = result.warnings[before:]
        result.problems += wrong
        failed |= {game.id} if wrong else set()
    for name in fresh:  # said again, as a build that plans the game says them
        result.warned[name] = state.game_warnings(name)
    fingerprints = {path: fingerprint for unit in units for path, fingerprint in unit.fingerprints.items()}
    for name in fresh:
        result.skipped += state.game_outputs(name)
    carried: list[dict] = []  # manifest entries of skipped outputs of the games being built
    todo: list[list[Output]] = []
    for unit in units:
        result.skipped += unit.kept  # not even planned: nothing they are made from changed
        carried += [previous[path] for path in unit.kept]
        todo.append([])
        for output in unit.outputs:
            if drawn_again(output, fingerprints[str(output.path)]):
                todo[-1].append(output)
            else:
                result.skipped.append(str(output.path))
                carried.append(previous[str(output.path)])
    return result, units, todo, carried, failed


def _plan_translations(planner: Planner, game: Game, languages: list[str], result: BuildResult,
                       units: list) -> list[Problem]:
    """Plan the game's translations into `units` (warnings into the result); the problems of its languages,
    each of which is then not built."""
    from generator.data.translation import source_tool_words_missing
    from generator.pipeline.translations import (
        drawn_word_problems,
        language_problems,
        named,
        translated_game,
    )

    wrong = language_problems(game)
    for language in languages:
        if language == game.source_language:
            result.warnings += source_tool_words_missing(game)
            continue
        try:
            other = translated_game(game, language)
            result.warnings += named(other.translation.warnings, language)
            errors = other.translation.problems
            if planner.needs_planning(other):  # what it draws changed: its words are checked again
                warnings, more = drawn_word_problems(game, other)
                result.warnings += named(warnings, language)
                errors = errors + more
            if errors:  # this language is not drawn; the others and the source language are
                raise InputError(named(errors, language))
            units += planner.plan([other])
        except InputError as exc:
            wrong += named(exc.problems, language)
            result.not_built.setdefault(game.id, []).append(language)
    return wrong


def _nothing_to_do(state: BuildState, names: list[str], manifest: dict) -> BuildResult:
    """Every game is as its last build left it: their outputs are reported skipped, their last checks shown
    again and the stale outputs found then listed again."""
    result = BuildResult(games=[CheckReport(**state.game_report(name)) for name in names],
                         languages={name: state.game_languages(name) for name in names})
    for name in names:
        result.skipped += state.game_outputs(name)
        result.warnings += state.game_warnings(name)  # as the build that drew them said them
    listed = {entry["path"]: entry for entry in manifest["outputs"]}
    result.kept = [listed[path] for path in result.skipped if path in listed]
    result.stale = [e for e in manifest["stale"] if e["path"].split("/")[0] in names]
    return result
