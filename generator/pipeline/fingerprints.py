"""Per-output fingerprints: each output's hash covers only what that output is drawn from.

Each producer declares what it is made from (generator.core.contract: `plans_from`, and per kind of output it
makes, `drawn_from` and the options that change how it `looks`); this module works out the hash of each part
of a game they name, and of an output or a producer's unit from the parts it declares. The parts:

- game, deck, table, board, component: the data files of that kind (the decks with their spreadsheets);
- layouts: the game's and templates/' layouts; templates: the other files of templates/ but icons and rules;
- pictures: the game's files that are not its data, layouts or scripts (icons, images, fonts) and
  templates/icons/;
- rules_templates: the rules templates and partials of templates/ (what they say reaches the rules as
  rules_text);
- card_makeup: what the card sheets read of the decks besides the faces: the makeup, each card's layout and
  back;
- deck_makeup: the decks' names, codes, sizes, shapes, card ids and copies;
- card_faces: every card face as `check` rendered it in the game's language (layout boxes and rendered texts,
  colours, icons, images), with the warnings it found;
- component_faces: every component face as rendered, and every table sheet's texts;
- boxed_backs: the backs of the decks the tuck boxes print, as rendered;
- rules_text: the rules as Markdown, rendered from the game's template and the shared partials (every word
  they print, and which pictures they show);
- pictured_cards: the faces of the cards the rules picture (the cover's too), as rendered;
- pictured_geometry: what the rules' page geometry reads of those cards: their decks' sizes and how small
  their texts are (the figures' legible size), not what the faces show (the balancing's choice of layout is
  kept by it, generator.booklet.pdf.LAYOUT_PARTS);
- fonts: the game's fonts and their fallbacks (a designer's face is named after a hash of its file, wherever
  it lies);
- game_data: the game as loaded in its language (a translation's texts come from i18n/, so a source text it
  replaces is no input of it); data_files: the data files themselves, for the source language;
- own_rules: the game's rules template in its language and the shared partials;
- printed: the printed record (cards/<game>/printed.yaml), which only a `--changed` reprint reads: marking
  the cards printed redraws nothing else.

So a rules-template edit redraws only that game's booklets; a layout edit the card sheets and the rules when
they picture a card of that layout; a board edit the board and the rules (and the cards only when a card shows
something of the board that changed); a card's text the card sheets, and the rules when they picture that card
or print what changed. Every output also covers the shared inputs (generator sources, fonts, icon library),
its file in i18n/ (`language`) and the options its kind declares.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from generator.core.contract import BuildOptions, OutputKind, Producer, looks_of
from generator.data.game import Game
from generator.data.printed import record_path
from generator.data.spreadsheet import SUFFIXES as SPREADSHEET_SUFFIXES
from generator.data.translation import I18N_DIR, translation_file
from generator.pipeline.incremental import digest, files_below

SPREADSHEETS = SPREADSHEET_SUFFIXES  # .xlsm too
DATA_KINDS = ("game", "deck", "table", "board", "component")
FILE_PARTS = DATA_KINDS + ("layouts", "pictures", "templates", "rules_templates")  # hashed from their files
# worked out from what the game draws or holds
WORKED_OUT = ("card_faces", "component_faces", "deck_makeup", "card_makeup", "rules_text", "pictured_cards",
              "pictured_geometry", "boxed_backs", "fonts", "game_data", "data_files", "own_rules", "printed")
PARTS = FILE_PARTS + WORKED_OUT  # every part a producer may declare


def look(names: tuple[str, ...], options: BuildOptions) -> str:
    """The values of the named options, as one text: an output's options that change how it looks."""
    return json.dumps({name: getattr(options, name) for name in names}, sort_keys=True, default=str)


class GameParts:
    """The hashes of the parts of one loaded (and checked) game, each worked out once when first asked for."""

    def __init__(self, game: Game, tool: str):
        self.game = game
        self.tool = tool
        self._files: dict[str, list[Path]] | None = None
        self._parts: dict[str, str] = {}
        self._pictured_ids: list[tuple[str, str]] | None = None
        # parts hashed from what the game draws or holds rather than from its files alone (WORKED_OUT)
        self._worked_out = {
            "card_faces": self._card_faces,
            "component_faces": self._component_faces,
            "deck_makeup": self._deck_makeup,
            "card_makeup": self._card_makeup,
            "rules_text": self._rules_text,
            "pictured_cards": self._pictured_cards,
            "pictured_geometry": self._pictured_geometry,
            "boxed_backs": self._boxed_backs,
            "fonts": self._fonts,
            "game_data": self._game_data,
            "data_files": self._data_files,
            "own_rules": self._own_rules,
            "printed": self._printed,
        }

    def files(self) -> dict[str, list[Path]]:
        """The game's files sorted into parts: data files by kind, spreadsheets with the decks, layouts,
        pictures; scripts/ (read by the validator only) in none."""
        if self._files is None:
            game, project = self.game, self.game.project
            kinds = {project.root / shown: kind for shown, kind in game.files.items()}
            parts: dict[str, list[Path]] = {name: [] for name in FILE_PARTS}
            for path in files_below(game.dir, project.root):
                top = path.relative_to(game.dir).parts[0]
                if top in ("scripts", I18N_DIR):  # translations: see `fingerprint`
                    continue
                if path == record_path(game.dir):  # the part `printed`
                    continue
                if path in kinds:
                    parts[kinds[path]].append(path)
                elif top == "layouts":
                    parts["layouts"].append(path)
                elif path.suffix.lower() in SPREADSHEETS:
                    parts["deck"].append(path)
                else:
                    parts["pictures"].append(path)
            templates = project.templates_dir
            for path in files_below(templates, project.root):
                top = path.relative_to(templates).parts[0]
                if top in ("icons", "layouts"):
                    parts["pictures" if top == "icons" else "layouts"].append(path)
                elif path.name.endswith(".j2"):  # what they say reaches the rules as their text (rules_text)
                    parts["rules_templates"].append(path)
                else:
                    parts["templates"].append(path)
            self._files = parts
        return self._files

    def part(self, name: str) -> str:
        """The hash of one part (one of PARTS)."""
        if name not in self._parts:
            if name not in PARTS:
                raise ValueError(f"no part of a game is called '{name}'; expected one of {', '.join(PARTS)}")
            worked_out = self._worked_out.get(name)
            self._parts[name] = (
                worked_out() if worked_out else digest(self.files()[name], self.game.project.root)
            )
        return self._parts[name]

    def language(self) -> str:
        """The game's language and its file in i18n/ (the translation, or the source language's `tool:`
        words): an output in one language is drawn again when that file changes, never for another language's
        file."""
        if "language" not in self._parts:
            path = translation_file(self.game, self.game.language)
            found = digest([path], self.game.project.root) if path.is_file() else ""
            self._parts["language"] = f"{self.game.language} {found}"
        return self._parts["language"]

    def _card_faces(self) -> str:
        from generator.faces.face import renderer_for

        renderer = renderer_for(self.game)
        if not renderer.checked:  # the card producer has checked it already
            renderer.check()
        # the warnings (a picture below 300 dpi, at a file and line) go into the sheets' manifest entries
        return hashlib.sha256("\n".join([renderer.drawn_digest(), *renderer.warnings]).encode()).hexdigest()

    def _component_faces(self) -> str:
        if not self.game.components:
            return ""
        from generator.components.faces import faces_for
        from generator.components.table_sheet import sheet_texts
        from generator.data.component_models import SheetFile

        faces = faces_for(self.game)
        if not faces.checked:  # the component producer has checked it already
            faces.check()
        texts = [repr(sheet_texts(self.game, c)) for c in self.game.components.values()
                 if isinstance(c.model, SheetFile)]
        return hashlib.sha256("\n".join([faces.drawn_digest(), *texts]).encode()).hexdigest()

    def _deck_makeup(self) -> str:
        """What the component sheets read of the decks themselves: ids, names, codes, sizes, shapes, card ids
        and copies (card texts reach a component only through its templates, which the faces' hash
        follows)."""
        makeup = [(d.id, d.name, d.code, d.size_mm, repr(d.shape), d.layout, d.back, d.description,
                   [(c.id, c.name, c.code, c.copies) for c in d.cards]) for d in self.game.decks.values()]
        return hashlib.sha256(repr(makeup).encode()).hexdigest()

    def _card_makeup(self) -> str:
        """What the card sheets read of the decks besides the faces: the makeup (generator.cards.sheets: the
        page labels, the outline, the copies and their order) and each card's own layout and back. The card
        files themselves are not part of it: their texts reach a sheet only through the faces, as rendered in
        the sheet's language (an edit that a translation's faces do not show leaves that language's sheets
        alone)."""
        own = [[(c.id, c.layout, c.back) for c in d.cards] for d in self.game.decks.values()]
        return hashlib.sha256(repr((self._deck_makeup(), own)).encode()).hexdigest()

    def _rules_text(self) -> str:
        """The rules as Markdown, rendered from their templates with the game's data: every word the booklets
        print (counts, names, tables, the partials) and which pictures they show."""
        from generator.booklet.text import render_rules, template_file

        if not template_file(self.game).is_file():
            return ""
        return hashlib.sha256(render_rules(self.game).encode()).hexdigest()

    def _pictured(self, sha) -> list[tuple]:
        """(deck id, card id, deck, card) of each card the rules picture or show on their cover, found once
        for both parts that read them; a card that does not exist is hashed into `sha` as missing instead."""
        from generator.booklet.text import cover_cards, pictured_cards, render_rules

        if self._pictured_ids is None:
            self._pictured_ids = pictured_cards(render_rules(self.game)) + cover_cards(self.game)
        found = []
        for deck_id, card_id in self._pictured_ids:
            deck = self.game.decks.get(deck_id)
            card = deck.by_id().get(card_id) if deck is not None else None
            if card is None:
                sha.update(f"missing {deck_id}/{card_id}".encode())
            else:
                found.append((deck_id, card_id, deck, card))
        return found

    def _pictured_cards(self) -> str:
        """The faces of the cards the rules picture, as `check` rendered them (a card the rules do not show
        may change without redrawing the booklets)."""
        from generator.booklet.text import template_file
        from generator.faces.face import renderer_for

        if not template_file(self.game).is_file():
            return ""
        renderer = renderer_for(self.game)
        sha = hashlib.sha256()
        for _, _, deck, card in self._pictured(sha):
            _face_digest(sha, self.game, renderer, deck, card)
        return sha.hexdigest()

    def _pictured_geometry(self) -> str:
        """What the rules' pages' geometry reads of the cards they picture: each one's deck size and the
        smallest size of its texts as laid out (a card's wording may change without a new balancing)."""
        from generator.booklet.references import card_text_areas
        from generator.booklet.text import template_file

        if not template_file(self.game).is_file():
            return ""
        sha = hashlib.sha256()
        for deck_id, card_id, deck, card in self._pictured(sha):
            # a figure's size reads the smallest of its cards' texts (booklet.figures.CardFigure: how small
            # a card may be drawn); where the texts are only moves the callouts' markers as they are drawn
            smallest = min((size for _, size in card_text_areas(self.game, [card])[0]), default=None)
            sha.update(repr((deck_id, card_id, deck.size_pt, smallest)).encode())
        return sha.hexdigest()

    def _boxed_backs(self) -> str:
        """The backs of the decks the tuck boxes print (their front and back panels show the deck's back), as
        rendered: a back layout edit redraws the tuck boxes and their pictures in the rules."""
        boxed = [deck_id for c in self.game.components.values() for deck_id in c.model.deck_ids]
        if not boxed:
            return ""
        from generator.faces.face import renderer_for

        renderer = renderer_for(self.game)
        sha = hashlib.sha256()
        for deck_id in dict.fromkeys(boxed):
            deck = self.game.decks.get(deck_id)
            if deck is None:
                sha.update(f"missing {deck_id}".encode())
                continue
            _face_digest(sha, self.game, renderer, deck, None)
        return sha.hexdigest()

    def _fonts(self) -> str:
        """The faces of the game's fonts and their fallbacks: a designer's face is named after a hash of its
        file (a font may lie in templates/, which the card and component parts do not read)."""
        faces = [
            (
                key,
                [(style, face.name, face.tag, str(face.path.name)) for style, face in family.faces.items()],
                [fallback.key for fallback in family.fallbacks],
            )
            for key, family in sorted(self.game.fonts.families.items())
        ]
        return hashlib.sha256(repr(faces).encode()).hexdigest()

    def _game_data(self) -> str:
        """Everything the game holds as loaded (in its language): settings, decks and cards, tables, boards,
        components, which file is what. Where a value is written (lines, translated sources) is left out."""
        game = self.game
        boards = [(b.id, b.file, b.model, b.address_format) for b in game.boards.values()]
        data = (
            game.id,
            game.language,
            game.config,
            game.decks,
            game.tables,
            boards,
            game.components,
            game.files,
        )
        return hashlib.sha256(repr(data).encode()).hexdigest()

    def _data_files(self) -> str:
        """The data files of a source language (a translation sees them only as its `game_data`)."""
        if self.game.translated:
            return ""
        return "\n".join(self.part(kind) for kind in DATA_KINDS)

    def _printed(self) -> str:
        """The printed record as a file (a --changed reprint compares the faces with it)."""
        path = record_path(self.game.dir)
        return digest([path], self.game.project.root) if path.is_file() else "none"

    def _own_rules(self) -> str:
        """The rules template of the game in its language, the shared partials (any may be included) and
        whether the source language has rules (a translation without a template of its own is then a
        problem)."""
        from generator.pipeline.incremental import rules_template_owner

        game, project = self.game, self.game.project
        own = project.rules_template(game.id, game.language if game.translated else None)
        games = sorted(project.game_ids(), key=len, reverse=True)
        partials = [
            path for path in self.files()["rules_templates"] if rules_template_owner(path.name, games) is None
        ]
        found = digest(([own] if own.is_file() else []) + partials, project.root)
        return f"{found} source rules: {project.rules_template(game.id).is_file()}"

    def unit_fingerprint(self, producer: Producer, options: BuildOptions) -> str:
        """The hash of what one producer's outputs of this game (in its language) are made from, worked out
        from the game as loaded, before the producer plans anything: which papers, the options that change how
        its outputs look, and the parts it `plans_from`."""
        parts = [f"{n}:{self.part(n)}" for n in producer.plans_from]
        looks = look(looks_of(producer), options)
        text = "\n".join([self.tool, producer.name, repr(list(self.game.papers(options))), looks, *parts,
                          f"language:{self.language()}"])
        return hashlib.sha256(text.encode()).hexdigest()

    def key(self, name: str, parts: tuple[str, ...]) -> str:
        """The hash of the named parts of this game in its language, with the shared inputs, for what `name`
        keeps between builds (the rules' chosen layout)."""
        text = "\n".join([self.tool, self.game.id, name, *(f"{n}:{self.part(n)}" for n in parts),
                          f"language:{self.language()}"])
        return hashlib.sha256(text.encode()).hexdigest()

    def fingerprint(self, path: Path | str, made: OutputKind, options: BuildOptions) -> str:
        """The hash an output of this game records: the shared inputs, the parts its kind is drawn from, its
        path and the options that change how it looks."""
        parts = [f"{n}:{self.part(n)}" for n in made.drawn_from]
        text = "\n".join([self.tool, Path(path).as_posix(), made.kind, look(made.looks, options), *parts,
                          f"language:{self.language()}"])
        return hashlib.sha256(text.encode()).hexdigest()


def _face_digest(sha, game: Game, renderer, deck, card) -> None:
    """Add to `sha` a card's face (the deck's back when `card` is None) as rendered: every box and what it
    shows."""
    for box, data in renderer.resolved(deck, card, back=card is None):
        sha.update(repr((box.name, box.kind, box.x, box.y, box.w, box.h, box.spec, data)).encode())
    sha.update(repr((deck.size_mm, repr(deck.shape), game.bleed_pt, game.safe_pt)).encode())
