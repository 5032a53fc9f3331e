"""Rule booklets: the CPU time of planning and drawing each bundled game's rules, in every language.

Each game and language is measured in a fresh process, as a build's drawing runs (the game loaded and checked,
then the rules planned: template rendered, figures, pictures, icons and characters checked; then drawn: the reading
PDF and its booklets). Fresh processes, because a build draws the rules once: what is loaded or parsed on first use
(icons, fonts) is part of the cost. CPU time, median of 3, interleaved; printed beside a bare-ReportLab floor
measured in the same run: the same rules text as plain paragraphs in one ReportLab document (no figures, icons,
contents or booklets), so the ratio says what pnp's booklet costs over setting the words alone.
Target (issue 14): a rules-template edit of Order Up rebuilt in under 1.0 s whole-process (bench_rebuild).
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import quick

REPO = Path(__file__).resolve().parents[1]
RUNS = 3


def measure(project: str, game_id: str, language: str) -> dict:
    """CPU seconds of one game's rules in one language: planning, the reading PDF, the booklets, and the floor."""
    from generator.booklet.pdf import outputs
    from generator.core.contract import BuildOptions
    from generator.data.load import load_game
    from generator.data.project import Project
    from generator.pipeline.translations import translate_checked

    game = load_game(Project(Path(project)), game_id)
    if language != game.source_language:
        game, _warnings, errors = translate_checked(game, language)
        if errors:
            raise SystemExit(f"{game_id} in {language}: {errors}")
    figures: dict[str, float] = {}
    started = time.process_time()
    planned = outputs(game, BuildOptions(jobs=1))
    figures["plan"] = time.process_time() - started
    with tempfile.TemporaryDirectory(prefix="pnp-bench-rules-") as folder:
        for output in planned:  # the reading PDF first: the booklets are imposed from its pages
            started = time.process_time()
            output.render(Path(folder) / Path(output.path).name)
            key = "reading" if output.kind == "rules" else "booklets"
            figures[key] = figures.get(key, 0.0) + time.process_time() - started
        figures["floor"] = _floor(game, Path(folder) / "floor.pdf")
    return figures


def _floor(game, path: Path) -> float:
    """CPU seconds of bare ReportLab setting the game's rules text (Markdown paragraphs as plain text)."""
    from xml.sax.saxutils import escape

    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    from generator.booklet.text import render_rules

    blocks = [block.strip() for block in render_rules(game).split("\n\n") if block.strip()]
    started = time.process_time()
    style = getSampleStyleSheet()["BodyText"]
    story = [Paragraph(escape(block), style) for block in blocks]
    SimpleDocTemplate(str(path), pagesize=(5.5 * 72, 8.5 * 72), invariant=1).build(story)
    return time.process_time() - started


def _cases(project: Path) -> list[tuple[str, str]]:
    from generator.data.load import load_game
    from generator.data.project import Project

    found = []
    for game_id in Project(project).game_ids():
        game = load_game(Project(project), game_id)
        if game.project.rules_template(game.id).is_file():
            found += [(game_id, language) for language in game.languages]
    return found


def run() -> None:
    """Print each game's rules CPU time per language, median of 3 fresh processes."""
    runs = 1 if quick() else RUNS
    with tempfile.TemporaryDirectory(prefix="pnp-bench-rules-") as folder:
        project = Path(folder)
        for name in ("cards", "templates"):
            shutil.copytree(REPO / name, project / name)
        cases = _cases(project)
        found: dict[tuple[str, str], list[dict]] = {case: [] for case in cases}
        for _ in range(runs):  # interleaved: a busy spell of the machine touches every case alike
            for game_id, language in cases:
                done = subprocess.run([sys.executable, "-c", "import json, sys; from benchmarks.bench_rules import "
                                       "measure; print(json.dumps(measure(*sys.argv[1:])))", str(project), game_id,
                                       language], cwd=REPO, capture_output=True, text=True)
                if done.returncode:
                    raise RuntimeError(done.stdout + done.stderr)
                found[game_id, language].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"rules CPU per game and language, median of {runs} fresh processes (s): plan = template rendered and "
          "checked; reading = rules.pdf; booklets = both papers; floor = bare ReportLab, the same words")
    for (game_id, language), figures in found.items():
        median = {key: statistics.median(f[key] for f in figures) for key in figures[0]}
        drawn = median["reading"] + median["booklets"]
        print(f"  {game_id:20} {language}: plan {median['plan']:.3f}  reading {median['reading']:.3f}  booklets "
              f"{median['booklets']:.3f}  = {median['plan'] + drawn:.3f}; floor {median['floor']:.3f} "
              f"(drawing {drawn / median['floor']:.1f}x the floor)")


if __name__ == "__main__":
    run()
