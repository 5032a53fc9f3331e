"""The build step pyproject.toml cannot say: the wheel carries docs/ as generator/assets/docs, so `pnp docs`
shows the pages where pnp was installed with pip (a checkout reads docs/ itself)."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DOCS = Path(__file__).parent / "docs"
SHIPPED = ("*.md", "examples/*", "images/*")


class BuildWithDocs(build_py):
    """build_py, then the documentation pages and their pictures into the package."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "generator" / "assets" / "docs"
        for pattern in SHIPPED:
            for page in sorted(DOCS.glob(pattern)):
                if page.is_file():
                    (target / page.relative_to(DOCS)).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(page, target / page.relative_to(DOCS))


setup(cmdclass={"build_py": BuildWithDocs})
