"""Card sheets: cards per second and peak memory for synthetic decks of 1,000 and 10,000 cards.

The decks are generated YAML in a temporary folder and use the features of the real layouts: a base layout with
`extends`, bands with a colour from data, vector icons, rich text with inline icons, shrink-to-fit and card codes.
Each card type has 4 copies, so a quarter of the cards are unique faces (the real decks average about 4).
Target: >= 1,000 cards/s, time linear in cards, memory not growing with pages.
"""

from __future__ import annotations

import multiprocessing
import resource
import tempfile
import time
from pathlib import Path

from benchmarks import quick
from generator.cards.sheets import outputs
from generator.core.contract import BuildOptions
from generator.data.load import load_game
from generator.data.project import Project

ICONS = ["pepperoni", "mushrooms", "sausage", "onions", "black-olives", "green-peppers", "ham", "pineapple"]
COLORS = ["#d62828", "#f77f00", "#2e9e44", "#1f5fbf", "#7b3fa0", "#16697a"]
COPIES = 4

BASE = """\
boxes:
  background: {shape: rect, fill: "#fff8ec"}
  code: {z: 10, x: 4mm, y: 81.6mm, width: 30mm, height: 3.8mm, text: "{{ card.code }}", size: 7pt}
"""
FRONT = """\
extends: base
boxes:
  band: {height: 15mm, shape: band, fill: "{{ card.color }}"}
  title: {x: 4mm, y: 3.5mm, width: 55.5mm, height: 10mm, text: "{{ card.name }}", font: title, size: 16pt,
          min_size: 10pt, color: "#ffffff", align: center, valign: middle}
  plate: {x: 16.75mm, y: 18mm, width: 30mm, height: 30mm, shape: circle, fill: "#fde6bd"}
  picture: {x: 19.25mm, y: 20.5mm, width: 25mm, height: 25mm, icon: "{{ card.icon }}"}
  body:
    x: 5mm
    y: 51mm
    width: 53.5mm
    height: 28mm
    text: "{% for id, n in card.toppings.items() %}{{ icon(id) }} **{{ n }} ×** {{ id }}\\n{% endfor %}*{{ card.text }}*"
    size: 11pt
    min_size: 7pt
"""
BACK = "boxes:\n  background: {shape: rect, fill: \"#f4c430\"}\n  logo: {x: 14mm, y: 25mm, width: 35mm, height: 35mm, icon: pizza}\n"


def make_project(root: Path, cards: int, copies: int = COPIES) -> Project:
    """A game with one deck of `cards` physical cards (cards / copies card types)."""
    game_dir = root / "cards" / "bench"
    (game_dir / "layouts").mkdir(parents=True)
    (game_dir / "game.yaml").write_text("title: Bench\ncode: BEN\nplayers: {min: 2, max: 4}\ndecks: [pile]\n")
    lines = ["deck: pile", "name: Pile", "code: PIL", "fields:", "  color: {type: color}",
             "  toppings: {type: counts, to: pile}", "  text: {type: text}", "cards:"]
    types = cards // copies
    for i in range(types):
        picks = {ICONS[(i + k) % len(ICONS)]: 1 + (i + k) % 3 for k in range(1 + i % 4)}
        toppings = ", ".join(f"{k}: {v}" for k, v in picks.items())
        lines.append(f"  - {{id: {ICONS[i % len(ICONS)]}{'' if i < len(ICONS) else f'-{i}'}, name: Card number {i}, "
                     f"copies: {copies}, icon: {ICONS[i % len(ICONS)]}, color: '{COLORS[i % len(COLORS)]}', "
                     f"toppings: {{{toppings}}}, text: 'Deliver before the timer runs out, order {i}.'}}")
    (game_dir / "pile.yaml").write_text("\n".join(lines) + "\n")
    (game_dir / "layouts" / "base.yaml").write_text(BASE)
    (game_dir / "layouts" / "pile.yaml").write_text(FRONT)
    (game_dir / "layouts" / "pile-back.yaml").write_text(BACK)
    return Project(root)


def _measure(cards: int, copies: int, queue) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = make_project(Path(tmp), cards, copies)
        start = time.perf_counter()
        game = load_game(project, "bench")
        [output] = outputs(game, BuildOptions(papers=("letter",)))
        target = Path(tmp) / "cards.pdf"
        facts = output.render(target)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        queue.put((seconds, peak, facts["pages"], target.stat().st_size))


def measure(cards: int, copies: int = COPIES) -> tuple[float, float, int, int]:
    """(seconds, peak RSS MiB, pages, bytes) to load, check and write a Letter sheet PDF of `cards` cards.

    Each size runs in its own process so the peak memory of one does not hide the other's.
    """
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_measure, args=(cards, copies, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def run() -> None:
    """Print cards/s and peak memory for 1,000 and 10,000 cards, then for 10,000 cards with 1,000's unique faces.

    The last line separates the two costs: memory follows the unique faces (each is one Form XObject), while
    pages only add a few placement commands each.
    """
    sizes = ((1_000, COPIES),) if quick() else ((1_000, COPIES), (10_000, COPIES), (10_000, 10_000 * COPIES // 1_000))
    for cards, copies in sizes:
        seconds, peak, pages, size = measure(cards, copies)
        print(f"{cards:>6} cards ({cards // copies} unique faces, {pages} pages, {size / 2**20:.1f} MiB PDF): "
              f"{seconds:.2f} s, {cards / seconds:,.0f} cards/s, peak RSS {peak:.0f} MiB")


if __name__ == "__main__":
    run()
