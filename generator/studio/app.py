"""The studio's web app (Starlette): the pages, the images, the event stream, and nothing outside the project.

Every route answers from the studio's in-memory state; drawing a large image is handed to the drawing thread
(`Studio.face_image`), which sync endpoints wait for in Starlette's thread pool, never on the event loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import re
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from generator.core.colour_vision import DEFICIENCIES, svg_matrix
from generator.core.errors import InputError, Problem
from generator.core.limits import MAX_SVG_BYTES, MAX_TEXT_BYTES, MAX_YAML_BYTES
from generator.data.project import ASSETS
from generator.pipeline.validation_record import read_record, record_path
from generator.studio import views
from generator.studio.events import Broker
from generator.studio.files import WORKBOOK_SUFFIXES, build_file, source_file
from generator.studio.guard import HostCheck, HostGuard
from generator.studio.jobs import KINDS as JOB_KINDS
from generator.studio.jobs import Jobs
from generator.studio.state import LANGUAGE_MARK, GameState, Studio

STUDIO_ASSETS = ASSETS / "studio"
IMAGE_ID = re.compile(r"^[0-9a-f]{20}(-\d+)?-[a-z]$|^[0-9a-f]{20}-\d+$")
FOREVER = {"Cache-Control": "public, max-age=31536000, immutable"}  # image ids change with their content
FRESH = {"Cache-Control": "no-store"}
# the most of a source file the studio reads to show it: the limit pnp reads that kind of file with
SHOWN_BYTES = {".yaml": MAX_YAML_BYTES, ".yml": MAX_YAML_BYTES, ".svg": MAX_SVG_BYTES}


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(STUDIO_ASSETS / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # the colour-vision view: one SVG filter per simulated deficiency, the matrices `pnp validate` uses
    env.globals["vision_filters"] = [(name, svg_matrix(name)) for name in DEFICIENCIES]
    return env


@dataclass(frozen=True)
class LiveSheetView:
    """A live sheet as the cards page lists it: its cache, where it is pulled from and how old the pull is."""

    cache: str
    url: str
    age: str
    where: views.Where


def _age(pulled_at: str | None, now: dt.datetime) -> str:
    """'pulled 5 minutes ago' from the time a pull was recorded."""
    if pulled_at is None:
        return "never pulled"
    try:
        seconds = (now - dt.datetime.fromisoformat(pulled_at)).total_seconds()
    except ValueError:
        return "pulled at an unknown time"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = int(seconds // size)
            return f"pulled {count} {unit}{'s' if count != 1 else ''} ago"
    return "pulled just now"


def _live_sheets(project, game_id: str, links: views.Links) -> list[LiveSheetView]:
    """The live sheets of a game with the age of each cache (none when a file that names one does not load:
    the banner says why)."""
    from generator.data.live_sheets import live_sheets, pulled_at

    try:
        sheets = live_sheets(project, game_id)
    except InputError:
        return []
    now = dt.datetime.now(dt.UTC)
    game_dir = project.game_dir(game_id)
    return [LiveSheetView(sheet.shown, sheet.url, _age(pulled_at(game_dir, sheet.cache), now),
                          links.where(sheet.file, sheet.line)) for sheet in sheets]


class StudioApp:
    """The routes over one Studio; `app` is the ASGI application."""

    def __init__(
        self, studio: Studio, editor: str = views.DEFAULT_EDITOR, guard: HostGuard | None = None,
        editor_schemes: tuple[str, ...] = (), debug: bool = False,
    ):
        self.studio = studio
        self.project = studio.project
        self.debug = debug
        self.links = views.Links(studio.project.root, editor, editor_schemes)
        self.broker = Broker()
        self.jobs = Jobs(studio.project.root, self.broker.publish)
        self.env = _environment()
        self.pulled: dict[str, list[str]] = {}  # game -> what its last "pull" said
        studio.listen(self.broker.publish)
        routes = [
            Route("/", self.index),
            Route("/g/{game}", self.cards),
            Route("/g/{game}/card/{deck}/{card}", self.card),
            Route("/g/{game}/pages/{name}", self.pages),
            Route("/g/{game}/components", self.components),
            Route("/g/{game}/validation", self.validation),
            Route("/g/{game}/print", self.print_page),
            Route("/g/{game}/jobs/{kind}", self.start_job, methods=["POST"]),
            Route("/g/{game}/pull", self.pull, methods=["POST"]),
            Route("/img/{image}.png", self.image),
            Route("/large/{game}/face/{deck}/{card}.png", self.face_variant),
            Route("/face/{game}/{deck}/{card}.png", self.face_variant),
            Route("/large/{game}/page/{name}/{index:int}.png", self.large_page),
            Route("/src/{path:path}", self.source),
            Route("/build/{path:path}", self.build_output),
            Route("/events", self.events),
            Route("/status", self.status),
            Mount("/static", StaticFiles(directory=STUDIO_ASSETS / "static"), name="static"),
        ]
        middleware = [Middleware(HostCheck, guard=guard or HostGuard()),
                      Middleware(_Contained, on_error=self._failed)]
        self.app = Starlette(routes=routes, middleware=middleware, lifespan=self._lifespan,
                             exception_handlers={404: self._not_found, InputError: self._refused})

    @asynccontextmanager
    async def _lifespan(self, _app):
        self.broker.bind(asyncio.get_running_loop())
        yield
        self.jobs.close()
        self.broker.close()

    # -- helpers
    # --------------------------------------------------------------------------------------------------
    def _page(self, template: str, status: int = 200, **context) -> HTMLResponse:
        games = self.studio.games
        context.setdefault("game_id", "")
        context.setdefault("state", None)
        state = context["state"]
        context.update(project_name=self.project.root.name, games=dict(games), busy=self.studio.worker.busy,
                       version=state.version if state else sum(s.version for s in games.values()),
                       problems=views.problem_views(state.problems, self.links) if state else [],
                       warnings=state.warnings if state else [], links=self.links)
        return HTMLResponse(
            self.env.get_template(template).render(**context), status_code=status, headers=FRESH
        )

    def _state(self, request: Request) -> GameState | None:
        """The game of the page's path: 'name' in its source language, 'name@cs' in a translation (?lang=cs
        says the same)."""
        name, _, language = request.path_params["game"].partition(LANGUAGE_MARK)
        language = language or request.query_params.get("lang", "")
        state = self.studio.games.get(name)
        if not language or state is None:
            return state
        return self.studio.translation(name, language)

    async def _not_found(self, request: Request, exc) -> Response:  # noqa: ARG002 - Starlette handler
        return self._page("not_found.html", status=404, path=request.url.path)

    async def _refused(self, request: Request, exc: InputError) -> Response:
        """Bad input met while answering one request: that request's 422, with the located lines."""
        return self._error_page(request, 422, exc.problems)

    async def _failed(self, request: Request, exc: Exception) -> Response:
        """Our own bug while answering one request: that request's 500 with a banner; the studio goes on."""
        if self.debug:
            import traceback

            traceback.print_exception(exc)
        problem = Problem("", 0, f"internal error while answering {request.url.path}: {type(exc).__name__}: "
                                 f"{exc} (pnp serve --debug prints the traceback)")
        return self._error_page(request, 500, [problem])

    def _error_page(self, request: Request, status: int, problems: list[Problem]) -> Response:
        try:
            return self._page("error.html", status=status, path=request.url.path,
                              failures=views.problem_views(problems, self.links))
        except Exception:  # noqa: BLE001 - the page itself failed: still answer, in plain text
            return Response("\n".join(str(p) for p in problems), status_code=status, media_type="text/plain")

    def _missing(self, request: Request) -> Response:
        return self._page("not_found.html", status=404, path=request.url.path)

    # -- pages
    # ----------------------------------------------------------------------------------------------------
    async def index(self, request: Request) -> Response:  # noqa: ARG002 - Starlette route handler
        games = []
        for name, state in list(self.studio.games.items()):
            if LANGUAGE_MARK in name:  # a translation: reached from its game's pages
                continue
            decks = views.deck_views(state, self.links)
            games.append({"id": name, "state": state, "decks": decks,
                          "thumbs": [deck.tiles[0] for deck in decks if deck.tiles][:6],
                          "problems": views.problem_views(state.problems, self.links)})
        return self._page("index.html", game_list=games)

    async def cards(self, request: Request) -> Response:
        state = self._state(request)
        if state is None:
            return self._missing(request)
        return self._page("cards.html", state=state, game_id=state.id, tab="cards",
                          decks=views.deck_views(state, self.links), fields=views.filter_fields(state.game),
                          selected_deck=request.query_params.get("deck", ""),
                          live=_live_sheets(self.project, state.id, self.links),
                          pulled=self.pulled.get(state.id))

    async def pull(self, request: Request) -> Response:
        """The "pull" button: download the game's live sheets into their caches, then rebuild (a page of
        another site cannot press it: its Origin is not this studio's)."""
        state = self._state(request)
        if state is None:
            return self._missing(request)
        origin = request.headers.get("origin")
        if origin and origin.split("://", 1)[-1] != request.headers.get("host"):
            return Response("403: a pull is started from the studio's own page", status_code=403)
        from starlette.concurrency import run_in_threadpool

        from generator.data.live_sheets import pull_game

        try:
            done = await run_in_threadpool(pull_game, self.project, state.id)
            changed = sum(1 for _sheet, new in done if new)
            self.pulled[state.id] = [f"pulled {len(done)} live sheet{'s' if len(done) != 1 else ''}, "
                                     f"{changed} changed"]
        except InputError as exc:  # each sheet's located line; their last good caches are kept
            self.pulled[state.id] = [str(problem) for problem in exc.problems]
        self.studio.request_refresh()
        return Response(status_code=303, headers={"Location": f"/g/{state.id}", **FRESH})

    async def card(self, request: Request) -> Response:
        state = self._state(request)
        p = request.path_params
        detail = views.card_detail(state, self.links, p["deck"], p["card"]) if state else None
        if detail is None:
            return self._missing(request)
        face = state.faces[detail.tile.key]
        large = (
            f"/large/{state.id}/face/{p['deck']}/{p['card']}.png?v={face.fingerprint}"
            if face.current
            else None
        )
        return self._page("card.html", state=state, game_id=state.id, tab="cards", detail=detail, large=large)

    async def pages(self, request: Request) -> Response:
        state = self._state(request)
        name = request.path_params["name"]
        pages = next((s for s in state.pages if s.name == name), None) if state else None
        if pages is None and state is not None and state.language and not state.rendered:
            # a translation opened for the first time: its pages are being drawn; the page follows live
            return self._page("cards.html", state=state, game_id=state.id, tab="cards", decks=[], fields=[],
                              selected_deck="")
        if pages is None:
            return self._missing(request)
        images = [views.Links.image(state.page_images.get((name, i))) for i in range(len(pages.sizes))]
        built = build_file(self.project, pages.path) is not None
        return self._page(
            "pages.html",
            state=state,
            game_id=state.id,
            tab=name,
            pages=pages,
            images=images,
            built=built,
            large=[
                f"/large/{state.id}/page/{name}/{i}.png?v={pages.fingerprint}"
                for i in range(len(pages.sizes))
            ],
        )

    async def components(self, request: Request) -> Response:
        from generator.data.inventory import inventory

        state = self._state(request)
        if state is None:
            return self._missing(request)
        lines = inventory(state.game) if state.game else []
        return self._page("components.html", state=state, game_id=state.id, tab="components", lines=lines,
                          decks=views.deck_views(state, self.links))

    def validation(self, request: Request) -> Response:  # sync: may draw the charts (thread pool)
        state = self._state(request)
        if state is None:
            return self._missing(request)
        record = read_record(self.project.build_dir, state.name)
        charts = self.studio.balance_images(state.name) if record and record.get("balance_pdf") else []
        ran = None
        if record:
            stamp = record_path(self.project.build_dir, state.name).stat().st_mtime
            ran = time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))
        return self._page("validation.html", state=state, game_id=state.id, tab="validation", record=record,
                          charts=[views.Links.image(c) for c in charts], ran=ran)

    def print_page(self, request: Request) -> Response:  # sync: reads the manifest
        state = self._state(request)
        if state is None:
            return self._missing(request)
        job = self.jobs.last if self.jobs.last is not None and self.jobs.last.game == state.name else None
        return self._page("print.html", state=state, game_id=state.id, tab="print", job=job,
                          files=views.game_files(self.project.build_dir, state.name))

    async def start_job(self, request: Request) -> Response:
        """POST /g/GAME/jobs/build|validate: start the command; its lines and its end come as events."""
        state = self._state(request)
        kind = request.path_params["kind"]
        if state is None or kind not in JOB_KINDS:
            return JSONResponse({"error": "no such game or job"}, status_code=404, headers=FRESH)
        job = self.jobs.start(kind, state.name)  # a build or validation covers every language
        if job is None:
            running = self.jobs.last
            return JSONResponse({"error": f"pnp {running.kind} {running.game} is still running"},
                                status_code=409, headers=FRESH)
        return JSONResponse(job.as_event(), status_code=202, headers=FRESH)

    # -- images and files
    # -----------------------------------------------------------------------------------------
    async def image(self, request: Request) -> Response:
        image_id = request.path_params["image"]
        data = self.studio.store.get(image_id) if IMAGE_ID.match(image_id) else None
        if data is None:
            return self._missing(request)
        return Response(data, media_type="image/png", headers=FOREVER)

    def face_variant(self, request: Request) -> Response:  # sync: may draw (thread pool)
        """A face at print resolution (/large/...) or in the ink saver's colours (?ink=saver), drawn on
        demand."""
        p = request.path_params
        ink = "saver" if request.query_params.get("ink") == "saver" else "normal"
        large = request.url.path.startswith("/large/")
        image_id = self.studio.face_image(p["game"], f"{p['deck']}/{p['card']}", large, ink)
        data = self.studio.store.get(image_id) if image_id else None
        if data is None:
            return self._missing(request)
        return Response(
            data, media_type="image/png", headers=FOREVER if "v" in request.query_params else FRESH
        )

    def large_page(self, request: Request) -> Response:
        p = request.path_params
        image_id = self.studio.large_page(p["game"], p["name"], p["index"])
        data = self.studio.store.get(image_id) if image_id else None
        if data is None:
            return self._missing(request)
        return Response(
            data, media_type="image/png", headers=FOREVER if "v" in request.query_params else FRESH
        )

    def source(self, request: Request) -> Response:  # sync: reads the file (thread pool)
        path = request.path_params["path"]
        found = source_file(self.project, path)
        if found is None:
            return self._missing(request)
        if found.suffix.lower() in WORKBOOK_SUFFIXES:
            return self._sheet(request, found)
        text = _read_shown(found, self.project.show(found))
        lines = [(n, html.escape(line)) for n, line in enumerate(text.splitlines(), start=1)]
        return self._page("source.html", path=self.project.show(found), lines=lines,
                          editor=self.links.where(self.project.show(found), 1))

    def _sheet(self, request: Request, found: Path) -> Response:
        """One sheet of a workbook as a table with the spreadsheet's column letters and row numbers, each cell
        anchored by its name ('Karty!G3'), so a card's link opens at its cell."""
        from generator.data.spreadsheet import column_letter, read_grid

        shown = self.project.show(found)
        try:
            grid = read_grid(found, shown, request.query_params.get("sheet"))
        except InputError as exc:  # a sheet the link names no more, a damaged workbook: said on the page
            return self._page("sheet.html", path=shown, sheet=None, letters=[], rows=[], error=str(exc))
        width = max((len(row) for row in grid.rows), default=0)
        letters = [column_letter(col) for col in range(width)]
        rows = [(line, [_shown_cell(value) for value in row] + [""] * (width - len(row)))
                for line, row in zip(grid.lines, grid.rows, strict=True)]
        return self._page("sheet.html", path=shown, sheet=grid.sheet, letters=letters, rows=rows, error=None)

    async def build_output(self, request: Request) -> Response:
        found = build_file(self.project, request.path_params["path"])
        if found is None:
            return self._missing(request)
        return FileResponse(found, headers=FRESH)

    # -- live
    # -----------------------------------------------------------------------------------------------------
    def _hello(self) -> dict:
        return {"type": "hello", "versions": self.studio.versions(), "busy": self.studio.worker.busy}

    async def events(self, request: Request) -> Response:  # noqa: ARG002 - Starlette route handler
        return StreamingResponse(self.broker.stream(self._hello), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def status(self, request: Request) -> Response:  # noqa: ARG002 - Starlette route handler
        return JSONResponse(
            {
                "idle": self.studio.idle(),
                **self._hello(),
                "problems": {n: [str(p) for p in s.problems] for n, s in self.studio.games.items()},
            },
            headers=FRESH,
        )


class _Contained:
    """ASGI middleware: an exception of one request is that request's 500 page, never the server's end (and
    no traceback on the terminal unless --debug)."""

    def __init__(self, app, on_error):
        self.app = app
        self.on_error = on_error

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:  # noqa: BLE001 - contained to this request, reported on its page
            if started:  # part of the answer has gone: end it, the page sees a cut response
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            response = await self.on_error(Request(scope), exc)
            await response(scope, receive, send)


def _read_shown(path: Path, shown: str) -> str:
    """The text of a source file to show, or a located InputError (a 422 page) when it is larger than pnp
    reads that kind of file: never more than that limit is read, however large the file is or grows."""
    limit = SHOWN_BYTES.get(path.suffix.lower(), MAX_TEXT_BYTES)
    with path.open("rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError(Problem(shown, 0, f"the file is larger than {limit:,} bytes, the most pnp reads of "
                                           "this kind of file; the studio does not show it"))
    return data.decode("utf-8", errors="replace")


def _shown_cell(value) -> str:
    """A cell as the spreadsheet shows it: 2, not the 2.0 a workbook stores."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def create_app(studio: Studio, editor: str = views.DEFAULT_EDITOR, host: str = "127.0.0.1",
               allow_hosts: tuple[str, ...] = (), editor_schemes: tuple[str, ...] = (),
               debug: bool = False) -> StudioApp:
    """The studio's ASGI app; whatever address it listens on, only requests naming one of its own hosts are
    answered (a web page elsewhere cannot reach it through a DNS name pointed at this machine)."""
    return StudioApp(studio, editor, HostGuard(host, allow_hosts), editor_schemes, debug)
