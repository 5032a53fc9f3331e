"""What the studio shows, kept up to date: per game the last good data and images, and the current problems.

`Studio.refresh()` asks the incremental machinery which games' inputs changed
(`pipeline.incremental.game_keys`), reloads and checks only those, compares each face's fingerprint with the
last one and re-draws only the faces that changed; the board and rules pages follow a moment later. Bad data
never replaces what was last shown: the problems are listed and the last good images stay until the data is
fixed.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from generator.core.contract import BuildOptions
from generator.core.errors import InputError, Problem
from generator.data.game import Game
from generator.data.load import load_game
from generator.data.project import Project
from generator.pipeline.gather import check_game
from generator.pipeline.incremental import game_keys
from generator.pipeline.translations import translate_checked
from generator.studio import faces as facemod
from generator.studio import pages as pagemod
from generator.studio.worker import FACES, PAGES, REFRESH, URGENT, Worker

PAGES_DELAY = 0.8  # seconds after the last save before the board and rules are drawn again
LANGUAGE_MARK = "@"  # a translation's state is keyed 'game@cs' (game ids are slugs: never '@')
RETAIN_SECONDS = 60.0  # how long an image no longer shown is still served
# image id suffixes of a face's drawings: (print resolution?, ink) -> letter; the grid's normal drawing is 'g'
VARIANTS = {(False, "normal"): "g", (True, "normal"): "p", (False, "saver"): "s", (True, "saver"): "t"}


class StudioReport(Protocol):
    """What the studio tells the command line."""

    def changed(self, paths: list[str]) -> None: ...
    def updated(self, game: str, faces: int, seconds: float) -> None: ...
    def failed(self, game: str, problems: list[Problem]) -> None: ...


@dataclass
class Face:
    """A face as shown: its current fingerprint and the image last drawn for it (maybe of older inputs)."""

    ref: facemod.FaceRef
    fingerprint: str
    image: str | None = None      # image id in the store of the last good drawing
    drawn: str | None = None      # the fingerprint that image was drawn from

    @property
    def current(self) -> bool:
        """True when the image shows the face's current inputs."""
        return self.drawn == self.fingerprint


@dataclass
class GameState:
    """One game in the studio; replaced as a whole on every change, so a page never sees half an update."""

    id: str
    game: Game | None = None
    faces: dict[str, Face] = field(default_factory=dict)
    data_problems: list[Problem] = field(default_factory=list)   # loading, checks, layouts and templates
    face_problems: list[Problem] = field(default_factory=list)   # drawing (a text that does not fit)
    page_problems: list[Problem] = field(default_factory=list)   # board and rules
    # translation files (never hide the source's images)
    language_problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    pages: list[pagemod.PageSet] = field(default_factory=list)
    page_images: dict[tuple[str, int], str] = field(default_factory=dict)
    version: int = 0
    content_key: str = ""
    rendered: bool = False  # every face drawn once

    @property
    def name(self) -> str:
        """The game's id (a translation's state is keyed 'game@language')."""
        return self.id.partition(LANGUAGE_MARK)[0]

    @property
    def language(self) -> str:
        """The language shown: '' for the game's source language."""
        return self.id.partition(LANGUAGE_MARK)[2]

    @property
    def problems(self) -> list[Problem]:
        """What the banner lists: broken data hides the drawing problems of the last good data."""
        if self.data_problems:
            return list(self.data_problems)
        return list(dict.fromkeys(self.face_problems + self.page_problems + self.language_problems))


class ImageStore:
    """PNG bytes by id, shared by every game; ids no longer shown are dropped after the next change."""

    def __init__(self):
        self._images: dict[str, bytes] = {}
        self._large: dict[str, bytes] = {}  # print-resolution images, the most recent few
        self._unshown: dict[str, float] = {}  # image id -> when it stopped being shown
        self._lock = threading.Lock()

    def get(self, image_id: str) -> bytes | None:
        with self._lock:
            return self._images.get(image_id) or self._large.get(image_id)

    def put(self, image_id: str, data: bytes, large: bool = False) -> None:
        with self._lock:
            if large:
                self._large.pop(image_id, None)
                self._large[image_id] = data
                while len(self._large) > 48:
                    del self._large[next(iter(self._large))]
            else:
                self._images[image_id] = data

    def keep_only(self, wanted: set[str], grace: float = RETAIN_SECONDS) -> None:
        """Drop the images no longer shown once they have been unshown for `grace` seconds (a page opened
        before an edit may still ask for them meanwhile)."""
        now = time.monotonic()
        with self._lock:
            for image_id in list(self._images):
                if image_id in wanted:
                    self._unshown.pop(image_id, None)
                elif now - self._unshown.setdefault(image_id, now) >= grace:
                    del self._images[image_id]
                    del self._unshown[image_id]


class Studio:
    """The studio's model of a project: games, faces, pages and problems, refreshed on every save."""

    def __init__(self, project: Project, names: list[str] | None = None, report: StudioReport | None = None,
                 debug: bool = False):
        self.project = project
        self.fixed_names = list(names or [])
        self.report = report
        self.debug = debug
        self.store = ImageStore()
        self.games: dict[str, GameState] = {}
        self._listeners: list[Callable[[dict], None]] = []
        self._saved: set[str] = set()  # files saved since the last refresh (their faces are drawn first)
        self._saved_lock = threading.Lock()
        self.worker = Worker(on_busy=lambda busy: self._emit({"type": "status", "busy": busy}))

    # -- events
    # ---------------------------------------------------------------------------------------------------
    def listen(self, callback: Callable[[dict], None]) -> None:
        """Call `callback(event)` (from the worker thread) on every change."""
        self._listeners.append(callback)

    def _emit(self, event: dict) -> None:
        for callback in list(self._listeners):
            callback(event)

    def versions(self) -> dict[str, int]:
        """The version of every game's state (a page compares it with the one it shows)."""
        return {name: state.version for name, state in self.games.items()}

    def _publish(self, state: GameState) -> None:
        state = replace(state, version=state.version + 1)
        self.games[state.id] = state
        self._prune()
        self._emit({"type": "game", "game": state.id, "version": state.version})

    # -- the jobs
    # -------------------------------------------------------------------------------------------------
    def names(self) -> list[str]:
        """The games shown: those named on the command line, else every game folder (new ones appear)."""
        return list(self.fixed_names) if self.fixed_names else self.project.game_ids()

    def start(self) -> None:
        """Load every game and draw every face and page, in the background."""
        self.worker.submit(REFRESH, self._guarded(self._refresh), key="refresh")

    def request_refresh(self, changed: list[str] | None = None) -> None:
        """A file was saved: refresh what changed (queued jobs are merged into one)."""
        if changed and self.report is not None:
            self.report.changed(changed)
        with self._saved_lock:
            self._saved.update(changed or [])
        self.worker.submit(REFRESH, self._guarded(self._refresh), key="refresh")

    def _guarded(self, job: Callable[[], None]) -> Callable[[], None]:
        """A job whose unexpected failure (a bug of ours) is shown in the banner instead of killing the
        thread."""
        def run() -> None:
            try:
                job()
            except Exception as exc:
                if self.debug:
                    traceback.print_exc()
                problem = Problem("", 0, f"internal error in the studio: {type(exc).__name__}: {exc} "
                                         "(run with --debug for the traceback)")
                for state in list(self.games.values()):
                    self._publish(replace(state, data_problems=[problem]))
        return run

    def translation(self, name: str, language: str) -> GameState | None:
        """The game in one of its other languages, as shown: loaded (and drawn) on first ask, then kept
        current with the source; None for a game or language the studio does not have."""
        source = self.games.get(name)
        if source is None or source.game is None or language not in source.game.languages:
            return None
        if language == source.game.source_language:
            return source
        key = f"{name}{LANGUAGE_MARK}{language}"
        if key in self.games:
            return self.games[key]

        def first_load() -> None:  # on the drawing thread, the one thread that changes `games`
            if key not in self.games:
                self.games[key] = GameState(key)
                self._reload_translation(key)

        self.worker.submit(REFRESH, self._guarded(first_load), key=f"lang:{key}")
        return GameState(key)  # shown as loading until it is published

    def _refresh(self) -> None:
        with self._saved_lock:
            saved, self._saved = self._saved, set()
        names = self.names()
        for gone in [n for n in self.games if n.partition(LANGUAGE_MARK)[0] not in names]:
            del self.games[gone]
        keys = game_keys(self.project, names, BuildOptions())
        first = [name for name in names if name not in self.games]
        for name in first:  # every game listed at once, drawn below
            self.games[name] = GameState(name)
        changed = [name for name in names if keys[name].content != self.games[name].content_key]
        for name in changed:
            self._reload(name, keys[name].content, saved)

    def _reload(self, name: str, content_key: str, saved: set[str] = frozenset()) -> None:
        started = time.perf_counter()
        state = replace(self.games[name], content_key=content_key)
        try:
            game = load_game(self.project, name)
            check_game(game)
            prints = facemod.fingerprints(game)
        except InputError as exc:
            self._publish(replace(state, data_problems=list(exc.problems)))
            if self.report is not None:
                self.report.failed(name, list(exc.problems))
            return
        self._show(name, state, game, prints, started, saved)
        for key in [k for k in self.games if k.partition(LANGUAGE_MARK)[0] == name and k != name]:
            self.worker.submit(REFRESH, self._guarded(lambda key=key: self._reload_translation(key)),
                               key=f"lang:{key}")

    def _reload_translation(self, key: str) -> None:
        """A translation shown in the studio: the source game in that language, its faces and pages drawn like
        the source's; the problems of its translation file in its banner."""
        name, _, language = key.partition(LANGUAGE_MARK)
        source = self.games.get(name)
        state = self.games.get(key)
        if source is None or source.game is None or state is None:
            return
        started = time.perf_counter()
        try:
            game, warnings, problems = translate_checked(source.game, language)
            if problems:
                raise InputError(problems)
            prints = facemod.fingerprints(game)
        except InputError as exc:
            self._publish(replace(state, data_problems=list(exc.problems)))
            return
        self._show(key, replace(state, content_key=source.content_key), game, prints, started, frozenset(),
                   [str(w) for w in warnings])

    def _show(self, name: str, state: GameState, game: Game, prints: dict[str, str], started: float,
              saved: set[str], warnings: list[str] | None = None) -> None:
        """Publish a loaded game (or translation) and draw the faces and pages whose inputs changed."""
        faces = {}
        for ref in facemod.faces_of(game):
            old = state.faces.get(ref.key)
            face = Face(ref, prints[ref.key], old.image if old else None, old.drawn if old else None)
            if not face.current and self.store.get(self._grid_id(face.fingerprint)) is not None:
                # drawn before (undo)
                face.image, face.drawn = self._grid_id(face.fingerprint), face.fingerprint
            faces[ref.key] = face
        state = replace(state, game=game, faces=faces, data_problems=[],
                        warnings=facemod.warnings(game) + (warnings or []))
        todo = [face for face in faces.values() if not face.current]
        if len(todo) > 8 or not state.rendered:  # a big redraw: show the new names and counts first
            self._publish(state)
        else:
            self.games[name] = state  # shown with the drawing below, in one update
        priority = REFRESH if state.rendered else FACES
        if todo:
            self.worker.submit(
                priority, self._guarded(lambda: self._draw_faces(name, game, todo, started, saved))
            )
        else:
            self._publish(replace(state, face_problems=[], rendered=True))
            self._report(name, 0, started)
        self.worker.submit(PAGES, self._guarded(lambda: self._draw_pages(name, game)), key=f"pages:{name}",
                           delay=PAGES_DELAY if state.rendered else 0.0)
        if len(game.languages) > 1 and not game.translated:
            self.worker.submit(PAGES, self._guarded(lambda: self._check_languages(name, game)),
                               key=f"languages:{name}", delay=PAGES_DELAY if state.rendered else 0.0)

    def _check_languages(self, name: str, game: Game) -> None:
        """The problems of the game's translation files (as a build finds them before drawing), in the banner
        beside the source language's, which they never stop from being shown."""
        state = self.games.get(name)
        if state is None or state.game is not game:
            return
        problems: list[Problem] = []
        for language in game.languages:
            if language == game.source_language:
                continue
            try:
                problems += translate_checked(game, language)[2]
            except InputError as exc:
                problems += exc.problems
        if problems == state.language_problems:
            return
        self._publish(replace(self.games[name], language_problems=problems))
        if problems and self.report is not None:
            self.report.failed(name, problems)

    def _draw_faces(self, name: str, game: Game, todo: list[Face], started: float,
                    saved: set[str] = frozenset()) -> None:
        """Draw the faces whose inputs changed: those written in the saved files first and shown at once (the
        card being edited), then the faces that changed with them (a renamed recipe printed on other
        cards)."""
        first = [face for face in todo if face.ref.shown_by.file in saved]
        batches = (
            [first, [face for face in todo if face not in first]] if 0 < len(first) < len(todo) else [todo]
        )
        drawn, problems = 0, []
        for batch in batches:
            state = self.games[name]
            if state.game is not game:
                return  # a newer edit replaced this game; its own job draws what it needs
            images, found = facemod.render_faces(game, [face.ref for face in batch])
            problems += found
            faces = dict(state.faces)
            for face in batch:
                if face.ref.key in images:
                    image_id = self._grid_id(face.fingerprint)
                    self.store.put(image_id, images[face.ref.key])
                    faces[face.ref.key] = replace(face, image=image_id, drawn=face.fingerprint)
            drawn += len(images)
            shown = problems if batch is batches[-1] else list(dict.fromkeys(state.face_problems + problems))
            self._publish(replace(state, faces=faces, face_problems=list(shown), rendered=True))
        if problems and self.report is not None:
            self.report.failed(name, problems)
        self._report(name, drawn, started)

    def _draw_pages(self, name: str, game: Game) -> None:
        state = self.games.get(name)
        if state is None or state.game is not game:
            return
        sets, problems = pagemod.printed_pages(game)
        if problems:  # keep the last good pages of a document that now fails
            kept = {s.name: s for s in state.pages}
            drawn = {s.name for s in sets}
            sets += [s for n, s in kept.items() if n not in drawn]
        images = {}
        old = {(s.name, s.fingerprint) for s in state.pages}
        for pages in sets:
            for index in range(len(pages.sizes)):
                image_id = f"{pages.fingerprint}-{index}"
                if (pages.name, pages.fingerprint) not in old or self.store.get(image_id) is None:
                    self.store.put(image_id, pagemod.render_page_png(pages, index, pages.grid_dpi(index)))
                images[(pages.name, index)] = image_id
        sets.sort(key=pagemod.page_order)
        if [(s.name, s.fingerprint) for s in sets] == [(s.name, s.fingerprint) for s in state.pages] \
                and problems == state.page_problems:
            return  # nothing a page shows has changed
        self._publish(replace(self.games[name], pages=sets, page_images=images, page_problems=problems))
        # said once, like the faces'
        if problems and problems != state.page_problems and self.report is not None:
            self.report.failed(name, problems)

    def _report(self, name: str, faces: int, started: float) -> None:
        if self.report is not None:
            self.report.updated(name, faces, time.perf_counter() - started)

    # -- images on demand
    # -----------------------------------------------------------------------------------------
    @staticmethod
    def _grid_id(fingerprint: str) -> str:
        return f"{fingerprint}-g"

    def face_image(self, name: str, key: str, large: bool = False, ink: str = "normal") -> str | None:
        """The id of a face's image at print resolution (`large`) or in the ink saver's colours, drawn now
        when needed (call from a thread, not the event loop); None when the face's current inputs do not
        draw."""
        state = self.games.get(name)
        face = state.faces.get(key) if state else None
        if face is None or not face.current or state.game is None:
            return None
        image_id = f"{face.fingerprint}-{VARIANTS[(large, ink)]}"
        if self.store.get(image_id) is None:
            game = state.game

            def draw() -> None:
                dpi = facemod.PRINT_DPI if large else facemod.GRID_DPI
                images, _problems = facemod.render_faces(game, [face.ref], dpi, ink)
                if face.ref.key in images:
                    self.store.put(image_id, images[face.ref.key], large=large)

            self.worker.submit(URGENT, self._guarded(draw)).result()
        return image_id if self.store.get(image_id) is not None else None

    def large_page(self, name: str, page_set: str, index: int) -> str | None:
        """The id of a page's large image, drawn now when needed (call from a thread, not the loop)."""
        state = self.games.get(name)
        pages = next((p for p in (state.pages if state else []) if p.name == page_set), None)
        if page_set == "balance":
            pages = self.balance(name)
        if pages is None or not 0 <= index < len(pages.sizes):
            return None
        image_id = f"{pages.fingerprint}-{index}-l"
        if self.store.get(image_id) is None:
            dpi = min(pagemod.LARGE_DPI, 2 * pages.grid_dpi(index))
            self.worker.submit(URGENT, lambda: self.store.put(
                image_id, pagemod.render_page_png(pages, index, dpi), large=True)).result()
        return image_id

    def balance(self, name: str) -> pagemod.PageSet | None:
        """The balance charts of the last `pnp validate`, read again when the file changed."""
        return pagemod.balance_pages(self.project.build_dir, name)

    def balance_images(self, name: str) -> list[str]:
        """Grid image ids of the balance chart pages (drawn now when new; call from a thread, not the
        loop)."""
        pages = self.balance(name)
        if pages is None:
            return []
        ids = [f"{pages.fingerprint}-{i}" for i in range(len(pages.sizes))]
        missing = [i for i, image_id in enumerate(ids) if self.store.get(image_id) is None]
        if missing:
            def draw() -> None:
                for i in missing:
                    self.store.put(ids[i], pagemod.render_page_png(pages, i, pages.grid_dpi(i)), large=True)
            self.worker.submit(URGENT, draw).result()
        return ids

    # -- housekeeping
    # ---------------------------------------------------------------------------------------------
    def _prune(self) -> None:
        wanted: set[str] = set()
        for state in list(self.games.values()):
            wanted |= {f.image for f in state.faces.values() if f.image} | set(state.page_images.values())
            wanted |= {f"{f.fingerprint}-s" for f in state.faces.values()}  # the ink saver's, drawn on demand
        self.store.keep_only(wanted)

    def idle(self) -> bool:
        """True when every game is loaded and drawn and nothing is queued."""
        return not self.worker.busy and all(s.rendered or s.data_problems for s in self.games.values())

    def stop(self) -> None:
        """Stop the drawing thread."""
        self.worker.stop()
