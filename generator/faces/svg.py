"""What an SVG icon or picture may refer to: its own fragments, embedded pictures, and files inside the
project.

svglib follows `<image href="../../x.png">` and `<use href="other.svg#id">` relative to the SVG, wherever they
lead. Before an SVG from the project is drawn, every reference in it is checked with `Project.inside` (links
resolved), so a file outside the project never reaches a PDF; embedded and referenced raster pictures are held
to the picture limits. The problem names the SVG's line and the reference as written, never the outside file.
"""

from __future__ import annotations

import base64
import binascii
import functools
import io
import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, UnidentifiedImageError

from generator.core.errors import InputError
from generator.core.lfs import lfs_pointer
from generator.core.limits import MAX_IMAGE_PIXELS, MAX_SVG_BYTES
from generator.data.project import Project

if TYPE_CHECKING:
    from lxml import etree

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_DATA_IMAGE = re.compile(r"^data:image/[a-z+.-]+;base64,", re.I)
MAX_NESTING = 4  # an SVG using another SVG using another ...


def _parser() -> etree.XMLParser:
    # The same tolerant settings svglib uses, without entities or network access.
    from lxml import etree  # here: lxml takes a while to load, and only a project's own SVGs are checked

    return etree.XMLParser(remove_comments=True, recover=True, resolve_entities=False, no_network=True)


def _picture_problem(source, what: str) -> str | None:
    """A raster picture (a path or a file object) over the pixel limit, or unreadable, as a problem; else
    None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(source) as image:
                width, height = image.size
    except Image.DecompressionBombError:
        return f"{what} has more than {MAX_IMAGE_PIXELS:,} pixels"
    except (UnidentifiedImageError, OSError, SyntaxError):
        return f"{what} cannot be read as a picture"
    if width * height > MAX_IMAGE_PIXELS:
        return f"{what} is {width} x {height} pixels; expected at most {MAX_IMAGE_PIXELS:,}"
    return None


def _embedded_problem(href: str) -> str | None:
    """A data: picture larger than the pixel limit, or unreadable, as a problem; None when it is fine."""
    try:
        data = base64.b64decode(href.split(",", 1)[1], validate=False)
    except (binascii.Error, ValueError):
        return "an embedded picture is not valid base64"
    return _picture_problem(io.BytesIO(data), "an embedded picture")


def reference_problem(path: Path, project: Project) -> str | None:
    """Why the SVG at `path` cannot be drawn safely (a reference outside the project, a missing file, an
    oversized picture, a file over the size limit), or None."""
    stat = Path(path).stat()
    return lfs_pointer(path) or _reference_problem(str(path), stat.st_mtime_ns, stat.st_size, project, 0)


@functools.lru_cache(maxsize=512)
def _reference_problem(path: str, _mtime: int, size: int, project: Project, depth: int) -> str | None:
    if size > MAX_SVG_BYTES:
        return f"the SVG is {size:,} bytes; expected at most {MAX_SVG_BYTES:,} bytes (pnp's limit)"
    from lxml import etree

    try:
        root = etree.parse(path, parser=_parser()).getroot()
    except (etree.XMLSyntaxError, OSError):
        return None  # svglib reports what it cannot parse
    if root is None:
        return None
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        href = (element.get(XLINK_HREF) or element.get("href") or "").strip()
        if not href or href.startswith("#"):
            continue
        where = (f"line {element.sourceline} of the SVG refers to "
                 f"'{href if len(href) < 80 else href[:60] + '...'}'")
        if href.lower().startswith("data:"):
            problem = _embedded_problem(href) if _DATA_IMAGE.match(href) else None
            if problem:
                return f"{where}: {problem}"
            continue
        target_name = href.split("#", 1)[0]
        try:
            target = project.inside(target_name, Path(path).parent, what="reference")
        except InputError:
            return f"{where}, which is outside the project folder; expected a file inside the project"
        if not target.is_file():
            return f"{where}, which does not exist; expected a file next to the SVG"
        if target.suffix.lower() == ".svg":
            if depth >= MAX_NESTING:
                return f"{where}: SVGs use each other more than {MAX_NESTING} deep"
            stat = target.stat()
            problem = _reference_problem(str(target), stat.st_mtime_ns, stat.st_size, project, depth + 1)
            if problem:
                return f"{where}: {problem}"
        else:
            problem = _picture_problem(target, "the picture")
            if problem:
                return f"{where}: {problem}"
    return None


# -- drawing as written: opacity, and what the SVG renderer cannot draw -------------------------------------

_SHAPES = frozenset({"path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan"})
# what svglib leaves out of the drawing, by element and by the attribute (or style property) that asks for it
_UNDRAWN_ELEMENTS = {
    "filter": "a filter effect (blur, drop shadow, ...)",
    "mask": "a mask",
    "textPath": "text on a path",
    "foreignObject": "foreign (HTML) content",
    "pattern": "a pattern fill",
}
_UNDRAWN_PROPERTIES = {
    "filter": "a filter effect",
    "mask": "a mask",
    "mix-blend-mode": "a blend mode",
}
_RGBA = re.compile(r"^rgba\(\s*[^,]+,[^,]+,[^,]+,\s*([0-9.]+)(%?)\s*\)$", re.I)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _properties(element) -> dict[str, str]:
    """An element's presentation attributes, its `style` properties winning (as in CSS)."""
    found = {key: value.strip() for key, value in element.attrib.items() if isinstance(key, str)}
    for part in (element.get("style") or "").split(";"):
        key, _, value = part.partition(":")
        if value.strip():
            found[key.strip()] = value.replace("!important", "").strip()
    return found


def _fraction(text: str | None, default: float = 1.0) -> float:
    """An SVG opacity ('0.5', '50%') clamped to 0..1; `default` when absent or unreadable."""
    if text is None or text in ("", "inherit"):
        return default
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        return default
    return min(1.0, max(0.0, value)) if value == value else default  # NaN reads as absent


def _colour_alpha(text: str | None) -> float:
    """The alpha a colour value carries itself ('transparent', rgba(), #rrggbbaa), 1 for any other."""
    text = (text or "").strip()
    if text == "transparent":
        return 0.0
    match = _RGBA.match(text)
    if match:
        return _fraction(match.group(1) + match.group(2))
    if text.startswith("#") and len(text) in (5, 9):
        digits = text[-1] * 2 if len(text) == 5 else text[-2:]
        try:
            return int(digits, 16) / 255
        except ValueError:
            return 1.0
    return 1.0


def _fold_opacity(element, inherited: dict[str, str], product: float) -> None:
    """Write on each shape the fill and stroke opacity it is drawn with when svglib would draw it otherwise:
    svglib ignores `opacity` (of the shape and of its groups) and lets an explicit fill-opacity replace the
    alpha of a colour like `transparent` instead of multiplying it."""
    own = _properties(element)
    product *= _fraction(own.get("opacity"))
    here = dict(inherited)
    for key in ("fill", "stroke", "fill-opacity", "stroke-opacity"):
        if key in own and own[key] != "inherit":
            here[key] = own[key]
    if _local(element.tag) in _SHAPES:
        updates = {}
        for paint in ("fill", "stroke"):
            colour = here.get(paint, "black" if paint == "fill" else "none")
            if colour == "none" or colour.startswith("url("):
                continue
            stated = here.get(f"{paint}-opacity")
            wanted = _colour_alpha(colour) * _fraction(stated) * product
            drawn = _fraction(stated) if stated is not None else _colour_alpha(colour)  # what svglib does
            if abs(wanted - drawn) > 1e-6:
                updates[f"{paint}-opacity"] = f"{wanted:.6g}"
        if updates:
            kept = [part for part in (element.get("style") or "").split(";")
                    if part.partition(":")[0].strip() not in updates and part.strip()]
            element.set("style", ";".join(kept + [f"{key}:{value}" for key, value in updates.items()]))
    for child in element:
        if isinstance(child.tag, str):
            _fold_opacity(child, here, product)


def drawable_root(path: str | Path):
    """The SVG's XML root as svglib should draw it (opacity folded into each shape, see `_fold_opacity`), or
    None when it does not parse."""
    from lxml import etree

    try:
        root = etree.parse(str(path), parser=_parser()).getroot()
    except (etree.XMLSyntaxError, OSError):
        return None
    if root is not None:
        _fold_opacity(root, {}, 1.0)
    return root


def undrawn_features(path: str | Path) -> tuple[tuple[int, str, str], ...]:
    """What of the SVG its renderer leaves out, as (line, element as written, what it is), once per kind of
    feature, read once per file version."""
    stat = Path(path).stat()
    return _undrawn_features(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=512)
def _undrawn_features(path: str, _mtime: int, _size: int) -> tuple[tuple[int, str, str], ...]:
    from lxml import etree

    try:
        root = etree.parse(path, parser=_parser()).getroot()
    except (etree.XMLSyntaxError, OSError):
        return ()
    found: dict[str, tuple[int, str, str]] = {}
    for element in root.iter() if root is not None else ():
        if not isinstance(element.tag, str):
            continue
        tag = _local(element.tag)
        if tag in _UNDRAWN_ELEMENTS and tag not in found:
            found[tag] = (element.sourceline or 0, f"<{tag}>", _UNDRAWN_ELEMENTS[tag])
        properties = _properties(element)
        for key, what in _UNDRAWN_PROPERTIES.items():
            value = properties.get(key, "none")
            if value not in ("none", "normal", "") and key not in found:
                found[key] = (element.sourceline or 0, f"<{tag} {key}=\"{value[:40]}\">", what)
    return tuple(sorted(found.values()))
