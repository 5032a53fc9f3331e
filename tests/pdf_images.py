"""Image XObjects of a PDF as a reader sees them: every picture each page uses, in the forms it places too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import IndirectObject


def page_images(path: Path) -> Iterator[tuple[int, str, int, object]]:
    """(page number, resource name, object number, image XObject) of every image each page uses, forms
    included; an image appears once per page that uses it."""
    for number, page in enumerate(PdfReader(str(path)).pages, 1):
        seen: set[int] = set()
        stack = [page.get("/Resources")]
        while stack:
            resources = stack.pop()
            if isinstance(resources, IndirectObject):
                resources = resources.get_object()
            xobjects = (resources or {}).get("/XObject")
            for name, ref in ((xobjects.get_object() if xobjects is not None else None) or {}).items():
                key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
                if key in seen:
                    continue
                seen.add(key)
                xobject = ref.get_object()
                if xobject["/Subtype"] == "/Image":
                    yield number, name, key, xobject
                else:
                    stack.append(xobject.get("/Resources"))
