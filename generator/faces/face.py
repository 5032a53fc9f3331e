"""Drawing one card face or back from its layout; each face becomes a PDF Form XObject drawn once per canvas,
or on the card sheets, where a face placed once is written into its page, operators from a `FaceList`.

Public API (used by the card sheets, rule booklets and PNG exports):
- `draw_front(canvas, game, card, x, y, bleed=True)` / `draw_back(canvas, game, deck, x, y, bleed=True,
card=None)`:
  (x, y) is the lower-left corner of the bleed box; with bleed=False the card is clipped to its trim box and
  (x, y) is the trim's lower-left corner. `draw_back` draws the back `card` shows (generator.faces.backs);
  without a card, the deck's usual back.
- `render_card_pdf(game, card_or_deck, path, side='front'|'back', bleed_pt=None)`: a one-page PDF of trim +
bleed
  with TrimBox and BleedBox set.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import weakref
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from generator.core.caching import per_game
from generator.core.colours import contrast_ratio
from generator.core.errors import InputError, Problem, Problems
from generator.core.fonts import BODY, register_fonts
from generator.core.fontstates import carry_fonts, font_states
from generator.core.formresources import end_form
from generator.core.geometry import Rect
from generator.core.pdfimages import EncodedImage, ImageXObject, embed_image
from generator.core.pdfstream import form_made
from generator.core.units import mm, to_pt
from generator.core.yamlio import load_yaml
from generator.data.fonts import unknown_font
from generator.data.game import Card, Deck, Game
from generator.data.revision import build_date, content_revision
from generator.data.templating import GameHelpers, View, game_view
from generator.faces import icons, inksaver
from generator.faces.backs import BackFace, back_name, group_backs, layout_uses_card
from generator.faces.boxes import BOX_KINDS
from generator.faces.boxes.base import Box, BoxKind, Drawing, Resolved, unlisted
from generator.faces.boxes.shape import Panels
from generator.faces.facecache import FaceStore
from generator.faces.layout import PLAIN_BACK, Layout, LayoutLoader, find_layout
from generator.faces.outline import check_inside
from generator.faces.paint import PAPER, Paint, backdrop
from generator.faces.revisions import (
    PLACEHOLDER,
    STAMP_BOX,
    FileDigests,
    card_revision,
    face_part,
    mentions_version,
)
from generator.faces.text import TemplateProblem, Templates, card_helpers

PLAYERS_MARK = "players"  # the box that prints a card's `players:` (a layout may give its own)

EDGE_TOL = 0.01


class CardRenderer:
    """Everything needed to draw a game's cards: layouts (resolved once), templates (compiled once), helpers,
    and an instance of each box kind (generator.faces.boxes), which resolves and draws its boxes and keeps its
    caches."""

    def __init__(self, game: Game):
        register_fonts()
        self.game = game
        self.fonts = game.fonts
        self.bleed = game.bleed_pt
        self.safe = game.safe_pt
        self.icons = icons.IconSource(game.project.icon_dirs(game.id), game.project)
        self.view = game_view(game)
        self.templates = Templates(GameHelpers(game, self.view).functions()
                                   | card_helpers(self.icons.inline_markup, self.icons.problem))
        words = game.translation.box_texts() if game.translation is not None else None
        self.loader = LayoutLoader(game.project.layout_dirs(game.id), game.show, game.project, words)
        self._layouts: dict[tuple[str, str], Layout] = {}
        self._marked: dict[tuple[str, str], Layout] = {}  # front layouts, with the players mark if any
        self._forms: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.panels = Panels()  # the fills and outlines of boxes of any kind, recorded once per canvas
        self.kinds: dict[str, BoxKind] = {name: kind(self) for name, kind in BOX_KINDS.items()}
        self._resolved: dict[str, list] = {}
        self._backs: dict[str, list[BackFace]] = {}
        self._back_of: dict[str, dict[int, BackFace]] = {}  # deck id -> card index -> the back it shows
        self.checked = False  # `check` went through without a problem
        self._colours: set[str] = set()  # colour values that passed the check
        # canvases after which no drawing needs `_resolved`
        self._last_use: weakref.WeakSet = weakref.WeakSet()
        # located, for the build's output and the manifest (low-resolution images)
        self.warnings: list[str] = []
        # the card sheets' faces drawn once for every paper, per ink (`face_list`); the canvases placing them
        self._face_lists: dict[str, FaceList] = {}
        self._placing: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # version stamps (generator.faces.revisions): while `_hashing`, the version values read as
        # placeholders; each card's revision, worked out once from its faces so read
        self._hashing = False
        self._neutral: dict[str, list] = {}  # faces with a box that read a version value, as hashed
        self._revisions: dict[tuple[str, int], str] = {}
        self._build: View | None = None
        self._stamped: dict[tuple[str, str, str], Layout] = {}
        self.files = FileDigests()
        self._versioned: set[str] = set()  # the faces whose `_resolved` are not as hashed
        self._rects: dict[tuple, tuple[Box, tuple]] = {}  # (id(box), card size) -> (box, `_placed_rect`)
        self._mentions: dict[int, tuple[Box, bool]] = {}  # id(box) -> (box, whether it reads a version)
        self._apart: dict[str, bytes] = {}  # faces checked by a helper process: their hashes for the digest
        self._digest: str | None = None  # `drawn_digest` as kept before the faces were drawn

    def kind(self, box: Box) -> BoxKind:
        """This renderer's instance of the box's kind; InputError at the box when BOX_KINDS does not list
        it."""
        try:
            return self.kinds[box.kind]
        except KeyError:
            raise InputError(unlisted(box, BOX_KINDS)) from None

    # -- layouts
    # -------------------------------------------------------------------------------------------------
    def size(self, deck: Deck) -> tuple[float, float]:
        """Trim width and height of the deck's cards in points."""
        return deck.size_pt

    def _layout(self, name: str, deck: Deck, wanted_by: Problem) -> Layout:
        key = (name, deck.id)
        if key not in self._layouts:
            w, h = self.size(deck)
            layout = self.loader.resolve(name, w, h, self.bleed, self.safe, wanted_by)
            if deck.shape is not None:  # round and hex cards: text and icons stay inside the outline
                problems = Problems()
                check_inside(deck.shape, layout, f"deck '{deck.id}'", problems)
                problems.raise_if_any()
            unknown = [
                Problem(box.file, box.line, unknown_font(name, self.fonts))
                for box in layout.boxes
                for name in self.kind(box).fonts(box)
                if self.fonts.get(name) is None
            ]
            if unknown:
                raise InputError(unknown)
            self._layouts[key] = layout
        return self._layouts[key]

    def front_layout(self, card: Card) -> Layout:
        """The card's own `layout:`, else the deck's, else the layout named like the deck."""
        deck = self.game.decks[card.deck]
        name = card.layout or deck.layout or deck.id
        if "layout" in card.key_lines:
            where = Problem(card.file, card.line_of("layout"), "")
        else:
            where = Problem(deck.file, deck.key_lines.get("layout", deck.line), "")
        return self._with_stamp(self._with_players_mark(self._layout(name, deck, where), deck), deck, "front")

    def _with_players_mark(self, layout: Layout, deck: Deck) -> Layout:
        """`layout` with the printed mark of a card's `players:` (`3+ players`, small, in the bottom-right
        corner of the safe area) when a card of the deck has a range and the layout has no box of that name
        (the designer's own `players` box then says it). Round and hexagonal cards place their own."""
        key = (layout.name, deck.id)
        marked = self._marked.get(key)  # worked out once per layout and deck (not once per card)
        if marked is not None:
            return marked
        if deck.shape is not None or not any(card.players for card in deck.cards) \
                or any(box.name == PLAYERS_MARK for box in layout.boxes):
            self._marked[key] = layout
            return layout
        width, height = self.size(deck)
        w, h = min(mm(18), width - 2 * self.safe), mm(4)
        # the words in the game's language (the tool's catalogue), the range from the card
        words = self.game.phrases.t("sheets.players_mark", players="{{ card.players }}")
        spec = {"text": words, "when": "{{ card.players }}", "size": "7pt",
                "align": "right", "valign": "bottom", "color": "#333333"}
        box = Box(PLAYERS_MARK, "text", width - self.safe - w, height - self.safe - h, w, h, spec,
                  deck.file, deck.line)
        marked = self._marked[key] = Layout(layout.name, layout.file, [*layout.boxes, box], layout.files)
        return marked

    def back_layout(self, deck: Deck, card: Card | None = None) -> Layout:
        """The card's own `back:` layout, else the deck's `back:`, else `<deck id>-back`."""
        if card is not None and card.back:
            where = Problem(card.file, card.line_of("back"), "")
        else:
            where = Problem(deck.file, deck.key_lines.get("back", deck.line), "")
        name = back_name(deck, card)
        if not (card is not None and card.back) and deck.back is None \
                and find_layout(name, self.loader.dirs) is None:
            # no `back:` and no <deck>-back layout: a one-sided deck (said once, so a misnamed file is seen)
            self.loader.warnings[str(replace(where, message=(
                f"deck '{deck.id}' has no back layout (expected {name}.yaml in its layouts); its cards are "
                f"printed one-sided, on plain backs: write `back: {PLAIN_BACK}` to say so")))] = None
            name = PLAIN_BACK
        return self._with_stamp(self._layout(name, deck, where), deck, "back")

    def _with_stamp(self, layout: Layout, deck: Deck, side: str) -> Layout:
        """`layout` with the version stamp of game.yaml `stamp:` when it is printed on this side: a small text
        box in the chosen corner, inside the safe margin unless `inset` says otherwise. Round and hexagonal
        cards have no corners: they print none (docs/layouts.md)."""
        stamp = self.game.config.stamp
        if stamp is None or stamp.side not in (side, "both") or deck.shape is not None \
                or any(box.name == STAMP_BOX for box in layout.boxes):
            return layout
        key = (layout.name, deck.id, side)
        stamped = self._stamped.get(key)
        if stamped is None:
            width, height = self.size(deck)
            inset = self.safe if stamp.inset is None else to_pt(stamp.inset)
            size = to_pt(stamp.size)
            w, h = min(mm(30), width - 2 * inset), size * 1.3
            horizontal = stamp.corner.rsplit("-", 1)[-1] if "-" in stamp.corner else "center"
            x = {"left": inset, "right": width - inset - w, "center": (width - w) / 2}[horizontal]
            y = inset if stamp.corner.startswith("top") else height - inset - h
            spec = {"text": stamp.text, "font": "body", "size": f"{size:g}pt", "min_size": f"{size:g}pt",
                    "align": horizontal, "valign": "middle", "color": stamp.color}
            file, line = self._stamp_where()
            box = Box(STAMP_BOX, "text", x, y, w, h, spec, file, line)
            if stamp.color == "auto":
                spec["color"] = self._readable_on(layout, box, deck)
            stamped = Layout(layout.name, layout.file, [*layout.boxes, box], layout.files)
            self._stamped[key] = stamped
        return stamped

    def _readable_on(self, layout: Layout, box: Box, deck: Deck) -> str:
        """Dark or white, whichever has the higher contrast on every fill the layout paints under the box (the
        fills written as colours; the paper where there is none)."""
        tw, th = self.size(deck)
        paints = []
        for index, other in enumerate(layout.boxes):
            fill = other.spec.get("fill")
            shape = other.spec.get("shape", "rect")
            if not (isinstance(fill, str) and fill.startswith("#") and len(fill) == 7) \
                    or other.spec.get("gradient") or shape not in ("rect", "rounded", "circle", "ellipse"):
                continue
            radius = to_pt(other.spec.get("radius", "2mm")) if shape == "rounded" else 0.0
            paints.append(Paint(index, other.name, Rect(*self._box_rect(other, tw, th, True)), shape, radius,
                                fill))
        under = backdrop(paints, Rect(*self._box_rect(box, tw, th, False)), len(layout.boxes))
        colours = [(paint.color or PAPER) if paint is not None else PAPER for paint in under]
        return max(("#222222", "#ffffff"), key=lambda ink: min(contrast_ratio(ink, c) for c in colours))

    def _stamp_where(self) -> tuple[str, int]:
        """game.yaml and the line of its `stamp:` (where a stamp that does not fit is reported)."""
        shown = self.game.show(self.game.dir / "game.yaml")
        return shown, load_yaml(self.game.dir / "game.yaml", shown).line_of("stamp")

    def backs(self, deck: Deck) -> list[BackFace]:
        """The deck's drawn backs (generator.faces.backs); InputError naming every back layout that fails."""
        if deck.id not in self._backs:
            problems = Problems()
            uses: dict[str, bool] = {}
            for card in deck.cards:
                name = back_name(deck, card)
                if name not in uses:
                    try:
                        uses[name] = layout_uses_card(self.back_layout(deck, card), self.templates.env)
                    except InputError as exc:
                        problems.extend(exc.problems)
                        uses[name] = False
            problems.raise_if_any()
            self._backs[deck.id] = group_backs(deck, lambda card: uses[back_name(deck, card)])
            self._back_of[deck.id] = {
                card.index: face for face in self._backs[deck.id] for card in face.cards
            }
        return self._backs[deck.id]

    def unstamped_backs(self, deck: Deck) -> list[BackFace]:
        """The deck's backs as they are grouped without the version stamp: the exports (PNG, print-shop
        files, Tabletop Simulator, previews) draw a back that differs from card to card only by its stamp
        once, as the deck's usual back, without a stamp."""
        faces = self.backs(deck)
        layouts = [self.back_layout(deck, face.cards[0]) for face in faces]
        if not any(box.name == STAMP_BOX for layout in layouts for box in layout.boxes):
            return faces
        uses: dict[str, bool] = {}
        for card in deck.cards:
            name = back_name(deck, card)
            if name not in uses:
                layout = self.back_layout(deck, card)
                plain = Layout(layout.name, layout.file, [b for b in layout.boxes if b.name != STAMP_BOX],
                               layout.files)
                uses[name] = layout_uses_card(plain, self.templates.env)
        return group_backs(deck, lambda card: uses[back_name(deck, card)])

    def back_of(self, deck: Deck, card: Card | None) -> BackFace:
        """The drawn back a card shows; without a card, the deck's usual back (or its first back)."""
        faces = self.backs(deck)
        if card is None:
            return next((face for face in faces if face.key == "B"), faces[0])
        face = self._back_of[deck.id].get(card.index)  # a card's index is its place in its deck
        return face if face is not None else next(f for f in faces if card in f.cards)

    def context(self, deck: Deck, card: Card | None, back: bool = False) -> dict:
        """The template variables of one face: `card` (None on a back shared by several cards), `deck`, `game`
        and `side` ('front' or 'back')."""
        data = self.view["decks"][deck.id]
        if back:
            card = self.back_of(deck, card).card
        shown = None
        if card is not None:
            found = card  # the card this face shows (`card` may be rebound by a caller's loop)
            revision = (lambda: PLACEHOLDER) if self._hashing else (lambda: self.revision(deck, found))
            shown = LazyView(data["cards"][card.index - 1], {"revision": revision})
        return {
            "card": shown,
            "deck": data,
            "game": self.view,
            "side": "back" if back else "front",
            "build": self.build_values(),
        }

    def build_values(self) -> View:
        """`build` of the templates: revision and date (generator.data.revision), placeholders while the
        faces are hashed."""
        if self._hashing:
            return View(revision=PLACEHOLDER, date=PLACEHOLDER)
        if self._build is None:  # the files are read when a template first asks
            game = self.game

            def revision() -> str:
                return content_revision(game.dir, game.project.templates_dir)

            self._build = LazyView({}, {"revision": revision, "date": build_date})
        return self._build

    # -- revisions
    # ---------------------------------------------------------------------------------------------------
    def _as_hashed(self, deck: Deck, card: Card, back: bool) -> list:
        """A face as its revision reads it: rendered with the version values as placeholders."""
        name = self.form_name(deck, card, back)
        found = self._neutral.get(name)
        if found is None:
            found = self._resolved.get(name) if name not in self._versioned else None
        if found is None:
            layout = self.back_layout(deck, card) if back else self.front_layout(card)
            self._hashing = True
            try:
                context = self.context(deck, card, back)
                found = [(box, self._resolve_box(box, context)) for box in layout.boxes]
            finally:
                self._hashing = False
            self._neutral[name] = found
        return found

    def revision(self, deck: Deck, card: Card) -> str:
        """`{{ card.revision }}`: a short hash of the card's front and back as printed, without the stamp and
        with every version value as a placeholder (generator.faces.revisions)."""
        key = (deck.id, card.index)
        if key not in self._revisions:
            front = face_part(self._as_hashed(deck, card, False), self.files)
            back = face_part(self._as_hashed(deck, card, True), self.files)
            self._revisions[key] = card_revision(deck.size_mm, repr(deck.shape), front, back)
        return self._revisions[key]

    def card_revisions(self) -> dict[str, dict[str, str]]:
        """Deck id -> card id -> its revision, for every card of the game (checked first)."""
        if not self.checked:
            self.check()
        return {deck.id: {card.id: self.revision(deck, card) for card in deck.cards}
                for deck in self.game.decks.values()}

    # -- checking
    # ------------------------------------------------------------------------------------------------
    def faces(self, problems: Problems) -> list[tuple[str, Deck, Card]]:
        """Every face `check` covers: ('back', deck, a card showing it) per drawn back, ('front', deck,
        card)."""
        faces = []
        for deck in self.game.decks.values():
            try:
                faces += [("back", deck, face.cards[0]) for face in self.backs(deck)]
            except InputError as exc:
                problems.extend(exc.problems)
            faces += [("front", deck, card) for card in deck.cards]
        return faces

    def check(self, apart: tuple[set[str], Callable[[], dict[str, CheckedApart]]] | None = None) -> None:
        """Resolve every layout and render every box of every card once; raise all problems together.

        The same mistake in the same box for many cards (a template typo, a missing picture) is one problem
        naming the first card and how many more. `apart`: the faces (form names) another process checks
        (`check_apart`) and how to wait for what it found; each is taken in its place, so the problems,
        warnings and digest are the same."""
        problems = Problems()
        self._digest = None
        grouped: dict[tuple[str, int, str], list[str]] = {}  # (file, line, message) -> the faces it concerns
        warnings: dict[str, None] = {}  # ordered and without repeats
        # every face is rendered with the version values as placeholders (what the revisions hash), then the
        # few boxes that read one (the stamp) again with the real values
        versioned: dict[str, tuple[Deck, Card | None, bool]] = {}
        self._hashing = True
        try:
            self._check_faces(problems, grouped, warnings, versioned, apart)
        finally:
            self._hashing = False
        self._versioned = set(versioned)
        for name, (deck, card, back) in versioned.items():
            hashed = self._resolved[name]
            self._neutral[name] = hashed
            context = self.context(deck, card, back)
            again = []
            for box, data in hashed:
                if mentions_version(box):
                    try:
                        data = self._resolve_box(box, context)
                    except InputError as exc:
                        problems.extend(exc.problems)
                again.append((box, data))
            self._resolved[name] = again
        for (file, line, message), faces in grouped.items():
            more = f" and {len(faces) - 1} more card{'s' if len(faces) > 2 else ''}" if len(faces) > 1 else ""
            problems.add(file, line, f"{faces[0]}{more}: {message}")
        slips = [str(slip) for slip in self.game.warnings] + list(self.loader.warnings)
        self.warnings = list(dict.fromkeys(slips + list(warnings)))
        problems.raise_if_any()
        self.checked = True

    def _check_faces(self, problems: Problems, grouped: dict, warnings: dict, versioned: dict,
                     apart: tuple[set[str], Callable[[], dict[str, CheckedApart]]] | None = None) -> None:
        """check()'s rendering of every face (`versioned`: the faces with a box that reads a version)."""
        names, fetch = apart if apart is not None else (set(), None)
        found: dict[str, CheckedApart] | None = None
        for side, deck, card in self.faces(problems):
            back = side == "back"
            if names:
                name = self.form_name(deck, card, back)
                if name in names:
                    if found is None:
                        found = fetch()
                    checked = found.pop(name)
                    if checked.digest is not None:  # else a face that reads a version: checked here
                        checked.replay(problems, grouped, warnings)
                        self._resolved[name] = None  # in its place, for the digest (`_apart`)
                        self._apart[name] = checked.digest
                        continue
            self._check_face(side, deck, card, problems, grouped, warnings, versioned)

    def _check_face(self, side: str, deck: Deck, card: Card, problems, grouped: dict, warnings: dict,
                    versioned: dict) -> None:
        """check()'s rendering of one face: its problems into `problems` (one box's, that many faces share,
        into `grouped`), its warnings into `warnings`, its name into `versioned` when a box reads a
        version."""
        back = side == "back"
        try:
            layout = self.back_layout(deck, card) if back else self.front_layout(card)
        except InputError as exc:
            problems.extend(exc.problems)
            return
        context = self.context(deck, card, back)
        where = self._where(context) + ": "
        resolved = []
        for box in layout.boxes:
            try:
                data = self._resolve_box(box, context)
            except InputError as exc:
                for problem in exc.problems:
                    if problem.message.startswith(where):
                        key = (problem.file, problem.line, problem.message[len(where):])
                        grouped.setdefault(key, []).append(where[:-2])
                    else:
                        problems.items.append(problem)
                continue
            resolved.append((box, data))
            if data is not None:
                warnings.update(dict.fromkeys(self.kind(box).warnings(box, data, deck, context)))
        # kept so drawing (for every paper) does not render the templates again
        name = self.form_name(deck, card, back)
        self._resolved[name] = resolved
        if any(self._reads_version(box) for box, _ in resolved):
            versioned[name] = (deck, card, back)

    def _reads_version(self, box: Box) -> bool:
        """`mentions_version(box)`, worked out once per box (the box kept, so its id stays its own)."""
        found = self._mentions.get(id(box))
        if found is None:
            found = self._mentions[id(box)] = (box, mentions_version(box))
        return found[1]

    def check_apart(self, faces: list[tuple[str, Deck, Card]]) -> dict[str, CheckedApart]:
        """In a helper process: check()'s rendering of these faces (side, deck, card), face by face, for the
        process that checks the others (`check(apart=...)`); each face's rendering is kept here to draw it."""
        self._hashing = True
        heads: dict = {}
        families: dict = {}
        found = {}
        try:
            for side, deck, card in faces:
                checked = CheckedApart()
                versioned: dict = {}
                self._check_face(side, deck, card, checked, checked.grouped, checked.warnings, versioned)
                name = self.form_name(deck, card, side == "back")
                resolved = self._resolved.get(name)
                # a text with letters of a fallback face is warned about once per box, by the first face:
                # checked where the faces before it were
                if not versioned and resolved is not None \
                        and not any(getattr(data, "fallbacks", None) for _, data in resolved):
                    checked.digest = _digest_text(name, resolved, heads, families)
                found[name] = checked
        finally:
            self._hashing = False
        return found

    def resolved(
        self, deck: Deck, card: Card | None, back: bool = False
    ) -> list[tuple[Box, Resolved | None]]:
        """What `check` rendered for each box of a face or back (texts, colours, icons, images): what it is
        drawn from, so a caller can tell whether it changed without drawing it. A face `check` did not see is
        rendered now (None for a box whose `when` is false). A deck's back for no card in particular is
        without the version stamp, as it is drawn (`ensure_form`)."""
        found = self._resolved.get(self.form_name(deck, card, back))
        if found is None:
            layout = self.back_layout(deck, card) if back or card is None else self.front_layout(card)
            context = self.context(deck, card, back or card is None)
            found = [(box, self._resolve_box(box, context)) for box in layout.boxes]
        if card is None:
            return [(box, data) for box, data in found if box.name != STAMP_BOX]
        return list(found)

    def last_use(self, canvas: Canvas) -> None:
        """This canvas is the last this process draws the faces on for the build (the last paper): each face's
        rendered data is let go once its form is drawn there (a later picture of a card renders it again)."""
        self._last_use.add(canvas)

    def drawn_digest(self) -> str:
        """A hash of everything `check` rendered, face by face: each box's geometry and style (the layouts,
        after `extends`) and its rendered data (texts, colours, icon names, image paths). Whatever a template
        read, from any file of the game, shows here; the incremental build fingerprints the card sheets with
        it."""
        # The SHA-256 of each face's own text (`_digest_text`), in the order they were checked: a face checked
        # by a helper process sends its 32 bytes, not its text.
        if self._digest is not None:
            return self._digest
        sha = hashlib.sha256()
        heads: dict[int, tuple[Box, str]] = {}  # id(box) -> (box, repr of the tuple up to its data)
        families: dict[int, _Shown] = {}
        for name, resolved in self._resolved.items():
            # a face checked by a helper process: its hash as that process worked it out
            found = self._apart[name] if resolved is None else None
            sha.update(found or _digest_text(name, resolved, heads, families))
        return sha.hexdigest()

    def keep_digest(self) -> None:
        """Work out `drawn_digest` now and keep it: the faces' renderings are let go as they are drawn."""
        self._digest = self.drawn_digest()

    def where(self, context: dict) -> str:
        """Which face a context is ('card 012 (draw-two)', 'the back of deck ...'), to begin a problem
        with."""
        return self._where(context)

    def _where(self, context: dict) -> str:
        card = context.get("card")
        back = context.get("side") == "back"
        if card is not None:
            return f"{'the back of ' if back else ''}card {card['code']} ({card['id']})"
        return f"the back of deck '{context['deck']['id']}'"

    def deck_named(self, deck_id: str) -> Deck | None:
        """The deck a face's context names (component renderers look in their own item sets)."""
        return self.game.decks.get(deck_id)

    def card_of(self, context: dict) -> Card | None:
        """The card a face shows, to locate a problem at the card field it comes from."""
        card, deck = context.get("card"), self.deck_named(context["deck"]["id"])
        if card is None or deck is None or not 0 < card.get("index", 0) <= len(deck.cards):
            return None
        return deck.cards[card["index"] - 1]

    def fail(self, box: Box, context: dict, message: str, words: bool = False) -> InputError:
        """A problem of a box on one face, located at the box; a problem of its `words` (its text) that a
        translation gives is located in the translation file, where the mistake is."""
        if words and box.translated:
            file, line = box.translated
            return InputError(Problem(file, line, f"{self._where(context)}: box '{box.name}' (drawn by "
                                                  f"{box.file}:{box.line}): {message}"))
        return InputError(Problem(box.file, box.line, f"{self._where(context)}: box '{box.name}': {message}"))

    def fail_at_field(self, box: Box, context: dict, value: str, message: str) -> InputError:
        """A problem with a name a box drew (an icon, an image) located where it is written: the card field
        that holds it (a YAML line or a spreadsheet cell), else the layout box."""
        card = self.card_of(context)
        key = next((key for key, held in card.as_dict().items() if key not in ("id", "code", "deck")
                    and isinstance(held, str) and held.strip() == str(value).strip()), None) if card else None
        if key is None:
            return self.fail(box, context, message)
        file, line = card.where(key)
        return InputError(
            Problem(
                file,
                line,
                f"{self._where(context)} {key}: {message} (drawn by box '{box.name}' "
                f"of {box.file}:{box.line})",
            )
        )

    def value(self, box: Box, key: str, context: dict, default=None) -> str | None:
        """A key of the box rendered for one face (a template gives text), or `default` when the box lacks
        it."""
        source = box.get(key)
        if source is None:
            return default
        if not isinstance(source, str):
            return source
        try:
            return self.templates.render_plain(source, context)
        except TemplateProblem as exc:
            raise self.fail(box, context, f"{key}: {exc}") from None

    def color(self, box: Box, key: str, context: dict, default: str | None = None) -> str | None:
        """A colour key of the box for one face: a checked #rrggbb, or None for none ('', 'none')."""
        value = self.value(box, key, context, default)
        if value in (None, "", "none"):
            return None
        if isinstance(value, str) and value in self._colours:  # checked before
            return value
        try:
            HexColor(value)
        except (ValueError, TypeError):
            raise self.fail(box, context, f"{key} '{value}' is not a colour; expected #rrggbb") from None
        if not str(value).startswith("#") or len(value) != 7:
            raise self.fail(box, context, f"{key} '{value}' is not a colour; expected #rrggbb")
        self._colours.add(value)
        return value

    def paints(self, box: Box, context: dict) -> tuple[str | None, str | None]:
        """The box's fill and outline colours for one face (every kind has them)."""
        return self.color(box, "fill", context), self.color(box, "stroke", context)

    def _resolve_box(self, box: Box, context: dict) -> Resolved | None:
        """What a box shows on one face (its kind's typed value), or None when `when` is false."""
        if box.get("when") is not None:
            flag = self.value(box, "when", context)
            if flag.strip().lower() in ("", "false", "0", "none", "no"):
                return None
        return self.kind(box).resolve(box, context)

    # -- drawing
    # -------------------------------------------------------------------------------------------------
    def draw_layout(self, canvas: Canvas, layout: Layout, deck: Deck, card: Card | None, back: bool = False,
                    ink: str = "normal", stamped: bool = True) -> None:
        """Draw a face with the lower-left corner of its bleed box at the current origin (`ink`: normal or
        saver; not `stamped`: without the version stamp)."""
        tw, th = self.size(deck)
        context = self.context(deck, card, back)
        key = self.form_name(deck, card, back)
        keep = canvas not in self._last_use  # what is laid out here (texts) is kept for the next paper
        found = self._resolved.get(key) if keep else self._resolved.pop(key, None)
        resolved = (
            found if found is not None else [(box, self._resolve_box(box, context)) for box in layout.boxes]
        )
        if ink == "saver":
            b = self.bleed
            resolved = inksaver.adapt(
                resolved, lambda box: self._placed_rect(box, tw, th), Rect(b, b, tw, th), back=back
            )
        face = Drawing(context, key, keep)
        for box, data in resolved:
            if data is None or (not stamped and box.name == STAMP_BOX):
                continue
            rect = self._placed_rect(box, tw, th)
            if box.get("rotate") or box.get("opacity") is not None:
                self._draw_turned(canvas, box, data, rect, face)
            else:
                self.kind(box).draw(canvas, box, data, rect, face)
        if not keep:
            for kind in self.kinds.values():
                kind.let_go(key)

    def _draw_turned(self, canvas: Canvas, box: Box, data: Resolved, rect, face: Drawing) -> None:
        """A box with `opacity` (the whole box that transparent) or `rotate` (degrees clockwise about its
        centre; at 90 and 270 its content is laid out in the box turned, width and height swapped)."""
        x, y, w, h = rect
        canvas.saveState()
        opacity = box.get("opacity")
        if opacity is not None:
            canvas.setFillAlpha(opacity)
            canvas.setStrokeAlpha(opacity)
        angle = float(box.get("rotate", 0.0)) % 360
        if angle:
            canvas.translate(x + w / 2, y + h / 2)
            canvas.rotate(-angle)  # the layout's y runs down: clockwise there is counter-clockwise in PDF
            if abs(angle % 180 - 90) < 1e-9:
                w, h = h, w
            rect = (-w / 2, -h / 2, w, h)
        self.kind(box).draw(canvas, box, data, rect, face)
        canvas.restoreState()

    def _box_rect(
        self, box: Box, tw: float, th: float, into_bleed: bool
    ) -> tuple[float, float, float, float]:
        b = self.bleed
        x0, y0, x1, y1 = box.x, box.y, box.x + box.w, box.y + box.h  # top-left origin, y down
        if into_bleed:
            x0 = -b if x0 <= EDGE_TOL else x0
            y0 = -b if y0 <= EDGE_TOL else y0
            x1 = tw + b if x1 >= tw - EDGE_TOL else x1
            y1 = th + b if y1 >= th - EDGE_TOL else y1
        return b + x0, b + th - y1, x1 - x0, y1 - y0  # PDF: lower-left x, y, width, height

    def _placed_rect(self, box: Box, tw: float, th: float) -> tuple[float, float, float, float]:
        """The box on the face form (PDF coordinates), run into the bleed where the box asks for it (worked
        out once per box and card size; the box kept, so its id stays its own)."""
        key = (id(box), tw, th)
        found = self._rects.get(key)
        if found is None:
            rect = self._box_rect(box, tw, th, bool(box.get("bleed", self.kind(box).bleeds(box))))
            found = self._rects[key] = (box, rect)
        return found[1]

    # -- forms
    # ---------------------------------------------------------------------------------------------------
    def form_name(self, deck: Deck, card: Card | None, back: bool = False, ink: str = "normal") -> str:
        """A name unique within a PDF for this face (game and deck codes keep games apart). Fronts are
        F<index>; a back shared by several cards is B (the deck's usual back) or BL<n>, a back drawn per card
        B<index>; the ink saver's faces end in _S."""
        suffix = self.back_of(deck, card).key if back or card is None else f"F{card.index:03d}"
        return f"card_{self.game.config.code}_{deck.code}_{suffix}" + ("_S" if ink == "saver" else "")

    def ensure_form(self, canvas: Canvas, deck: Deck, card: Card | None, back: bool = False,
                    ink: str = "normal") -> str:
        """Define the face (or the back `card` shows) as a Form XObject on this canvas once; returns its
        name."""
        # a deck's back shown for no card in particular (a tuck box, an export's shared back) has no stamp: a
        # revision is one card's
        unstamped = card is None and any(box.name == STAMP_BOX for box in self.back_layout(deck).boxes)
        back = back or card is None
        name = self.form_name(deck, card, back, ink)
        if unstamped:  # the name of the deck's usual back, which no card's own back takes
            name = f"card_{self.game.config.code}_{deck.code}_B" + ("_S" if ink == "saver" else "")
        done = self._forms.setdefault(canvas, set())
        if name in done:
            return name
        tw, th = self.size(deck)
        if back:
            card = self.back_of(deck, card).cards[0]
        icons.enable_inline_icons(canvas)
        canvas.beginForm(name, 0, 0, tw + 2 * self.bleed, th + 2 * self.bleed)
        canvas.setFont(BODY, 9)
        self._draw_face(canvas, deck, card, back, ink, stamped=not unstamped)
        end_form(canvas, name)
        form_made(canvas, name)
        done.add(name)
        return name

    def place(self, canvas: Canvas, deck: Deck, card: Card | None, at: tuple[float, float],
              bleed: bool = True, clip: tuple[float, float, float, float] | None = None, back: bool = False,
              ink: str = "normal") -> None:
        """Draw the face (or with back=True the back `card` shows) with its bleed box's lower-left at `at`
        (x, y), optionally clipped to a page rectangle; `ink="saver"` draws the ink saver's version."""
        x, y = at
        name = self.ensure_form(canvas, deck, card, back, ink)
        canvas.saveState()
        if not bleed:
            tw, th = self.size(deck)
            clip = (x, y, tw, th)
            x, y = x - self.bleed, y - self.bleed
        if clip is not None:
            path = canvas.beginPath()
            path.rect(*clip)
            canvas.clipPath(path, stroke=0, fill=0)
        canvas.translate(x, y)
        canvas.doForm(name)
        canvas.restoreState()


    # -- one drawing for every paper
    # --------------------------------------------------------------------------------------------------
    def face_list(self, ink: str = "normal") -> FaceList:
        """The faces of the card sheets drawn once for every paper of the build (`FaceList`)."""
        found = self._face_lists.get(ink)
        if found is None:
            found = self._face_lists[ink] = FaceList(self, ink)
        return found

    def forget_face_lists(self) -> None:
        """No later card sheet places the faces drawn once: let them go."""
        self._face_lists.clear()

    def face_operators(self, canvas: Canvas, deck: Deck, card: Card | None, back: bool = False,
                       ink: str = "normal", apart: bool = False) -> _Recorded | None:
        """A face drawn on a canvas of faces (`FaceList`) as `ensure_form` and `draw_inline` would write it on
        a card sheet: its operators and pictures; None when they name a resource only the sheet can name (a
        graphics state, a gradient, a form). `apart`: drawn in another process on a canvas given the list's
        fonts, so also None for a picture or a font or character the list had not named yet."""
        back = back or card is None
        if back:
            card = self.back_of(deck, card).cards[0]
        layout = self.back_layout(deck, card) if back else self.front_layout(card)
        canvas._code = []  # noqa: SLF001 - only this face's operators
        canvas.push_state_stack()
        canvas.init_graphics_state()  # what beginForm does
        canvas.setFont(BODY, 9)
        fonts = _font_marks(canvas)
        marks = _Marks.of(canvas)
        self.draw_layout(canvas, layout, deck, card, back, ink)
        recorded = marks.recorded(canvas)
        canvas.pop_state_stack()
        named_late = recorded is not None and (recorded.pictures or recorded.encoded)
        if apart and recorded is not None and (named_late or _font_marks(canvas) != fonts):
            return None
        if recorded is not None:  # no sheet draws this face: what it was drawn from can go
            self.let_go(self.form_name(deck, card, back))
        return recorded

    def let_go(self, key: str) -> None:
        """Drop what was kept of a face (by its form name without the ink) for drawing it again."""
        self._resolved.pop(key, None)
        for kind in self.kinds.values():
            kind.let_go(key)

    def _draw_face(self, canvas: Canvas, deck: Deck, card: Card | None, back: bool, ink: str,
                   stamped: bool = True) -> None:
        """`draw_layout`, or the operators of the face in the list of faces this canvas was given (`card`: the
        card whose face or back it is; not `stamped`: without the version stamp, which the list never
        holds)."""
        faces = self._placing.get(canvas) if stamped else None
        if faces is not None:
            key = self.form_name(deck, card, back, ink)
            recorded = faces.recorded.pop(key, None) if canvas in self._last_use else faces.recorded.get(key)
            if recorded is not None:
                recorded.place(canvas)
                return
        layout = self.back_layout(deck, card) if back else self.front_layout(card)
        self.draw_layout(canvas, layout, deck, card, back, ink, stamped=stamped)

    @staticmethod
    def placement(x: float, y: float, clip: tuple[float, float, float, float]) -> str:
        """The PDF operators that `place` writes before a face (save, clip, move), formatted once per slot."""
        return f"q\n{fp_str(*clip)} re W n\n1 0 0 1 {fp_str(x, y)} cm"

    def place_prepared(self, canvas: Canvas, deck: Deck, card: Card | None, prefix: str, back: bool = False,
                       ink: str = "normal", inline: bool = False) -> None:
        """`place` with operators from `placement`: the card sheets place thousands of faces in the same
        slots, so the numbers are formatted once per slot instead of once per copy (same PDF operators as
        `place`). `inline`: the face is placed only this once on the canvas, so it is drawn straight into the
        page (the same picture, without a form object of its own: smaller files of unique cards)."""
        if inline:
            self.draw_inline(canvas, deck, card, prefix, back, ink)
            return
        name = self.ensure_form(canvas, deck, card, back, ink)
        canvas._code.append(f"{prefix}\n/{canvas._doc.getXObjectName(name)} Do\nQ")  # noqa: SLF001
        canvas._formsinuse.append(name)  # noqa: SLF001 - what doForm records so the page lists the form

    def draw_inline(self, canvas: Canvas, deck: Deck, card: Card | None, prefix: str, back: bool = False,
                    ink: str = "normal") -> None:
        """Draw the face into the current page after the placement operators `prefix` (save, clip, move), as
        `ensure_form` draws it into its form: the canvas starts from the state a new form starts from, so the
        operators are the form's, and its opacities are named in the page's resources."""
        back = back or card is None
        if back:
            card = self.back_of(deck, card).cards[0]
        icons.enable_inline_icons(canvas)
        tw, th = self.size(deck)
        # the placement formatted once per slot, then the clip a form's bounding box makes
        canvas._code.append(f"{prefix}\n0 0 {fp_str(tw + 2 * self.bleed, th + 2 * self.bleed)} re W n")  # noqa: SLF001
        canvas.push_state_stack()
        states = canvas._extgstate._c  # noqa: SLF001 - the page's graphics state names, shared with the face
        canvas.init_graphics_state()  # what beginForm does: the face's operators do not depend on the page's
        canvas._extgstate._c = states  # noqa: SLF001
        canvas.setFont(BODY, 9)
        self._draw_face(canvas, deck, card, back, ink)
        canvas._code.append("Q")  # noqa: SLF001
        canvas.pop_state_stack()


@dataclasses.dataclass(frozen=True)
class _Recorded:
    """A face as drawn on one canvas: its operators, the pictures they place (name, PDF object) and the icons
    (SVG path, fade) whose forms they place."""

    operators: str
    pictures: tuple[tuple[str, object], ...] = ()
    icons: tuple[tuple[Path, float], ...] = ()
    encoded: tuple[EncodedImage, ...] = ()  # pictures embedded as they are (core.pdfimages)

    def place(self, canvas: Canvas) -> None:
        """Write the face's operators where the canvas is (a canvas given the recording canvas's fonts)."""
        document = canvas._doc  # noqa: SLF001 - where the pictures are added (once per document)
        for image in self.encoded:  # an object of this document's own, under the same name (its mask too)
            canvas._formsinuse.append(embed_image(canvas, image))  # noqa: SLF001
            canvas._currentPageHasImages = 1  # noqa: SLF001 - what drawImage records (the page's ProcSet)
        for name, made in self.pictures:
            internal = pdfdoc.xObjectName(name)
            if internal not in document.idToObject:  # the same picture object, written into this file too
                # (what addForm does, but for an object another document named first)
                number = document.objectcounter = document.objectcounter + 1
                document.idToObjectNumberAndVersion[internal] = (number, 0)
                document.numberToId[number] = internal
                document.idToObject[internal] = made
            canvas._formsinuse.append(name)  # noqa: SLF001 - what drawImage records for the resources
        for path, fade in self.icons:  # the icon's form made on this canvas, under the same name
            canvas._formsinuse.append(icons.make_icon_form(canvas, path, fade))  # noqa: SLF001
        canvas._code.append(self.operators)  # noqa: SLF001


Face = tuple[str, Deck, Card, bool]  # a face of the card sheets: form name, deck, card, and whether a back


class FaceList:
    """The faces of the card sheets drawn once for every paper of a build, in an order no paper decides: each
    face's operators on a canvas of their own (never saved), then placed on each paper's sheets by a canvas
    given this canvas's fonts and character codes (core.fontstates), so a paper's file is the same whatever
    other papers are built, and the second paper costs its pages only. A face that names a resource only a
    sheet can name (a graphics state, a gradient, an icon form) is drawn on each sheet instead."""

    def __init__(self, renderer: CardRenderer, ink: str):
        self.renderer, self.ink, self.drawn = renderer, ink, False
        self.canvas = Canvas(io.BytesIO(), invariant=1, initialFontName=BODY, pageCompression=1)
        icons.enable_inline_icons(self.canvas)
        self.recorded: dict[str, _Recorded] = {}

    def draw(self, faces: list[Face], apart: Callable[[list[Face]], Callable[[], dict]] | None = None,
             split: int = 0, prefix: int = 0, keep: bool = True) -> None:
        """Draw every face (name, deck, card, back) in order. With `apart`, once the first `prefix` faces are
        drawn (they name the fonts), the faces from `split` on are given to it (it starts a helper process and
        returns how to wait for its operators: face name -> operators or None); this process draws the faces
        before `split`, then takes the helper's and draws only those it could not. `keep`: the faces the last
        build kept are not drawn again (generator.faces.facecache), and these are kept for the next."""
        fetch, found = None, None
        store = FaceStore.open(self.renderer.game, self.ink) if keep else None
        for index, face in enumerate(faces):
            if apart is not None and index == min(prefix, split):
                fetch = apart(faces[split:])
            drawn = None
            if fetch is not None and index >= split:
                if found is None:  # the helper's faces, once it has drawn them all
                    found = fetch()
                drawn = found.pop(face[0], None)
            self._record(face, drawn, store)
        if store is not None:
            store.save()
        self.drawn = True

    def _record(self, face: Face, drawn: _Recorded | None, store: FaceStore | None = None) -> None:
        """Keep the operators a helper `drawn` for this face, or else the face as the last build kept it in
        `store`, or else draw it here."""
        name, deck, card, back = face
        if drawn is not None:
            self.recorded[name] = drawn
            self.renderer.let_go(self.renderer.form_name(deck, card, back))
            return
        if store is None:
            recorded = self.renderer.face_operators(self.canvas, deck, card, back, self.ink)
        else:
            recorded = self._kept_or_drawn(store, name, deck, card, back)
        if recorded is not None:
            self.recorded[name] = recorded

    def _kept_or_drawn(self, store: FaceStore, name: str, deck: Deck, card: Card | None,
                       back: bool) -> _Recorded | None:
        """A face as the last build kept it (its names given to the canvas), else drawn and kept."""
        renderer = self.renderer
        boxes = [(box.name, box.kind, box.x, box.y, box.w, box.h, box.spec, data)
                 for box, data in renderer.resolved(deck, card, back)]
        drawn_from = repr((name, self.ink, deck.size_mm, repr(deck.shape), renderer.bleed,
                           renderer.game.safe_pt, boxes))
        key = store.key(self.canvas, drawn_from)
        kept = store.found(key, self.canvas)
        if kept is not None:
            renderer.let_go(renderer.form_name(deck, card, back))
            placed = tuple((Path(path), fade) for path, fade in kept["icons"])
            return _Recorded(kept["operators"], icons=placed)
        mark = store.mark(self.canvas)
        recorded = renderer.face_operators(self.canvas, deck, card, back, self.ink)
        if recorded is None or recorded.pictures or recorded.encoded:  # drawn again by every build
            store.drawn(key, self.canvas, mark, None, [])
        else:
            store.drawn(key, self.canvas, mark, recorded.operators,
                        [[str(path), fade] for path, fade in recorded.icons])
        return recorded

    def draw_apart(self, faces: list[Face]) -> dict[str, _Recorded | None]:
        """In a helper process: the operators of these faces on a canvas given this list's fonts (None for a
        face the list draws itself). After a face that named a font or character the list had not, the canvas
        starts again from the list's fonts: the codes it gave are not the ones the list will give."""
        states = font_states(self.canvas)
        canvas = self._given(states)
        if canvas is None:
            return {}
        marks = _font_marks(canvas)
        found = {}
        for name, deck, card, back in faces:
            recorded = self.renderer.face_operators(canvas, deck, card, back, self.ink, apart=True)
            found[name] = recorded
            if recorded is None and _font_marks(canvas) != marks:
                canvas = self._given(states)
        return found

    @staticmethod
    def _given(states) -> Canvas | None:
        canvas = Canvas(io.BytesIO(), invariant=1, initialFontName=BODY, pageCompression=1)
        if not carry_fonts(states, canvas):
            return None
        icons.enable_inline_icons(canvas)
        return canvas

    def take(self, faces: list[Face], names: set[str], fetch: Callable[[], dict]) -> None:
        """Draw these faces in order after those drawn so far, but the `names`: a helper process drew them
        (`draw_apart`) with the fonts named so far, and `fetch()` waits for its operators; a face it could not
        draw is drawn here in its place."""
        found = None
        for face in faces:
            drawn = None
            if face[0] in names:
                if found is None:
                    found = fetch()
                drawn = found.pop(face[0], None)
            self._record(face, drawn)
        self.drawn = True

    def give(self, canvas: Canvas) -> None:
        """Let a new card sheet canvas (nothing drawn on it yet) place these faces."""
        if carry_fonts(font_states(self.canvas), canvas):
            self.renderer._placing[canvas] = self  # noqa: SLF001 - the renderer's own table


def _font_marks(canvas: Canvas) -> tuple[int, ...]:
    """How many fonts a canvas has named and how many characters each TrueType font has codes for."""
    document = canvas._doc  # noqa: SLF001
    return (len(document.fontMapping),
            *(len(font.state[document].assignments) for font in document.delayedFonts))


@dataclasses.dataclass(frozen=True)
class _Marks:
    """How far a canvas's operators and resources went before a face was drawn."""

    code: int
    forms: int
    others: tuple[int, ...]

    @classmethod
    def of(cls, canvas: Canvas) -> _Marks:
        """The canvas now."""
        return cls(len(canvas._code), len(canvas._formsinuse), cls._others(canvas))  # noqa: SLF001

    @staticmethod
    def _others(canvas: Canvas) -> tuple[int, ...]:
        # colours by name, gradients, links and graphics states: resources named per page or per form
        return (len(canvas._colorsUsed), len(canvas._shadingUsed), len(canvas._annotationrefs),  # noqa: SLF001
                len(canvas._extgstate._c))  # noqa: SLF001

    def recorded(self, canvas: Canvas) -> _Recorded | None:
        """What was drawn since, when it can be placed on another canvas: it names only fonts and pictures
        (a graphics state, a gradient or a form of its own is named where it is drawn: such a face is drawn
        again)."""
        operators = "\n".join(canvas._code[self.code:])  # noqa: SLF001
        if self._others(canvas) != self.others or " gs" in operators or " sh" in operators:
            return None
        document = canvas._doc  # noqa: SLF001
        pictures, svgs, encoded = [], [], []
        made_icons = icons.forms_made(canvas)
        for name in canvas._formsinuse[self.forms:]:  # noqa: SLF001
            made = document.idToObject.get(pdfdoc.xObjectName(name))
            if name in made_icons:  # an icon: its form is made on the canvas that places the face
                svgs.append(made_icons[name])
            elif isinstance(made, ImageXObject):  # each document writes (and lets go of) its own object
                encoded.append(made.image)
            elif made is None or isinstance(made, pdfdoc.PDFFormXObject):
                return None
            else:
                pictures.append((name, made))
        return _Recorded(operators, tuple(pictures), tuple(svgs), tuple(encoded))


def _digest_text(name: str, resolved: list, heads: dict, families: dict) -> bytes:
    """The SHA-256 of one face as `drawn_digest` takes it: of its name and repr((box.name, ..., box.spec,
    data)) per box, put together from parts worked out once (`heads`: a box's own part, shared by every card
    of its layout; `families`: a font family, in every text box's data, a dataclass whose repr is slow)."""
    parts = [name]
    for box, data in resolved:
        head = heads.get(id(box))
        if head is None:
            shown = repr((box.name, box.kind, box.x, box.y, box.w, box.h, box.spec, None))
            head = heads[id(box)] = (box, shown[:-len("None)")])  # box kept: its id stays its own
        family = getattr(data, "family", None)
        if family is not None:
            stand_in = families.get(id(family))
            if stand_in is None:
                stand_in = families[id(family)] = _Shown(repr(family), family)
            shown = _shown_with(data, "family", stand_in)
        else:
            shown = repr(data)
        parts += (head[1], shown, ")")
    return hashlib.sha256("".join(parts).encode()).digest()


@dataclasses.dataclass
class CheckedApart:
    """What `check` found of one face, in a helper process (`check_apart`): its problems as they came (kept
    in order, to be taken in the face's place), its warnings, and the text `drawn_digest` hashes for it (None:
    the face is checked again by the process that checks the others: a box reads a version, or a text letters
    of a fallback face; such a face is not drawn by the helper either)."""

    items: list = dataclasses.field(default_factory=list)
    grouped: dict = dataclasses.field(default_factory=dict)
    warnings: dict = dataclasses.field(default_factory=dict)
    digest: bytes | None = None

    def extend(self, problems: list) -> None:
        """A layout's problems (Problems.extend, as `_check_face` calls it)."""
        self.items.extend(problems)

    def replay(self, problems: Problems, grouped: dict, warnings: dict) -> None:
        """Take this face's findings into check()'s own, as if the face was checked there."""
        problems.items.extend(self.items)
        for key, faces in self.grouped.items():
            grouped.setdefault(key, []).extend(faces)
        warnings.update(self.warnings)


class LazyView(View):
    """Template data with values worked out when a template first reads them (a card's revision, the build's):
    a build whose layouts never read them never pays for them."""

    def __init__(self, data: dict, later: dict):
        super().__init__(data)
        self.later = later

    def __contains__(self, key: object) -> bool:
        return key in self.later or super().__contains__(key)

    def __missing__(self, key):
        if key not in self.later:
            raise KeyError(key)
        value = self[key] = self.later[key]()
        return value


@functools.cache
def _repr_fields(cls: type) -> tuple[str, ...]:
    """The fields a dataclass's repr shows, in order."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.repr)


def _shown_with(data, name: str, stand_in: object) -> str:
    """repr(data) of a dataclass with its field `name` shown as `stand_in` (without making a changed copy)."""
    shown = ", ".join(
        f"{key}={stand_in if key == name else getattr(data, key)!r}" for key in _repr_fields(type(data))
    )
    return f"{type(data).__qualname__}({shown})"


class _Shown:
    """Stands in for an object in a repr: shows the text worked out once (the object is kept alive with
    it)."""

    __slots__ = ("text", "held")

    def __init__(self, text: str, held: object):
        self.text, self.held = text, held

    def __repr__(self) -> str:
        return self.text


@per_game
def renderer_for(game: Game) -> CardRenderer:
    """The (cached) renderer of a loaded game."""
    return CardRenderer(game)


def draw_front(canvas: Canvas, game: Game, card: Card, x: float, y: float, bleed: bool = True,
               ink: str = "normal") -> None:
    """Draw a card's front with the lower-left of its bleed box at (x, y) (trim box when bleed=False)."""
    renderer_for(game).place(canvas, game.decks[card.deck], card, (x, y), bleed, ink=ink)


def draw_back(canvas: Canvas, game: Game, deck: Deck, x: float, y: float, bleed: bool = True,
              card: Card | None = None, ink: str = "normal") -> None:
    """Draw the back of `card` (default: the deck's usual back) with the lower-left of its bleed box at (x, y)
    (trim box when bleed=False)."""
    renderer_for(game).place(canvas, deck, card, (x, y), bleed, back=True, ink=ink)


def render_card_pdf(game: Game, card_or_deck: Card | Deck, path: Path, side: str = "front",
                    bleed_pt: float | None = None, ink: str = "normal") -> Path:
    """Write a one-page PDF of one card face: trim plus bleed, with TrimBox and BleedBox set."""
    renderer = renderer_for(game)
    deck = card_or_deck if isinstance(card_or_deck, Deck) else game.decks[card_or_deck.deck]
    card = card_or_deck if isinstance(card_or_deck, Card) else None
    if side == "front" and card is None:
        raise ValueError("the front needs a card, not a deck")
    tw, th = renderer.size(deck)
    b = renderer.bleed if bleed_pt is None else min(bleed_pt, renderer.bleed)
    page = (tw + 2 * b, th + 2 * b)
    canvas = Canvas(str(path), pagesize=page, invariant=1, initialFontName=BODY, pageCompression=1,
                    trimBox=(b, b, b + tw, b + th), bleedBox=(0, 0, page[0], page[1]))
    canvas.setTitle(f"{game.title} - {card.code if card else deck.name + ' back'}")
    renderer.place(canvas, deck, card, (b - renderer.bleed, b - renderer.bleed),
                   clip=(0, 0, page[0], page[1]), back=side == "back", ink=ink)
    canvas.showPage()
    canvas.save()
    return Path(path)
