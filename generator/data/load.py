"""Load: read a game folder's YAML into the typed objects of generator.data.game, collecting every problem
with file:line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem, Problems, did_you_mean, where
from generator.core.fonts import FontTable
from generator.core.limits import MAX_CARDS
from generator.core.phrases import SOURCE, phrases_for
from generator.core.pydantic_errors import validate
from generator.core.yamlio import YDict, YList, load_yaml
from generator.data.component_models import KINDS as COMPONENT_KINDS
from generator.data.component_models import MODELS as COMPONENT_MODELS
from generator.data.component_models import DieFile, ItemsFile, TuckboxFile
from generator.data.components import DIE_FACE_COLUMNS, Component, die_faces_from_rows, load_component
from generator.data.fonts import load_fonts
from generator.data.game import Board, Card, Deck, Game, PlayerRange, Record, Table, player_range
from generator.data.live_sheets import check_cache
from generator.data.models import (
    CARD_KEYS,
    BoardFile,
    DeckFile,
    GameConfig,
    TableFile,
    card_shape,
    card_width_height_mm,
    row_model,
)
from generator.data.overrides import (
    Applied,
    Override,
    apply_overrides,
    apply_to_sheet_cards,
    card_override,
    credit,
)
from generator.data.project import Project
from generator.data.renames import read_renamed
from generator.data.revision import PRINTED_RECORD
from generator.data.sheet_cards import SheetSettings, card_rows
from generator.data.slips import comment_colours, game_slips, invisible_characters
from generator.data.spreadsheet import read_grid, spreadsheet_near
from generator.data.translation import source_phrases, translate

FILE_KINDS = ("deck", "table", "board", "component")
RULES_KEY = "turn"  # the key of a rules file of the rules language (docs/rules-language.md), not a data file


def _load_records(raw_rows: YList, model, shown: str, problems: Problems) -> list[tuple[Any, YDict]]:
    """Validate each card or row (the file model has already checked that each is a mapping)."""
    out = []
    for raw in raw_rows:
        record = validate(model, raw, shown, problems)
        if record is not None:
            out.append((record, raw))
    return out


def _check_unique_ids(pairs, shown: str, what: str, problems: Problems) -> None:
    first: dict[str, int] = {}
    for record, raw in pairs:
        line = raw.line_of("id")
        if record.id in first:
            problems.add(
                shown,
                line,
                f"duplicate {what} id '{record.id}' (first defined at {where(first[record.id])}); expected "
                "unique ids",
            )
        else:
            first[record.id] = line


def _field_lines(raw: YDict) -> dict[str, int]:
    """Line of each field declaration under `fields:` (for problems about the declaration itself)."""
    fields = raw.get("fields")
    return dict(fields.key_lines) if isinstance(fields, YDict) else {}


def _sheet_rows(reading: _Reading, source, raw: YDict, shown: str, specs, *, card: bool,
                items: str, core: tuple[str, ...] | None = None) -> tuple[YList, str]:
    """The raw rows of a file whose `items` (cards:, rows:, items:) are written in it, or read from the
    `cards_from:` spreadsheet `source` (None: written in it); with the file they are located in."""
    if source is None:
        return raw[items], shown
    project, game_dir, problems = reading.project, reading.game_dir, reading.problems
    line = raw.line_of("cards_from")
    sheet_line = raw["cards_from"].line_of("sheet") if isinstance(raw["cards_from"], YDict) else line
    file_line = raw["cards_from"].line_of("file") if isinstance(raw["cards_from"], YDict) else line
    try:
        if source.url is not None:
            path = project.in_game(game_dir.name, source.read_from, file=shown, line=line, what="cache file")
            check_cache(game_dir, source, path, shown, raw["cards_from"].line_of("url"))
        else:
            path = project.in_game(game_dir.name, source.read_from, file=shown, line=line, what="spreadsheet")
        if not path.is_file():
            raise InputError(
                Problem(
                    shown,
                    file_line,
                    f"spreadsheet '{source.read_from}' not found"
                    f"{spreadsheet_near(source.read_from, path)}; expected a .csv, "
                    f".xlsx or .ods file with one row per {'card' if card else 'row'} (a path relative "
                    f"to {project.show(game_dir)}/)",
                )
            )
        grid = read_grid(path, project.show(path), source.sheet, (shown, sheet_line))
    except InputError as exc:
        problems.extend(exc.problems)
        empty = YList()
        empty.line, empty.item_lines = line, []
        return empty, shown
    settings = SheetSettings.of(source, raw["cards_from"], shown, line)
    return card_rows(grid, specs, problems, settings, card=card, core=core), grid.shown


def _one_source(model, raw: YDict, shown: str, what: str, items: str, problems: Problems) -> bool:
    """Whether a table or component file has its `items` (rows:, items:) or `cards_from:`, not both or
    neither (a located problem otherwise)."""
    written, read = getattr(model, items) is not None, model.cards_from is not None
    if written != read:
        return True
    problems.add(shown, raw.line_of("cards_from") if written else raw.line,
                 f"{what} has {f'both `{items}:` and `cards_from:`' if written else f'no `{items}:`'}; "
                 f"expected either `{items}:` (a list) or `cards_from:` (a .csv, .xlsx or .ods file)")
    return False


def _load_deck(reading: _Reading, config: GameConfig, model: DeckFile, raw: YDict, shown: str,
               overrides: Sequence[Override]) -> Deck:
    """The deck of a deck file; `overrides` are the `--set`s of its cards."""
    problems = reading.problems
    card_model = row_model(model.deck.title().replace("-", ""), model.fields, card=True)
    raw_cards, cards_file = _sheet_rows(reading, model.source, raw, shown, model.fields, card=True,
                                        items="cards")
    # --set on a spreadsheet's cards: once its rows are read
    if model.source is not None and overrides:
        done, wrong = apply_to_sheet_cards(overrides, raw, raw_cards, cards_file)
        reading.applied.extend(done)
        problems.extend(wrong)
    pairs = _load_records(raw_cards, card_model, cards_file, problems)
    _check_unique_ids(pairs, cards_file, "card", problems)
    cards = []
    for index, (rec, card_raw) in enumerate(pairs, start=1):
        data = rec.model_dump()
        core = {key: data.pop(key) for key in CARD_KEYS}
        cards.append(Card(
            id=core["id"], name=core["name"], fields=data, file=cards_file, line=card_raw.line,
            key_lines=dict(card_raw.key_lines), deck=model.deck, index=index,
            code=f"{config.code}-{model.code}-{index:02d}", copies=core["copies"],
            layout=core["layout"] or model.layout, icon=core["icon"], image=core["image"], back=core["back"],
            players=card_players(core["players"], config, cards_file, card_raw, problems),
        ))
    return Deck(
        id=model.deck,
        name=model.name,
        code=model.code,
        file=shown,
        line=raw.line,
        size_mm=card_width_height_mm(model.size or config.card_size),
        shape=card_shape(model.size or config.card_size),
        layout=model.layout,
        back=model.back,
        total=model.total,
        description=model.description,
        field_specs=model.fields,
        cards=cards,
        key_lines=dict(raw.key_lines),
        field_lines=_field_lines(raw),
        source=cards_file if model.source is not None else None,
    )


def card_players(value, config: GameConfig, shown: str, raw: YDict, problems: Problems) -> PlayerRange | None:
    """The player range of a card's `players:` (None when it has none); a range that does not parse, or that
    no player count of the game meets, is a problem at the card's `players`."""
    if value is None:
        return None
    try:
        found = player_range(value)
    except ValueError as exc:
        problems.add(shown, raw.line_of("players"), str(exc))
        return None
    low, high = config.players.min, config.players.max
    if found.low > high or (found.high is not None and found.high < low):
        problems.add(shown, raw.line_of("players"),
                     f"players is '{found.label}', but the game is for {low}-{high} players, so the card "
                     f"would never be in play; expected a range that meets {low}-{high}")
    return found


def _load_table(reading: _Reading, model: TableFile, raw: YDict, shown: str) -> Table:
    problems = reading.problems
    row_type = row_model(model.table.title().replace("-", ""), model.fields, card=False)
    raw_rows, rows_file = _sheet_rows(reading, model.source, raw, shown, model.fields, card=False,
                                      items="rows")
    pairs = _load_records(raw_rows, row_type, rows_file, problems)
    _check_unique_ids(pairs, rows_file, "row", problems)
    rows = []
    for rec, row_raw in pairs:
        data = rec.model_dump()
        rows.append(Record(id=data.pop("id"), name=data.pop("name"), fields=data, file=rows_file,
                           line=row_raw.line, key_lines=dict(row_raw.key_lines)))
    return Table(
        id=model.table,
        name=model.name,
        file=shown,
        line=raw.line,
        field_specs=model.fields,
        rows=rows,
        field_lines=_field_lines(raw),
    )


def load_game(
    project: Project, game_id: str, overrides: list[Override] | tuple = (), lang: str | None = None
) -> Game:
    """Load one game folder; raise InputError with every problem found.

    `overrides` (`--set PATH=VALUE`) change the YAML as read, before any check; the files are never touched.
    `lang` gives the game in one of its declared languages (generator.data.translation); default: the
    source."""
    game = _load_source(project, game_id, overrides)
    if lang is None or lang == game.source_language:
        return game
    return translate(game, lang)


@dataclass
class _Contents:
    """What a game folder's files hold, as they are read. A file that could not be read or typed makes the
    folder `unreadable`: nothing it may have defined is reported missing, and no deck of `invalid_decks`."""

    files: dict[str, str]
    decks: dict[str, Deck] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    boards: dict[str, Board] = field(default_factory=dict)
    components: dict[str, Component] = field(default_factory=dict)
    invalid_decks: set[str] = field(default_factory=set)
    unreadable: bool = False


@dataclass(frozen=True)
class _Reading:
    """What every data file of one game is read with: the game's config (None when game.yaml is broken),
    the `--set` overrides and the list of those applied so far, and the problems found."""

    project: Project
    game_dir: Path
    config: GameConfig | None
    overrides: Sequence[Override]
    applied: list[Applied]
    problems: Problems


def _load_source(project: Project, game_id: str, overrides: list[Override] | tuple = ()) -> Game:
    problems = Problems()
    game_dir = project.cards_dir / game_id
    game_file = game_dir / "game.yaml"
    _check_game_file(project, game_dir, game_file, problems)
    config: GameConfig | None = None
    fonts: FontTable | None = None
    renamed: list[Problem] = []
    raw_game = _read_game_file(project, game_file, problems, renamed)
    contents = _Contents(files={project.show(game_file): "game"})
    raws = _read_data_files(project, game_dir, contents, problems)
    applied: list[Applied] = []
    if overrides and raw_game is not None:
        applied, wrong = apply_overrides(list(overrides), raw_game, project.show(game_file), raws)
        if wrong and not contents.unreadable:  # a path into an unreadable file is not reported twice
            problems.extend(wrong)
    if raw_game is not None:
        config = validate(GameConfig, raw_game, project.show(game_file), problems)
        if config is not None:
            fonts = load_fonts(project, game_id, config, raw_game, project.show(game_file), problems)
    reading = _Reading(project, game_dir, config, overrides, applied, problems)
    for shown, raw in raws:
        _load_file(reading, contents, shown, raw)
    if config is not None:
        assert raw_game is not None  # the config is read from it
        _check_against_config(reading, config, raw_game, project.show(game_file), contents)
    comments = [p for path in [game_file, *_data_files(game_dir)] if _inside(project, path, Problems())
                for p in comment_colours(path, project.show(path))]
    _raise_problems(problems, comments, applied)
    texts = [game_file, *_data_files(game_dir), *sorted(game_dir.glob("*.csv"))]
    invisible = [p for path in texts if _inside(project, path, Problems())
                 for p in invisible_characters(path, project.show(path))]
    slips = renamed + comments + invisible + game_slips(
        project.show(game_file), raw_game, {shown: raw for shown, raw in raws if "board" in raw}
    )
    assert config is not None and fonts is not None  # without them there were problems, raised above
    components = dict(
        sorted(contents.components.items(),
               key=lambda pair: (COMPONENT_KINDS.index(pair[1].kind), pair[1].file))
    )
    source = config.languages[0] if config.languages else SOURCE
    game = Game(
        id=game_id,
        dir=game_dir,
        project=project,
        config=config,
        decks=contents.decks,
        tables=contents.tables,
        boards=contents.boards,
        components=components,
        files=contents.files,
        overrides=tuple(applied),
        fonts=fonts,
        key_lines=dict(getattr(raw_game, "key_lines", {})),
        warnings=slips,
        language=source,
        phrases=phrases_for(source),
    )
    game.phrases = source_phrases(game)  # i18n/<source>.yaml may change the tool's words (`tool:`)
    return game


def _check_game_file(project: Project, game_dir: Path, game_file: Path, problems: Problems) -> None:
    """Raise unless the folder has a game.yaml inside the project (a linked one: nothing of it is read)."""
    if not game_file.is_file():
        raise InputError(
            [
                Problem(
                    project.show(game_dir),
                    0,
                    "no game.yaml in this game folder; expected game.yaml with title, code, players and "
                    "decks",
                )
            ]
        )
    if not _inside(project, game_file, problems):
        raise InputError(problems.sorted())


def _read_game_file(project: Project, game_file: Path, problems: Problems,
                    warnings: list[Problem]) -> YDict | None:
    """game.yaml as read (None when it cannot be), its renamed keys read by their new names (a warning each,
    into `warnings`)."""
    raw_game: YDict | None = None
    try:
        raw_game = load_yaml(game_file, project.show(game_file))
        if isinstance(raw_game, YDict):
            renamed, wrong = read_renamed(raw_game, project.show(game_file))
            warnings += renamed
            problems.extend(wrong)
    except InputError as exc:
        problems.extend(exc.problems)
    return raw_game


def _read_data_files(project: Project, game_dir: Path, contents: _Contents,
                     problems: Problems) -> list[tuple[str, YDict]]:
    """(file as shown, YAML) of every data file of the folder that can be read."""
    raws: list[tuple[str, YDict]] = []
    for path in _data_files(game_dir):
        if not _inside(project, path, problems):
            contents.unreadable = True
            continue
        shown = project.show(path)
        try:
            raws.append((shown, load_yaml(path, shown)))
        except InputError as exc:
            problems.extend(exc.problems)
            contents.unreadable = True
    return raws


def _load_file(reading: _Reading, contents: _Contents, shown: str, raw: YDict) -> None:
    """One data file into the contents, by its top-level key."""
    problems = reading.problems
    # a component file may name decks (a tuck box's `deck:`), so `component:` decides first
    kinds = ["component"] if "component" in raw else [k for k in FILE_KINDS if k in raw]
    if not kinds and RULES_KEY in raw:  # a rules file (generator.rules): read by the commands that play only
        return
    if len(kinds) != 1:
        first = next(iter(raw), "")
        hint = did_you_mean(str(first), FILE_KINDS) if first else ""
        problems.add(
            shown,
            raw.line,
            f"cannot tell what this file is{hint}; expected exactly one of the top-level keys: "
            f"{', '.join(FILE_KINDS)}",
        )
        contents.unreadable = True
        return
    kind = kinds[0]
    contents.files[shown] = kind
    if kind == "deck":
        _add_deck(reading, contents, shown, raw)
    elif kind == "table":
        model = validate(TableFile, raw, shown, problems)
        if model is not None and _one_source(model, raw, shown, f"table '{model.table}'", "rows", problems):
            contents.tables[model.table] = _load_table(reading, model, raw, shown)
    elif kind == "board":
        board = validate(BoardFile, raw, shown, problems)
        if board is not None:
            contents.boards[board.board] = Board(id=board.board, file=shown, model=board, raw=raw)
    else:
        _add_component(reading, contents, shown, raw)


def _add_deck(reading: _Reading, contents: _Contents, shown: str, raw: YDict) -> None:
    problems, decks = reading.problems, contents.decks
    model = validate(DeckFile, raw, shown, problems)
    if model is not None and (model.cards is None) == (model.cards_from is None):
        both = model.cards is not None
        problems.add(
            shown,
            raw.line_of("cards_from") if both else raw.line,
            f"deck '{model.deck}' has {'both `cards:` and `cards_from:`' if both else 'no cards'}; "
            "expected either `cards:` (a list of cards) or `cards_from:` (a .csv, .xlsx or .ods "
            "file)",
        )
        model = None
    if model is None:
        contents.invalid_decks.add(str(raw["deck"]))
    elif reading.config is not None:
        if model.deck in decks:
            problems.add(
                shown,
                raw.line_of("deck"),
                f"deck '{model.deck}' is also defined in {decks[model.deck].file}; expected unique "
                "deck ids",
            )
        sheet_overrides = [o for o in reading.overrides if o.path[0] == model.deck and card_override(o)]
        decks[model.deck] = _load_deck(reading, reading.config, model, raw, shown, sheet_overrides)


def _add_component(reading: _Reading, contents: _Contents, shown: str, raw: YDict) -> None:
    components = contents.components
    component = _load_component(reading, raw, shown)
    if component is not None:
        if component.id in components:
            reading.problems.add(
                shown,
                raw.line_of("component"),
                f"component '{component.id}' is also defined in "
                f"{components[component.id].file}; expected unique component ids",
            )
        components[component.id] = component


def _check_against_config(reading: _Reading, config: GameConfig, raw_game: YDict, game_shown: str,
                          contents: _Contents) -> None:
    """The decks game.yaml lists against the deck files (put in its order), the component ids against the
    deck ids, the deck codes and the number of cards."""
    problems, decks = reading.problems, contents.decks
    for deck_id in config.decks:
        if deck_id not in decks and deck_id not in contents.invalid_decks and not contents.unreadable:
            problems.add(
                game_shown,
                raw_game["decks"].line_of(config.decks.index(deck_id)),
                f"deck '{deck_id}' has no file{did_you_mean(deck_id, decks)}; expected a YAML file in "
                f"{reading.project.show(reading.game_dir)} with `deck: {deck_id}`",
            )
    for deck in decks.values():
        if deck.id not in config.decks:
            problems.add(
                deck.file,
                deck.line,
                f"deck '{deck.id}' is not listed in {game_shown} `decks`; expected it there so it is "
                "printed",
            )
    for component in contents.components.values():
        if component.id in decks:
            problems.add(
                component.file,
                component.line_of("component"),
                f"component '{component.id}' has the id "
                f"of the deck in {decks[component.id].file}; expected an id of its own (exports use it "
                "as a folder name)",
            )
    ordered = {d: decks[d] for d in config.decks if d in decks}
    contents.decks = decks = ordered | {d: v for d, v in decks.items() if d not in ordered}
    _check_deck_codes(decks, problems)
    total = sum(deck.copies for deck in decks.values())
    if total > MAX_CARDS:
        problems.add(
            game_shown,
            raw_game.line_of("decks"),
            f"the decks hold {total:,} cards; expected at most {MAX_CARDS:,} in one game (pnp's limit)",
        )


def _raise_problems(problems: Problems, comments: list[Problem], applied: list[Applied]) -> None:
    """Raise the problems found, if any: a colour YAML read as a comment explains the error it causes
    ('color' is None), so those are told once, as the comment."""
    if problems:
        explained = {(p.file, p.line) for p in comments}
        kept = {p for p in problems.sorted() if (p.file, p.line) not in explained}
        raise InputError(credit(sorted(kept | set(comments)), applied))


def _data_files(game_dir: Path) -> list[Path]:
    return [p for p in sorted(game_dir.glob("*.yaml")) + sorted(game_dir.glob("*.yml"))
            if p.name not in ("game.yaml", "game.yml", PRINTED_RECORD)]  # the record: generator.data.printed


def _inside(project: Project, path: Path, problems: Problems) -> bool:
    """True when the file (a symbolic link followed) lies inside the project; otherwise a problem located at
    the file as it appears in the game folder, and the file is never read."""
    try:
        project.inside(path.name, path.parent, file=project.show(path), what="data file")
        return True
    except InputError as exc:
        problems.extend(exc.problems)
        return False


def _load_component(reading: _Reading, raw: YDict, shown: str) -> Component | None:
    """A component file: its `kind` picks the model; items are typed like cards (and may be read from a
    spreadsheet like them)."""
    config, problems = reading.config, reading.problems
    kind = raw.get("kind")
    model_type = COMPONENT_MODELS.get(kind) if isinstance(kind, str) else None
    if model_type is None:
        if kind is None:
            problems.add(
                shown,
                raw.line_of("component"),
                f"missing key 'kind'; expected one of: {', '.join(COMPONENT_KINDS)}",
            )
        else:
            problems.add(
                shown,
                raw.line_of("kind"),
                f"unknown component kind '{kind}'"
                f"{did_you_mean(str(kind), COMPONENT_KINDS)}; expected one of: {', '.join(COMPONENT_KINDS)}",
            )
        return None
    model = validate(model_type, raw, shown, problems)
    if model is None:
        return None
    if isinstance(model, TuckboxFile) and "thickness" not in model.model_fields_set and config is not None:
        # the box is as deep as the game's cards are thick (game.yaml card_thickness), unless it says
        model = model.model_copy(update={"thickness": config.card_thickness})
    rows = None
    if isinstance(model, ItemsFile):
        if not _one_source(model, raw, shown, f"component '{model.component}'", "items", problems):
            return None
        rows = _sheet_rows(reading, model.source, raw, shown, model.fields, card=True, items="items")
    elif isinstance(model, DieFile):
        if not _one_source(model, raw, shown, f"die '{model.component}'", "faces", problems):
            return None
        if model.source is not None:  # one face per row: its columns are the keys of a face
            rows = _sheet_rows(reading, model.source, raw, shown, DIE_FACE_COLUMNS, card=False,
                               items="faces", core=())
            faces = die_faces_from_rows(rows[0], rows[1], problems)
            if faces is None:
                return None
            model = model.model_copy(update={"faces": faces})
    return load_component(model, raw, shown, config.code if config is not None else "XX", problems, rows)


def _check_deck_codes(decks: dict[str, Deck], problems: Problems) -> None:
    """Deck codes are unique in a game: they make the card codes (OUP-ORD-07) and name the drawn card
    faces."""
    first: dict[str, Deck] = {}
    for deck in decks.values():
        other = first.setdefault(deck.code, deck)
        if other is not deck:
            problems.add(
                deck.file,
                deck.key_lines.get("code", deck.line),
                f"deck '{deck.id}' has code '{deck.code}', which deck '{other.id}' ({other.file}) uses too; "
                "expected a code of its own (it starts every card code of the deck)",
            )

