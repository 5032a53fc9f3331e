"""Incremental builds: hashes of what games and outputs are made from, kept in build/.state.json.

A game is made from its folder (every file under cards/<game>/), the project's templates/, the icon library,
the fonts, the generator's version and source files (which include every producer and preset) and the build
options. A game whose hash and options match the last build, and whose recorded outputs are still on disk
untouched, is not even loaded. A changed game is loaded and checked, and each of its outputs is drawn only
when its own fingerprint (generator.pipeline.fingerprints: the parts of the game that output is made from)
changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from pathlib import Path

import generator
from generator.core.contract import HOW_TO_BUILD, BuildOptions
from generator.core.errors import Problem
from generator.core.fonts import font_files
from generator.core.usercache import file_digest, file_digests
from generator.core.write import atomic_write
from generator.data.project import BUILTIN_ICONS, RULES_DIR, Project, is_source
from generator.data.revision import PRINTED_RECORD

STATE_FILE = ".state.json"
RASTER_SUFFIXES = (".png", ".jpg", ".jpeg")  # as generator.faces.image (not imported here: a light module)
_LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")  # as generator.core.phrases.CODE
STATE_VERSION = 2  # 2: per-output fingerprints
# as generator.data.translation.I18N_DIR (not imported: a build with nothing to do loads no game)
I18N_DIR = "i18n"
SOURCE_ROOT = Path(generator.__file__).resolve().parent
# the digests of this install's files are remembered together (core.usercache)
TOOL_FILES = f"tool {SOURCE_ROOT}"


def files_below(folder: Path, within: Path | None = None) -> list[Path]:
    """Every file below `folder`, sorted, without caches and editor leftovers; with `within` (the project
    folder), only the files a build reads (data.project.is_source: not notes or lock files) and without
    symbolic links to files outside it (they are never read; a file that uses one is refused)."""
    folder = Path(folder)
    if not folder.is_dir() or "__pycache__" in folder.parts:
        return []
    found: list[str] = []
    links: set[str] = set()
    base = os.fspath(folder)
    _walk(base, found, links)
    if within is not None:
        found = [name for name in found if is_source(os.path.basename(name))]
        inside = os.path.join(os.fspath(Path(within).resolve()), "")  # the project folder and a separator
        # only a linked file can lead elsewhere: the walk enters no linked folder
        real_base = os.path.realpath(base)
        found = [
            name
            for name in found
            if (os.path.realpath(name) if name in links else real_base + name[len(base) :]).startswith(inside)
        ]
    # sorted as the paths are (part by part): every one starts with `folder`
    if os.sep == "/":
        return [Path(name) for name in sorted(found, key=lambda name: name.split("/"))]
    return sorted(map(Path, found))


def _walk(directory: str, found: list[str], links: set[str]) -> None:
    """The files below `directory` (symbolic links to files included, and noted in `links`; linked folders,
    caches and editor leftovers not), without making a Path of each entry (the tool's sources alone are some
    330 files, listed every build)."""
    try:
        with os.scandir(directory) as entries:
            listed = list(entries)
    except PermissionError:  # as Path.rglob: a folder that cannot be listed has no files
        return
    for entry in listed:
        name = entry.name
        if name == "__pycache__":
            continue
        if entry.is_dir(follow_symlinks=False):
            _walk(entry.path, found, links)
        elif (
            not name.endswith(("~", ".pyc", ".swp", ".tmp")) and not name.startswith(".#") and _is_file(entry)
        ):
            found.append(entry.path)
            if entry.is_symlink():
                links.add(entry.path)


def _is_file(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file()  # follows a symbolic link, as Path.is_file
    except OSError:
        return False


def _names(paths: list[Path], root: Path | None) -> list[str]:
    """Each path's name relative to `root` as path.relative_to gives it (the whole path when it is not below),
    cut from the strings: some 400 files a build, every build."""
    base = os.path.join(os.fspath(root), "") if root else None
    names = [os.fspath(path) for path in paths]
    if base is None:
        return names
    return [name[len(base):] if name.startswith(base) else name for name in names]


def digest(paths: list[Path], root: Path | None = None) -> str:
    """SHA-256 over the names (relative to `root`) and bytes of the files; a raster picture's bytes stand
    there as their SHA-256 remembered by the file's stamp (core.usercache): a deck's art is hundreds of
    megabytes, read again on every build otherwise (the picture embedding uses the same digest)."""
    sha = hashlib.sha256()
    for path, name in zip(paths, _names(paths, root), strict=True):
        sha.update(name.encode() + b"\0")
        if path.suffix.lower() in RASTER_SUFFIXES:
            sha.update(b"sha256:" + file_digest(path).encode())
        else:
            sha.update(path.read_bytes())
        sha.update(b"\0")
    return sha.hexdigest()


def remembered_digest(paths: list[Path], root: Path | None = None, group: str = "files") -> str:
    """SHA-256 over the names (relative to `root`) and the SHA-256 of each file's bytes, which are remembered
    by the file's stamp between runs (core.usercache, in `group`): a file that did not change is not read
    again."""
    sha = hashlib.sha256()
    for name, file_sha in zip(_names(paths, root), file_digests(paths, group), strict=True):
        sha.update(f"{name}\0{file_sha}\0".encode())
    return sha.hexdigest()


def tool_digest() -> str:
    """The inputs of every output of every project: generator version and sources, the icon library and fonts
    (the same files on every run, read again only when one changed)."""
    import reportlab

    parts = [
        f"generator {generator.__version__}", f"reportlab {reportlab.Version}",
        remembered_digest(files_below(SOURCE_ROOT), SOURCE_ROOT, TOOL_FILES),
        remembered_digest(files_below(BUILTIN_ICONS), BUILTIN_ICONS, TOOL_FILES),
        remembered_digest(sorted(font_files().values()), group=TOOL_FILES),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def shared_digest(project: Project, tool: str | None = None, game: str | None = None) -> str:
    """The inputs the games of the project share: the tool's (tool_digest) and templates/; for one `game`,
    without the other games' own rules templates (templates/rules/<other game>.md.j2 and <other
    game>.<language>.md.j2)."""
    files = files_below(project.templates_dir, project.root)
    if game is not None:
        games = sorted(project.game_ids(), key=len, reverse=True)  # 'my.game' before 'my'
        rules = project.templates_dir / RULES_DIR
        files = [path for path in files
                 if path.parent != rules or rules_template_owner(path.name, games) in (None, game)]
    parts = [tool or tool_digest(), digest(files, project.templates_dir)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def rules_template_owner(name: str, games: list[str]) -> str | None:
    """The game whose rules template a file of templates/rules/ is (<game>.md.j2 or <game>.<language>.md.j2),
    the first of `games` that fits; None for a shared partial."""
    for game in games:
        if name == f"{game}.md.j2" or (name.startswith(f"{game}.") and name.endswith(".md.j2")
                                       and _LANGUAGE.fullmatch(name[len(game) + 1:-len(".md.j2")])):
            return game
    return None


def options_fingerprint(options: BuildOptions) -> str:
    """Every build option but those that only decide how the build runs (core.contract.HOW_TO_BUILD): the
    options that change how an output looks, the papers and the languages (which outputs there are)."""
    data = {field.name: getattr(options, field.name) for field in dataclasses.fields(options)
            if field.name not in HOW_TO_BUILD}
    data["languages"] = sorted(data["languages"])  # which languages are built, in any order
    return json.dumps(data, sort_keys=True, default=str)


@dataclasses.dataclass(frozen=True)
class GameKey:
    """`content`: hash of a game's inputs; `full`: that plus every option (which of them change how an output
    looks, its producer declares: generator.pipeline.fingerprints)."""

    content: str
    full: str
    # the inputs every output shares (tool_digest); templates/ are a part of the game's outputs
    tool: str = ""
    checked: str = ""  # what the game's checks read: its folder but i18n/, templates/ but the rules templates


def game_keys(project: Project, names: list[str], options: BuildOptions) -> dict[str, GameKey]:
    """The hash of each game's inputs under these options (and SOURCE_DATE_EPOCH, the `build.date` a layout
    may print)."""
    tool = tool_digest() + f" date:{os.environ.get('SOURCE_DATE_EPOCH', '')}"
    keys = {}
    # the checks of a game (generator.pipeline.gather) read its data, layouts, pictures and fonts, never the
    # rules
    # templates or the translations: a game whose other inputs did not change is loaded but not checked again
    not_rules = digest([path for path in files_below(project.templates_dir, project.root)
                        if not path.name.endswith(".j2")], project.templates_dir)
    for name in names:
        folder = project.cards_dir / name
        shared = shared_digest(project, tool, name)
        files = files_below(folder, project.root)
        if not options.changed:  # the printed record is read by a --changed reprint alone
            files = [path for path in files if path != folder / PRINTED_RECORD]
        content = hashlib.sha256("\n".join([shared, digest(files, folder)]).encode()).hexdigest()
        full = hashlib.sha256(f"{content}\n{options_fingerprint(options)}".encode()).hexdigest()
        data = [path for path in files if path.relative_to(folder).parts[0] != I18N_DIR]
        checked = hashlib.sha256("\n".join([tool, not_rules, digest(data, folder)]).encode()).hexdigest()
        keys[name] = GameKey(content, full, tool, checked)
    return keys


def file_stamp(path: Path) -> dict:
    """Size and modification time of a written output, to notice it being replaced or deleted later."""
    stat = path.stat()
    return {"bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns}


class BuildState:
    """build/.state.json: per output the hash it was made from; per game its key, outputs and check report."""

    def __init__(self, build_dir: Path):
        self.path = Path(build_dir) / STATE_FILE
        self.build_dir = Path(build_dir)
        self.data: dict = {"version": STATE_VERSION, "games": {}, "outputs": {}, "units": {}}
        if self.path.is_file():
            try:
                self.data = _well_formed(json.loads(self.path.read_text(encoding="utf-8")))
            except (ValueError, OSError):
                pass  # a damaged state only costs a full build

    def _intact(self, path: str) -> bool:
        entry = self.data["outputs"].get(path)
        target = self.build_dir / path
        return entry is not None and target.is_file() and file_stamp(target) == entry.get("stamp")

    def game_is_fresh(self, name: str, key: GameKey) -> bool:
        """True when the game's inputs and options match the last build and its outputs are untouched."""
        entry = self.data["games"].get(name)
        if not entry or entry.get("key") != key.full or "report" not in entry:
            return False
        return all(self._intact(path) for path in entry.get("outputs", []))

    def output_is_fresh(self, path: Path, fingerprint: str) -> bool:
        """True when this output was made from exactly these inputs (its fingerprint) and is still on disk
        untouched."""
        shown = Path(path).as_posix()
        entry = self.data["outputs"].get(shown)
        return entry is not None and entry.get("hash") == fingerprint and self._intact(shown)

    def game_outputs(self, name: str) -> list[str]:
        """The outputs recorded for a game at its last build."""
        return list(self.data["games"].get(name, {}).get("outputs", []))

    def checked_report(self, name: str, key: GameKey) -> dict | None:
        """The check report of a game's last build when the inputs its checks read are the same now (None:
        check it again)."""
        entry = self.data["games"].get(name)
        if not entry or entry.get("checked") != key.checked:
            return None
        return self.game_report(name)

    def unit_outputs(self, unit: str, fingerprint: str, listed: set[str]) -> list[str] | None:
        """The outputs of a unit (a game in one language, one producer) when it was planned from exactly these
        inputs (`fingerprint`) and every output is still on disk untouched and `listed` in the manifest; None
        when it must be planned again."""
        entry = self.data["units"].get(unit)
        if not entry or entry.get("hash") != fingerprint:
            return None
        outputs = entry["outputs"]
        return outputs if all(self._intact(path) and path in listed for path in outputs) else None

    def record_unit(self, unit: str, fingerprint: str, outputs: list[Path]) -> None:
        """Remember the inputs a unit was planned from and the outputs it made."""
        self.data["units"][unit] = {
            "hash": fingerprint,
            "outputs": sorted(Path(p).as_posix() for p in outputs),
        }

    def game_report(self, name: str) -> dict:
        """The check report of a game's last build (shown again when the game is skipped)."""
        report = self.data["games"][name]["report"]
        return {key: report[key] for key in REPORT_KEYS}

    def record_output(self, path: Path, fingerprint: str, written: Path | None = None) -> None:
        """Remember what an output (just written or found fresh) was made from; `written` is the file whose
        size and time it will have (its staged temporary file: a rename keeps both)."""
        shown = Path(path).as_posix()
        self.data["outputs"][shown] = {
            "hash": fingerprint,
            "stamp": file_stamp(written or self.build_dir / shown),
        }

    def record_game(self, name: str, key: GameKey, outputs: list[Path], report, languages: list[str],
                    warnings: list[Problem] = ()) -> None:
        """Remember a game's key, its outputs, its check report, the languages it was built in and the
        warnings its translations gave after a build."""
        self.data["games"][name] = {"key": key.full, "checked": key.checked,
                                    "outputs": sorted(Path(p).as_posix() for p in outputs),
                                    "report": dataclasses.asdict(report), "languages": list(languages),
                                    "warnings": [dataclasses.asdict(w) for w in warnings]}

    def game_warnings(self, name: str) -> list[Problem]:
        """The warnings a game's translations gave at its last build (said again when the game is skipped, as
        a build that draws it says them)."""
        found = self.data["games"].get(name, {}).get("warnings")
        return [Problem(w["file"], w["line"], w["message"], w.get("cell", "")) for w in found
                if isinstance(w, dict) and isinstance(w.get("file"), str) and isinstance(w.get("line"), int)
                and isinstance(w.get("message"), str)] if isinstance(found, list) else []

    def game_languages(self, name: str) -> list[str]:
        """The languages of a game's last build (shown again when the game is skipped)."""
        languages = self.data["games"].get(name, {}).get("languages")
        return [str(language) for language in languages] if isinstance(languages, list) else []

    def text(self) -> str:
        """The state as written to build/.state.json."""
        return json.dumps(self.data, indent=1, sort_keys=True) + "\n"

    def save(self) -> None:
        """Write the state atomically."""
        atomic_write(self.path, self.text())


REPORT_KEYS = ("game", "cards", "card_types", "decks", "checks")


def _well_formed(data) -> dict:
    """The parts of a read state that have the expected shape (anything else is dropped: it costs a rebuild,
    never a crash); raises ValueError when nothing usable is left."""
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        raise ValueError("not a build state of this version")
    games = data.get("games") if isinstance(data.get("games"), dict) else {}
    outputs = data.get("outputs") if isinstance(data.get("outputs"), dict) else {}
    good_games = {
        name: entry
        for name, entry in games.items()
        if isinstance(entry, dict)
        and isinstance(entry.get("key"), str)
        and isinstance(entry.get("report"), dict)
        and isinstance(entry.get("outputs"), list)
        and all(isinstance(o, str) for o in entry["outputs"])
        and set(REPORT_KEYS) <= set(entry["report"])
    }
    good_outputs = {
        path: entry
        for path, entry in outputs.items()
        if isinstance(entry, dict)
        and isinstance(entry.get("hash"), str)
        and isinstance(entry.get("stamp"), dict)
    }
    # a state without them plans everything
    units = data.get("units") if isinstance(data.get("units"), dict) else {}
    good_units = {
        unit: entry
        for unit, entry in units.items()
        if isinstance(entry, dict)
        and isinstance(entry.get("hash"), str)
        and isinstance(entry.get("outputs"), list)
        and all(isinstance(o, str) for o in entry["outputs"])
    }
    return {"version": STATE_VERSION, "games": good_games, "outputs": good_outputs, "units": good_units}
