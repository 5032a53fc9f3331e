"""pnp's documentation pages, wherever pnp is installed: the checkout's docs/ folder, or the copy a wheel
carries in generator/assets/docs (setup.py puts it there), so every pointer pnp prints can be opened with
`pnp docs TOPIC`."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # generator/
CHECKOUT_DOCS = PACKAGE.parent / "docs"         # a clone of pnp's repository
SHIPPED_DOCS = PACKAGE / "assets" / "docs"       # what a wheel carries
SITE_NOTE = "the same pages as a site with search: `make docs` in a checkout builds build/site/index.html"


def docs_folder() -> Path | None:
    """The folder the pages are read from (None when this copy of pnp carries no documentation)."""
    for folder in (CHECKOUT_DOCS, SHIPPED_DOCS):
        if (folder / "index.md").is_file():
            return folder
    return None


def topics() -> dict[str, Path]:
    """Topic name (a page's file name without .md, e.g. 'rules-language') -> the page."""
    folder = docs_folder()
    if folder is None:
        return {}
    return {page.stem: page for page in sorted(folder.glob("*.md"))}


def first_heading(page: Path) -> str:
    """A page's title: its first '# ' line."""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem
