"""Vector icons: SVG files drawn once per canvas as PDF Form XObjects, by name from a list of folders.

An icon is named by its file name without `.svg` (lower-case words joined by hyphens). The folders a game
searches come from `Project.icon_dirs` (its own icons/, the project's templates/icons/, then the library
shipped with the tool); functions here search `dirs` in order and default to the built-in library alone.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import re
import tempfile
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.utils import ImageReader
from reportlab.platypus.paragraph import imgVRange

from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.core.write import atomic_write
from generator.data.project import BUILTIN_ICONS, Project
from generator.faces import icon_forms
from generator.faces.svg import drawable_root, reference_problem, undrawn_features

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# Paragraph markup from inline_icon_image() calls back into the canvas under this name; when a
# canvas lacks it ReportLab's error names it, which tells the caller what to do.
INLINE_CALLBACK = "generator.faces.icons.enable_inline_icons"

# A fully transparent 1x1 PNG: ReportLab's <img> only takes raster images, so this reserves the
# icon's box in the line while the vector icon itself is drawn by the <onDraw> callback.
# (<img> wants a file: ReportLab refuses data: URIs unless rl_config trusts the scheme globally.)
_SPACER_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4//8/AwAI/AL+eMSysAAAAABJRU5ErkJggg=="
)

# canvas -> ({(path, fade): (form name, width, height)}, names of the icon forms already in its PDF); weak so
# finished canvases are forgotten.
_FORMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


Dirs = Sequence[str | Path]


def _search_dirs(dirs: Dirs | None) -> list[Path]:
    return [Path(d) for d in dirs] if dirs else [BUILTIN_ICONS]


def icon_names(dirs: Dirs | None = None) -> list[str]:
    """Sorted names of every icon in the folders (default: the built-in library)."""
    names: set[str] = set()
    for folder in _search_dirs(dirs):
        if folder.is_dir():
            names.update(p.stem for p in folder.glob("*.svg") if p.is_file())
    return sorted(names)


def known_icons(dirs: Dirs | None = None) -> str:
    """The icons of the folders for a message: the game's own (and the project's) in full first, then the
    built-in library's, shortened: 'shell (this game's), then the built-in anchovies, any-meat, ...'."""
    folders = _search_dirs(dirs)
    own_dirs = tuple(d for d in folders if d.resolve() != BUILTIN_ICONS.resolve())
    own = icon_names(own_dirs) if own_dirs else []
    built_in = [name for name in icon_names((BUILTIN_ICONS,)) if name not in own] \
        if any(d.resolve() == BUILTIN_ICONS.resolve() for d in folders) else []
    if not own:
        return known_list(built_in)
    text = f"{known_list(own, limit=40)} (this game's)"
    return text + (f", then the built-in {known_list(built_in)}" if built_in else "")


def icon_problem(
    name: str, dirs: Dirs | None = None, *, file: str | Path = "", line: int | None = None
) -> Problem | None:
    """The problem with an icon reference (unknown name), located at `file:line`, or None if it exists."""
    if _find(name, dirs) is not None:
        return None
    known = icon_names(dirs)
    if not NAME_RE.match(str(name)):
        why = f"icon name '{name}' is not valid (lower-case words joined by '-', e.g. 'black-olives')"
    else:
        why = f"unknown icon '{name}'"
    where = ", ".join(str(d) for d in _search_dirs(dirs))
    return Problem(
        str(file),
        int(line or 0),
        f"{why}{did_you_mean(name, known)}; known: {known_icons(dirs)} (icons are <name>.svg in {where})",
    )


def _find(name: str, dirs: Dirs | None) -> Path | None:
    if not isinstance(name, str) or not NAME_RE.match(name):  # also keeps '../x' out of the folders
        return None
    for folder in _search_dirs(dirs):
        candidate = folder / f"{name}.svg"
        if candidate.is_file():
            return candidate
    return None


def icon_path(name: str, dirs: Dirs | None = None, *, file: str | Path = "", line: int | None = None) -> Path:
    """Path of icon `name` (first folder that has it); InputError naming close names if unknown."""
    found = _find(name, dirs)
    if found is None:
        raise InputError(icon_problem(name, dirs, file=file, line=line))
    return found


@functools.lru_cache(maxsize=512)
def _parse(path: str, _mtime_ns: int, _size: int) -> Drawing:
    # mtime and size are part of the key so an edited file (pnp watch) is parsed again.
    # here: svglib (and lxml) are large, and many builds draw no new icon
    from svglib.svglib import SvgRenderer

    root = drawable_root(path)  # opacity as written (svglib alone ignores `opacity`)
    drawing = SvgRenderer(path).render(root) if root is not None else None
    # svglib recovers from broken XML with an empty drawing, so "nothing to draw" means unreadable.
    if drawing is None or drawing.getBounds() is None or not drawing.width or not drawing.height:
        raise icon_forms.unreadable(path)
    return drawing


def _stat(path: str | Path) -> tuple[str, int, int]:
    """(resolved path, mtime, size) of an icon file: what identifies one version of it."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise InputError(Problem(str(p), 0, f"icon file cannot be read: {exc.strerror}")) from None
    return str(p.resolve()), st.st_mtime_ns, st.st_size


# (resolved path, mtime, size, fade, canvas kind) -> the icon's art, made once per process.
_ART: dict[tuple, icon_forms.IconArt] = {}


def _art(version: tuple[str, int, int], fade: float, kind: str) -> icon_forms.IconArt:
    """The icon's size, digest and form operators: from this process, else the disk cache, else svglib (ops
    None)."""
    key = (*version, fade, kind)
    art = _ART.get(key)
    if art is None:
        path = version[0]
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise InputError(Problem(path, 0, f"icon file cannot be read: {exc.strerror}")) from None
        digest, keep = icon_forms.file_digest(data), not icon_forms.refers_outside(data)
        if keep:
            art = icon_forms.read_cached(digest, fade, kind)
        if art is None:
            drawing = _parse(*version)
            art = icon_forms.IconArt(drawing.width, drawing.height, digest, None, keep=keep)
        _ART[key] = art
    return art


def load_icon(path: str | Path) -> Drawing:
    """The icon SVG as a ReportLab Drawing, parsed once per (path, mtime); shared, so do not modify it."""
    return _parse(*_stat(path))


@functools.cache
def _spacer_path() -> str:
    """Where the transparent spacer PNG goes: the temp folder, named by its content."""
    return str(
        Path(tempfile.gettempdir()) / f"pnp-icon-spacer-{hashlib.sha1(_SPACER_PNG).hexdigest()[:10]}.png"
    )


def _spacer_src() -> str:
    """Path of the transparent spacer PNG in the temp folder, (re)written when missing or changed."""
    path = Path(_spacer_path())
    # Checked on every call (a few bytes): a long `pnp watch` may outlive a temp-folder clean-up.
    if not path.is_file() or path.read_bytes() != _SPACER_PNG:
        atomic_write(path, _SPACER_PNG)
    return str(path)


def _resolve(name_or_path: str | Path, dirs: Dirs | None) -> Path:
    if isinstance(name_or_path, Path) or str(name_or_path).endswith(".svg"):
        return Path(name_or_path)
    return icon_path(str(name_or_path), dirs)


def _draw_svg(version: tuple[str, int, int], canvas, fade: float) -> None:
    # here: only icons not drawn before need the renderer (and svglib)
    from generator.faces.icon_render import draw_drawing

    draw_drawing(_parse(*version), canvas, fade)


def _form_name(canvas, path: Path, fade: float = 0.0) -> tuple[str, float, float]:
    """(name, width, height) of the canvas's Form XObject for this SVG (faded towards white by `fade`), made
    on first use from the icon's operators (see generator.faces.icon_forms)."""
    forms, names = _FORMS.setdefault(canvas, ({}, set()))
    placed = forms.get((path, fade))  # a canvas draws one version of a file: looked up once per canvas
    if placed is not None:
        return placed
    version, kind = _stat(path), icon_forms.canvas_kind(canvas)
    art = _art(version, fade, kind)
    # Named by content, not by path: the same input gives the same PDF on any machine, and an
    # edited file (new content) gets a new form instead of clashing with the old one.
    name = (f"icon-{re.sub(r'[^A-Za-z0-9-]', '-', path.stem)}-{art.digest[:12]}"
            + (f"-fade{round(fade * 100)}" if fade else ""))
    if name not in names:
        made = icon_forms.make_form(canvas, name, art, lambda: _draw_svg(version, canvas, fade))
        if art.ops is None and made.ops is not None:
            _ART[(*version, fade, kind)] = made
            icon_forms.write_cached(made, fade, kind)
        names.add(name)
    forms[(path, fade)] = placed = (name, art.width, art.height)
    return placed


def forms_made(canvas) -> dict[str, tuple[Path, float]]:
    """The icon forms made on this canvas: form name -> (SVG path, fade), to make them again on another."""
    forms, _names = _FORMS.get(canvas, ({}, set()))
    return {placed[0]: key for key, placed in forms.items()}


def make_icon_form(canvas, path: Path, fade: float) -> str:
    """The name of this canvas's form of an SVG (made now if it has none): the name another canvas gave it."""
    return _form_name(canvas, path, fade)[0]


def draw_icon(
    canvas,
    name_or_path: str | Path,
    box: tuple[float, float, float, float],
    *,
    dirs: Dirs | None = None,
    fit: str = "contain",
    fade: float = 0.0,
) -> None:
    """Draw an icon (name or .svg path) centred in the `box` (x, y, w, h), aspect preserved: all of it inside
    the box (`fit='contain'`) or filling the box, cropped to it (`fit='cover'`); `fade` lightens every colour.

    The SVG becomes one Form XObject per canvas on first use; every placement is a `Do` of that form.
    """
    x, y, w, h = box
    path = _resolve(name_or_path, dirs)
    form, width, height = _form_name(canvas, path, fade)
    scale = (max if fit == "cover" else min)(w / width, h / height)
    canvas.saveState()
    if fit == "cover":
        clip = canvas.beginPath()
        clip.rect(x, y, w, h)
        canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(x + (w - width * scale) / 2, y + (h - height * scale) / 2)
    canvas.scale(scale, scale)
    canvas.doForm(form)
    canvas.restoreState()


@functools.lru_cache(maxsize=1024)
def _inline_label(label: str) -> tuple[float, float, str, Path]:
    """(width, height, valign, SVG path) of an inline icon's <onDraw> label, read once per label."""
    w, h, valign, path = label.split("|", 3)
    return float(w), float(h), valign, Path(path)


def _draw_inline(canvas, kind: str, label: str | None) -> None:  # noqa: ARG001 - ReportLab onDraw callback
    """<onDraw> callback: draw the icon over the spacer image that ReportLab just placed."""
    w, h, valign, path = _inline_label(label or "")
    info = getattr(canvas, "_curr_tx_info", None)  # set by ReportLab around onDraw callbacks
    if info is None:
        raise RuntimeError(
            "this ReportLab does not tell onDraw callbacks the text position; inline icons need it"
        )
    tx = info["tx"]
    font_size = tx._fontsize or info["xs"].style.fontSize
    # After the <img> ReportLab moved the text cursor to the image's right edge (including
    # justification space), so the icon box is [cursor - w, cursor].
    x = tx._x0 - w
    y = info["cur_y"] + imgVRange(h, valign, font_size)[0]
    draw_icon(canvas, path, (x, y, w, h))


class _SpacerImages:
    """A canvas's drawImage that draws nothing for the spacer of an inline icon.

    The spacer only makes the Paragraph's line layout reserve the icon's box; the icon itself is vector art
    drawn by the <onDraw> callback. Placing the spacer would put a 1x1 transparent picture into the PDF,
    which a print shop's preflight reads as a 4-7 ppi image with transparency (issue 34)."""

    def __init__(self, draw_image):
        self.draw_image = draw_image

    def __call__(self, image, *args, **kwargs):
        if _is_spacer(image):
            return None  # ReportLab's Paragraph ignores what drawImage returns
        return self.draw_image(image, *args, **kwargs)


def _is_spacer(image) -> bool:
    """True for the spacer PNG, as a path or as the ImageReader a Paragraph made of it."""
    name = image.fileName if isinstance(image, ImageReader) else image
    return isinstance(name, (str, Path)) and str(name) == _spacer_path()


def enable_inline_icons(canvas) -> None:
    """Let Paragraphs drawn on this canvas show inline_icon_image() markup (idempotent)."""
    canvas.setNamedCB(INLINE_CALLBACK, _draw_inline)
    if not isinstance(canvas.drawImage, _SpacerImages):
        canvas.drawImage = _SpacerImages(canvas.drawImage)


def inline_icon_image(
    name: str,
    size: float = 10.0,
    *,
    valign: str = "middle",
    dirs: Dirs | None = None,
) -> str:
    """Paragraph markup showing icon `name` inline in running text, `size` points square, as vector art.

    ReportLab's `<img>` takes only raster images and a Drawing/Flowable cannot sit inside a Paragraph
    line, so the markup is two tags kept together as one word:
    - an `<img>` of a transparent 1x1 PNG that makes the line layout reserve the icon's box (the PNG
      is written once to the temp folder: ReportLab refuses data: URIs unless trusted globally);
    - an `<onDraw>` whose callback draws the SVG into that box as the canvas's shared Form XObject
      (see draw_icon), so the icon stays vector at any zoom and is stored once per PDF.
    Call `enable_inline_icons(canvas)` on every canvas that draws such Paragraphs (with doc templates:
    in onFirstPage/onLaterPages or beforeDrawPage); otherwise ReportLab stops with "Missing onDraw
    callback attribute 'generator.faces.icons.enable_inline_icons'". An unknown name raises InputError now,
    not at draw time. Set such text ragged-right: with TA_JUSTIFY, ReportLab 5.1 lets a line holding
    any `<img>` (raster too) run past the right margin.
    """
    path = icon_path(name, dirs).resolve()
    if valign not in {"baseline", "middle", "top", "text-top", "bottom", "text-bottom", "super", "sub"}:
        raise ValueError(f"unsupported valign {valign!r}")
    size_txt = f"{float(size):g}"
    label = html.escape(f"{size_txt}|{size_txt}|{valign}|{path}", quote=True)
    # No whitespace between the tags: they stay one "word", so a line break never separates them.
    return (
        f'<img src="{html.escape(_spacer_src(), quote=True)}" width="{size_txt}" height="{size_txt}" '
        f'valign="{valign}"/>'
        f'<onDraw name="{INLINE_CALLBACK}" label="{label}"/>'
    )


ICON_SIZE_TOKEN = "987.654"  # stands for the inline icon size until the paragraph's font size is known
INLINE_ICON_SCALE = 1.3      # inline icons are this many times the font size


class IconSource:
    """The icons a game can use (the folders of `Project.icon_dirs`), with paths and markup looked up once.

    With a `project`, an icon from the project's folders must resolve inside the project (a symbolic link to a
    file elsewhere is refused) and may refer only to files inside it (generator.faces.svg); the built-in
    library is trusted."""

    def __init__(self, dirs: Dirs, project: Project | None = None):
        self.dirs = tuple(dirs)
        self.project = project
        self.names = set(icon_names(self.dirs))
        self._paths: dict[str, Path] = {}            # name -> SVG file, looked up once
        self._inline: dict[tuple[str, float], str] = {}  # (name, size) -> markup, built once
        self._problems: dict[str, str | None] = {}   # name -> why it cannot be drawn (None: it can)

    def problem(self, name: str) -> str | None:
        """Why icon `name` cannot be drawn (unknown, a link out of the project, an SVG referring outside), or
        None."""
        if name not in self._problems:
            self._problems[name] = self._check(name)
        return self._problems[name]

    def _check(self, name: str) -> str | None:
        if name not in self.names:
            return f"icon '{name}' does not exist; known: {self.known_text(name)}"
        path = _find(name, self.dirs)
        if path is None:
            return f"icon '{name}' does not exist; known: {self.known_text(name)}"
        if self.project is not None and path.parent.resolve() != BUILTIN_ICONS.resolve():
            try:
                path = self.project.inside(path.relative_to(self.project.root), what=f"icon '{name}' file")
            except InputError as exc:
                return exc.problems[0].message
            trouble = reference_problem(path, self.project)
            if trouble:
                return f"icon '{name}': {trouble}"
        self._paths[name] = path
        return None

    def exists(self, name: str) -> bool:
        """True when an icon of this name can be drawn."""
        return self.problem(name) is None

    def known_text(self, name: str) -> str:
        """A short list of icon names for an error message: the game's and project's own icons first, then the
        built-in library's."""
        return known_icons(self.dirs) + did_you_mean(name, self.names)

    def undrawn(self, name: str, show=str) -> list[str]:
        """Located lines (at the SVG, its path given by `show`) for what of icon `name` the SVG renderer
        leaves out (a filter, a mask, text on a path, ...); empty when it is drawn as written or cannot be."""
        if self.problem(name) is not None:
            return []
        return undrawn_messages(self._paths[name], f"icon '{name}'", show)

    def draw(self, canvas, name: str, x: float, y: float, w: float, h: float, fade: float = 0.0) -> None:
        """Draw icon `name` centred in the box (x, y, w, h), lightened by `fade` (0: as drawn, 1: white)."""
        problem = self.problem(name)
        if problem is not None:
            raise InputError(Problem("", 0, problem))
        draw_icon(canvas, self._paths[name], (x, y, w, h), fade=fade)

    def inline_markup(self, name: str, size: float | None = None) -> str | None:
        """Paragraph markup of icon `name` in running text (sized to the text unless `size`), None if it
        cannot be drawn (see `problem`)."""
        if self.problem(name) is not None:
            return None
        key = (name, size or float(ICON_SIZE_TOKEN))
        markup = self._inline.get(key)
        if markup is None:
            markup = self._inline[key] = inline_icon_image(name, key[1], dirs=self.dirs)
        return markup


def sized_icons(markup: str, font_size: float) -> str:
    """Give inline icons of a paragraph their size for this font size."""
    return markup.replace(ICON_SIZE_TOKEN, f"{font_size * INLINE_ICON_SCALE:g}")


def undrawn_messages(path: Path, what: str, show=str) -> list[str]:
    """A located line for each feature of the SVG at `path` that its renderer leaves out (`what`: 'icon
    'skull'' or 'image 'art/x.svg''); `show` gives the path as the designer reads it."""
    return [
        f"{show(path)}:{line}: {what} uses {element}, {feature}, which pnp's SVG renderer (svglib) does not "
        "draw: it prints without it; expected plain shapes (or the effect drawn into the picture)"
        for line, element, feature in undrawn_features(path)
    ]


_INLINE_LABEL = re.compile(r'label="[^"|]*\|[^"|]*\|[^"|]*\|([^"]*)"')


def inline_icon_files(markup: str) -> list[Path]:
    """The SVG files of the inline icons in Paragraph markup (inline_icon_image's labels), each once."""
    return [Path(html.unescape(found)) for found in dict.fromkeys(_INLINE_LABEL.findall(markup))]
