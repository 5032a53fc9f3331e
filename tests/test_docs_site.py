"""The documentation as a site (`make docs`, MkDocs) builds with every link checked, and `pnp docs TOPIC`
shows every page any pointer of pnp names."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from generator.core.docpages import topics
from tests.conftest import REPO, run_pnp

POINTER = re.compile(r"pnp docs ([a-z][a-z-]*)")


def test_the_site_builds_strictly_with_every_page(tmp_path):
    pytest.importorskip("mkdocs")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    # --strict turns every warning (a broken link, a missing anchor, a page left out) into a failure
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr
    for page in (REPO / "docs").glob("*.md"):
        assert (site / f"{page.stem}.html").is_file(), page.name
    assert (site / "search" / "search_index.json").is_file()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="rules-language.html"' in index and "pipx install" in index


def test_pnp_docs_lists_and_prints_pages():
    listed = run_pnp("docs")
    assert listed.exit_code == 0
    assert re.search(r"^rules-language\s+The rules language", listed.output, re.M)
    page = run_pnp("docs", "ci")
    assert page.exit_code == 0 and page.output.startswith("# pnp in continuous integration")
    typo = run_pnp("docs", "rules-langage")
    assert typo.exit_code == 1 and "did you mean 'rules-language'?" in typo.output


def test_every_pointer_pnp_prints_names_a_page():
    found = set()
    scaffold = REPO / "generator" / "assets" / "scaffold"
    for path in [*(REPO / "generator").rglob("*.py"), *scaffold.rglob("*")]:
        if path.is_file():
            found |= set(POINTER.findall(path.read_text(encoding="utf-8", errors="replace")))
    assert {"rules-language", "templates", "translations"} <= found
    assert found <= set(topics()), sorted(found - set(topics()))
