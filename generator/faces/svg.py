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
