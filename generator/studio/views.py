"""What each studio page shows, as plain data for its template: tiles of faces, fields, problems, links.

Nothing here draws or reads files; it turns a GameState (generator.studio.state) into what a designer reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from generator.core.errors import Cell, InputError, Problem
from generator.data.game import Card, Deck, Game
from generator.data.models import CARD_KEYS
from generator.studio.faces import FaceRef, face_page_size
from generator.studio.state import Face, GameState

DEFAULT_EDITOR = "vscode://file/{path}:{line}"
# URL schemes that open a file in an editor; --editor-scheme NAME adds another. A link runs in the studio's
# page, so a scheme that runs or embeds content there (javascript:, data:, vbscript:) is refused even then.
EDITOR_SCHEMES = ("vscode", "vscode-insiders", "vscodium", "cursor", "windsurf", "idea", "pycharm",
                  "webstorm", "jetbrains", "subl", "txmt", "mvim", "zed", "nova", "atom", "emacs",
                  "org-protocol", "kate")
NEVER_EDITOR_SCHEMES = ("javascript", "data", "vbscript", "blob", "about")
CORE_FIELDS = (*CARD_KEYS, "code", "deck")  # what a card is beside its deck's fields


@dataclass
class Where:
    """A located place in a source file, with the links that open it."""

    shown: str          # 'cards/x/orders.yaml:14'
    editor: str         # the designer's editor (vscode://file/...)
    view: str           # the studio's own source view


@dataclass
class ProblemView:
    """One problem of the banner."""

    where: Where | None
    message: str
    text: str           # the whole located line, as the terminal prints it


@dataclass
class Tile:
    """One face in a grid."""

    key: str
    deck: str
    code: str
    name: str
    copies: int
    detail_url: str
    image_url: str | None
    current: bool
    problems: list[str] = field(default_factory=list)
    search: str = ""
    fields: str = "{}"     # JSON: field -> value, for the field filter
    back: bool = False
    shared: bool = False   # a back several card types show
    ink_url: str | None = None  # the same face as the ink saver prints it (drawn when first asked for)


@dataclass
class DeckView:
    """A deck heading and its tiles."""

    id: str
    name: str
    code: str
    card_types: int
    copies: int
    description: str
    where: Where
    geometry: str      # CSS custom properties: trim, bleed and safe zone in mm
    tiles: list[Tile]


class Links:
    """How source places and images are linked: the editor URL scheme and the studio's own URLs."""

    def __init__(self, project_root: Path, editor: str = DEFAULT_EDITOR, extra_schemes: tuple[str, ...] = ()):
        self.root = project_root.resolve()
        self.editor_template = editor or DEFAULT_EDITOR
        editor_scheme(self.editor_template, extra_schemes)
        try:
            self.editor_template.format(path="/x", line=1, file="x")
        except (KeyError, IndexError, ValueError) as exc:
            raise InputError(
                Problem(
                    "",
                    0,
                    f"--editor '{self.editor_template}': cannot fill in {exc}; expected a "
                    "URL with {path} (the file's absolute path) and {line}, e.g. "
                    f"{DEFAULT_EDITOR}",
                )
            ) from None

    def where(self, file: str, line: int = 0) -> Where:
        """Links to `file` (shown relative to the project) at `line`; a workbook's cell (a Cell: 'Karty!G3')
        opens the studio's table of that sheet at the cell (no editor opens a workbook at a cell)."""
        cell = getattr(line, "cell", None)
        if cell:
            sheet = cell.rpartition("!")[0]
            view = f"/src/{quote(file)}?sheet={quote(sheet, safe='')}#{quote(cell, safe='!')}"
            return Where(f"{file}:{cell}", view, view)
        absolute = (self.root / file).as_posix()
        editor = self.editor_template.format(path=quote(absolute, safe="/:"), line=max(line, 1), file=file)
        shown = f"{file}:{line}" if line else file
        return Where(shown, editor, f"/src/{quote(file)}" + (f"#L{line}" if line else ""))

    @staticmethod
    def image(image_id: str | None) -> str | None:
        return f"/img/{image_id}.png" if image_id else None


def editor_scheme(template: str, extra_schemes: tuple[str, ...] = ()) -> str:
    """The URL scheme of an --editor template when it is an editor's, else a located InputError (one line)."""
    scheme, colon, _ = template.partition(":")
    allowed = (*EDITOR_SCHEMES, *(s.strip().lower().rstrip(":") for s in extra_schemes))
    named = scheme.strip().lower()
    for extra in extra_schemes:
        if extra.strip().lower().rstrip(":") in NEVER_EDITOR_SCHEMES:
            raise InputError(Problem("", 0, f"--editor-scheme {extra}: a {extra.rstrip(':')}: link runs "
                                            "in the studio's page, not in an editor; expected an editor's "
                                            "URL scheme"))
    if not colon or named in NEVER_EDITOR_SCHEMES or named not in allowed:
        why = (f"a {named}: link runs in the studio's page, not in an editor" if named in NEVER_EDITOR_SCHEMES
               else f"'{scheme}' is not an editor's URL scheme" if colon else "it has no URL scheme")
        raise InputError(Problem("", 0, f"--editor '{template}': {why}; expected one of "
                                        f"{', '.join(EDITOR_SCHEMES)} (--editor-scheme NAME allows another), "
                                        f"e.g. {DEFAULT_EDITOR}"))
    return named


def problem_views(problems: list[Problem], links: Links) -> list[ProblemView]:
    """The banner's lines: each located problem with links to its file and line."""
    return [ProblemView(links.where(p.file, Cell(p.line, p.cell) if p.cell else p.line) if p.file else None,
                        p.message, str(p)) for p in problems]


def _mm(points: float) -> float:
    return round(points / 72 * 25.4, 3)


def geometry(game: Game, deck: Deck) -> str:
    """CSS custom properties of a deck's faces: trim width/height, bleed and safe margin in mm."""
    tw, th = deck.size_pt
    width, height = face_page_size(game, deck)
    return (f"--tw:{_mm(tw)};--th:{_mm(th)};--b:{_mm(game.bleed_pt)};--s:{_mm(game.safe_pt)};"
            f"--fw:{_mm(width)};--fh:{_mm(height)}")


def card_fields(card: Card) -> dict:
    """A card's own data fields (not id, name, copies...), without empty values."""
    return {k: v for k, v in card.as_dict().items() if k not in CORE_FIELDS and v is not None}


def _plain(value) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    return str(value)


def concerns(problem: Problem, face: FaceRef, next_line: int | None) -> bool:
    """True when a problem is about this face: written inside the card's lines, or naming the face."""
    if face.back is not None:
        if face.back.card is not None:
            return f"the back of card {face.back.card.code} " in problem.message
        return f"the back of deck '{face.deck.id}'" in problem.message or (
            any(f"the back of card {card.code} " in problem.message for card in face.back.cards))
    card = face.card
    if (
        problem.file == card.file
        and card.line <= problem.line
        and (next_line is None or problem.line < next_line)
    ):
        return True
    return problem.message.startswith(f"card {card.code} ") or f": card {card.code} " in problem.message


def _back_tile(game: str, face: Face, problems: list[str]) -> Tile:
    back, deck = face.ref.back, face.ref.deck
    copies = sum(card.copies for card in back.cards)
    if back.card is not None:  # a back drawn for one card
        code, name, search = f"back {back.card.code}", f"back of {back.card.name}", back.card.name
    else:
        code = "back" if back.key == "B" else f"back: {back.layout}"
        name = (
            f"{deck.name}: back"
            if len(back.cards) == len(deck.cards)
            else f"back of {len(back.cards)} card types"
        )
        search = " ".join(card.name for card in back.cards) if back.key != "B" else ""
    return Tile(face.ref.key, deck.id, code, name, copies, f"/g/{game}/card/{face.ref.key}",
                Links.image(face.image), face.current, problems,
                f"back {deck.name} {deck.id} {back.layout} {search}".lower(), "{}", back=True,
                shared=back.card is None)


def _tile(state: GameState, face: Face, problems: list[Problem], next_line: int | None) -> Tile:
    tile = _face_tile(state, face, problems, next_line)
    if face.current:
        tile.ink_url = f"/face/{state.id}/{face.ref.key}.png?v={face.fingerprint}&ink=saver"
    return tile


def _face_tile(state: GameState, face: Face, problems: list[Problem], next_line: int | None) -> Tile:
    mine = [str(p) for p in problems if concerns(p, face.ref, next_line)]
    if face.ref.back is not None:
        return _back_tile(state.id, face, mine)
    card, deck = face.ref.card, face.ref.deck
    data = {"id": card.id, "name": card.name, "copies": card.copies, "code": card.code,
            **{k: v for k, v in card.as_dict().items() if k in ("layout", "back", "icon", "image") and v},
            **card_fields(card)}
    search = " ".join(
        [card.code, card.name, card.id, deck.name] + [_plain(v) for v in card_fields(card).values()]
    )
    return Tile(
        face.ref.key,
        deck.id,
        card.code,
        card.name,
        card.copies,
        f"/g/{state.id}/card/{face.ref.key}",
        Links.image(face.image),
        face.current,
        mine,
        search.lower(),
        json.dumps(
            {k: v if isinstance(v, (list, int, float)) else _plain(v) for k, v in data.items()},
            ensure_ascii=False,
        ),
    )


def deck_views(state: GameState, links: Links) -> list[DeckView]:
    """Every deck of the game: a tile per card type, then one per drawn back."""
    game = state.game
    if game is None:
        return []
    problems = state.problems
    by_deck: dict[str, list[Face]] = {}
    for face in state.faces.values():
        by_deck.setdefault(face.ref.deck.id, []).append(face)
    views = []
    for deck in game.decks.values():
        lines = {card.id: (deck.cards[i + 1].line if i + 1 < len(deck.cards) else None)
                 for i, card in enumerate(deck.cards)}
        tiles = [_tile(state, face, problems, lines.get(face.ref.card.id) if face.ref.card else None)
                 for face in by_deck.get(deck.id, [])]
        views.append(DeckView(deck.id, deck.name, deck.code, len(deck.cards), deck.copies, deck.description,
                              links.where(deck.file, deck.line), geometry(game, deck), tiles))
    return views


def filter_fields(game: Game | None) -> list[str]:
    """The fields a designer can filter on: every deck's declared fields, then copies, layout and icon."""
    if game is None:
        return []
    names: dict[str, None] = {}
    for deck in game.decks.values():
        names.update(dict.fromkeys(deck.field_specs))
    return sorted(names) + ["copies", "layout", "icon"]


def _field_where(links: Links, card: Card, deck: Deck, name: str) -> Where:
    """Where a card's value was written: its own line, else the deck's default (`layout:` or the field's
    declaration with its `default`)."""
    if name in card.key_lines:
        return links.where(card.file, card.line_of(name))
    if name in deck.key_lines:
        return links.where(deck.file, deck.key_lines[name])
    if name in deck.field_lines:
        return links.where(deck.file, deck.field_lines[name])
    return links.where(card.file, card.line)


@dataclass
class CardDetail:
    """The large view of one face: its fields and where every one of them was written."""

    deck: DeckView
    tile: Tile
    fields: list[tuple[str, str, Where | None]]
    source: Where
    layout: Where | None
    layout_name: str
    previous: str | None
    next: str | None
    size_text: str


def card_detail(state: GameState, links: Links, deck_id: str, face_id: str) -> CardDetail | None:
    """The detail of a face ('<card id>' or a back's '@back...'), or None when there is no such face."""
    decks = {view.id: view for view in deck_views(state, links)}
    game = state.game
    key = f"{deck_id}/{face_id}"
    if game is None or deck_id not in decks or key not in state.faces:
        return None
    view, deck, ref = decks[deck_id], game.decks[deck_id], state.faces[key].ref
    keys = [tile.key for tile in view.tiles]
    at = keys.index(key)
    tile = view.tiles[at]
    previous = view.tiles[at - 1].detail_url if at > 0 else None
    following = view.tiles[at + 1].detail_url if at + 1 < len(view.tiles) else None
    from generator.faces.face import renderer_for  # the layout the renderer resolved for this face

    renderer = renderer_for(game)
    tw, th = deck.size_pt
    size = (f"{_mm(tw):g} \u00d7 {_mm(th):g} mm trim, {_mm(game.bleed_pt):g} mm bleed, {_mm(game.safe_pt):g} "
            "mm safe zone")
    if ref.back is not None:
        first = ref.back.cards[0]
        layout = renderer.back_layout(deck, first)
        named = links.where(first.file, first.line_of("back")) if first.back else \
            links.where(deck.file, deck.key_lines.get("back", deck.line))
        shown = ("all " + str(len(deck.cards)) + " card types" if len(ref.back.cards) == len(deck.cards)
                 else ", ".join(card.code for card in ref.back.cards))
        fields = [
            ("deck", deck.name, links.where(deck.file, deck.line)),
            ("back layout", ref.back.layout, named),
            ("on the back of", shown, None),
            ("printed", f"{sum(card.copies for card in ref.back.cards)} cards show this back", None),
        ]
        source = (
            links.where(first.file, first.line)
            if ref.back.card is not None
            else links.where(deck.file, deck.line)
        )
        return CardDetail(
            view, tile, fields, source, links.where(layout.file, 1), layout.name, previous, following, size
        )
    card = ref.card
    layout = renderer.front_layout(card)
    fields = [("code", card.code, None), ("name", card.name, links.where(card.file, card.line_of("name"))),
              ("copies", str(card.copies), links.where(card.file, card.line_of("copies")))]
    for name in ("layout", "back", "icon", "image"):
        value = getattr(card, name)
        if value:
            fields.append((name, str(value), _field_where(links, card, deck, name)))
    for name, value in card_fields(card).items():
        fields.append((name, _plain(value), _field_where(links, card, deck, name)))
    return CardDetail(view, tile, fields, links.where(card.file, card.line), links.where(layout.file, 1),
                      layout.name, previous, following, size)


@dataclass
class OutputFile:
    """A file pnp wrote for a game, as the print page lists it."""

    path: str           # relative to build/
    url: str            # the studio's link to it (/build/...)
    what: str           # 'card sheets, 12 pages', 'Tabletop Simulator export (14 files)'
    size: str           # '1.2 MB'


def _size_text(count: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB"):
        if count < 1000 or unit == "GB":
            return f"{count:.0f} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1000
    return f"{count:.1f} GB"


EXPORT_FOLDERS = {"png": "card and piece PNGs (pnp export png)",
                  "pod": "print-shop upload (pnp export pod)",
                  "tts": "Tabletop Simulator export (pnp export tts)",
                  "preview": "contact sheets (pnp preview)"}


def game_files(build_dir: Path, game_id: str) -> list[OutputFile]:
    """The game's outputs of the last build (from build/manifest.json, in its order), then what validate and
    the exports wrote into build/<game>/ (balance report, export folders)."""
    try:
        manifest = json.loads((build_dir / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    files, listed = [], set()
    for entry in manifest.get("outputs", []) if isinstance(manifest, dict) else []:
        path = str(entry.get("path", ""))
        if entry.get("game") != game_id or not (build_dir / path).is_file():
            continue
        listed.add(path)
        pages = entry.get("pages")
        what = f"{entry.get('kind', 'output')}{f', {pages} pages' if pages else ''}"
        if entry.get("language"):
            what += f" ({entry['language']})"
        files.append(OutputFile(path, "/build/" + quote(path), what, _size_text(entry.get("bytes", 0))))
    folder = build_dir / game_id
    for found in sorted(folder.glob("*.pdf")) if folder.is_dir() else []:
        path = f"{game_id}/{found.name}"
        if path not in listed:
            files.append(OutputFile(path, "/build/" + quote(path), "report of pnp validate or sweep",
                                    _size_text(found.stat().st_size)))
    for name, what in EXPORT_FOLDERS.items():
        where = folder / name
        inside = sorted(p for p in where.rglob("*") if p.is_file()) if where.is_dir() else []
        if inside:
            first = inside[0].relative_to(build_dir).as_posix()
            files.append(OutputFile(f"{game_id}/{name}/", "/build/" + quote(first),
                                    f"{what}, {len(inside)} files",
                                    _size_text(sum(p.stat().st_size for p in inside))))
    return files
