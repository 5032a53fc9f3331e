"""`make docs`: the pictures in docs/images/ that come from real runs, redrawn by the docs build (never by hand).

    python docs/make_figures.py            # every figure
    python docs/make_figures.py sweep      # only the ones named (sweep, layouts)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
sys.path.insert(0, str(ROOT))  # run as a script from any folder


def sweep_figure() -> None:
    """docs/balancing.md: the first page of the sweep report of Order Up's hand limit x end mode."""
    import pypdfium2 as pdfium

    from generator.core.write import atomic_write
    from generator.data.project import Project
    from generator.validator.executors import LocalProcesses
    from generator.validator.simulate import SimSettings
    from generator.validator.sweep_report import table
    from generator.pipeline.sweep import sweep

    vary = ["settings.hand_limit=8,10,12", "settings.end_mode=immediate,finish_round"]
    print("pnp sweep order-up-pizza " + " ".join(f"--vary {v}" for v in vary) + " --games 1000 --players 2")
    with LocalProcesses(0) as executor:
        result = sweep(Project(ROOT), "order-up-pizza", vary, SimSettings(games=1000, seed=1, players=(2,)),
                       executor=executor)
    for line in table(result.report):
        print(line)
    page = pdfium.PdfDocument(result.pdf_path)[0]
    image = page.render(scale=110 / 72).to_pil().convert("RGB")
    atomic_write(IMAGES / "sweep-order-up.png", lambda tmp: image.save(tmp, format="PNG", optimize=True))
    print(f"wrote {(IMAGES / 'sweep-order-up.png').relative_to(ROOT)}")


def layout_pictures() -> None:
    """docs/layouts.md: a strip of real cards per group of box keys (docs/layout_pictures.py)."""
    sys.path.insert(0, str(ROOT / "docs"))
    from layout_pictures import write_pictures

    for path in write_pictures():
        print(f"wrote {path.relative_to(ROOT)}")


FIGURES = {"sweep": sweep_figure, "layouts": layout_pictures}


if __name__ == "__main__":
    for name in sys.argv[1:] or FIGURES:
        FIGURES[name]()
