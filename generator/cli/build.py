"""`pnp build`: every output of the named games (all by default) into build/."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.common import PAPER_HELP, papers_of, project_of, quiet_aware, say, verbosity
from generator.core.words import counted

if TYPE_CHECKING:
    from generator.core.contract import BuildOptions

LOCATED = re.compile(r"^\S+:\d+: ")  # 'cards/x/layouts/y.yaml:12: ...'


def sheet_options(command):
    """The options of how sheets are printed, shared by `pnp build` and `pnp watch`: paper, output folder,
    duplex, layout, back offset, gap, marks, packing, ink and cut files, languages."""
    options = [
        click.option("--paper", multiple=True, metavar="PAPER", help=PAPER_HELP),
        click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help="Output folder (default: build/)."),
        click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long",
                     show_default=True,
                     help="How backs follow fronts: mirrored for long-edge or short-edge flip, or all at the "
                          "end."),
        click.option("--layout", type=click.Choice(["duplex", "fold"]), default="duplex", show_default=True,
                     help="duplex: fronts and backs on alternate pages; fold: side by side around a fold "
                          "line."),
        click.option("--back-offset", nargs=2, type=float, default=(0.0, 0.0), show_default=True,
                     help="Shift back pages by X Y millimetres for printers that misregister."),
        click.option("--gap", default=None, metavar="LENGTH",
                     help="Space between cards, e.g. 3mm (default 0: butted, neighbours share a cut)."),
        click.option("--marks", type=click.Choice(["crop", "lines", "both"]), default=None,
                     help="crop: marks in the margins (default); lines: full-length cut lines outside the "
                          "cards; both."),
        click.option("--pack/--no-pack", default=None,
                     help="Decks of the same card size continue on the same sheet instead of each starting "
                          "a new one."),
        click.option("--ink", type=click.Choice(["normal", "saver"]), default=None,
                     help="saver: backs and large fills as light tints, into cards-<paper>-inksaver.pdf."),
        click.option("--cut-file", type=click.Choice(["svg", "none"]), default=None,
                     help="svg: a cut file for cutting machines beside the sheets, one per page of fronts."),
        click.option("--cut-machine", default=None, metavar="cricut|silhouette|scanncut|none",
                     help="Sheets for a print-and-cut machine: cards inside its cut area, its registration "
                          "marks, a cut file per page of fronts, into cards-<paper>-<machine>.pdf."),
        click.option("--colour", default=None, metavar="rgb|cmyk",
                     help="cmyk: card sheets as PDF/X in press CMYK (black text as black ink alone, ink "
                          "limit held), into cards-<paper>-cmyk.pdf (default rgb)."),
        click.option("--lang", "languages", multiple=True, metavar="LANGUAGE|all",
                     help="Build the games in this language (repeatable; default all: every language "
                          "game.yaml declares). A translation goes to build/<game>/<language>/."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def build_options(paper, out_dir, duplex, layout, back_offset, gap, marks, pack, ink, cut_file, languages,
                  cut_machine=None, colour=None, **more) -> BuildOptions:
    """The BuildOptions of the sheet options (and `more`: force, only, jobs)."""
    from generator.core.contract import BuildOptions

    return BuildOptions(papers=papers_of(paper), papers_from_game=not paper, out_dir=out_dir, duplex=duplex,
                        layout=layout, back_offset=tuple(back_offset), gap=gap, marks=marks, pack=pack,
                        ink=ink, cut_file=cut_file, cut_machine=cut_machine, colour=colour,
                        languages=() if "all" in languages else tuple(dict.fromkeys(languages)), **more)


@click.command("build")
@click.argument("games", nargs=-1)
@sheet_options
@click.option("--only", multiple=True, metavar="DECK[:CARD,...]",
              help="Reprint just these cards (ids or codes; repeatable) into cards-<paper>-only-....pdf.")
@click.option("--changed", is_flag=True,
              help="Reprint just the cards whose faces changed (or are new) since `pnp mark-printed`, every "
                   "copy, into cards-<paper>-changed.pdf, with the swap list first (also cards-changed.txt).")
@click.option("--force", is_flag=True, help="Rebuild every output even if its inputs did not change.")
@click.option("--pull", "pull_first", is_flag=True,
              help="Download the live sheets (cards_from: {url:, cache:}) first, as `pnp pull` does.")
@click.option("--jobs", type=click.IntRange(min=0), default=0,
              help="Processes drawing outputs side by side (default 0: every core); the files are the same.")
@click.pass_context
@quiet_aware
def build_cmd(ctx, games, only, changed, force, jobs, pull_first, **sheet) -> None:
    """Build the print-ready PDFs of the games and write build/manifest.json.

    The sheet options (--gap, --marks, --pack, --ink, --cut-file, --cut-machine, --colour) may also be set in
    a game's game.yaml under `print:`; a flag given here wins."""
    from generator.core.errors import InputError
    from generator.pipeline.build import build

    project = project_of(ctx)
    if only and changed:
        raise click.UsageError("--only and --changed each choose the cards to reprint; give one of them")
    options = build_options(**sheet, force=force, only=tuple(only), changed=changed, jobs=jobs)
    out_dir = sheet["out_dir"]
    names = project.select(games)
    if pull_first:  # a sheet that cannot be pulled stops the build: its last good cache and outputs stay
        from generator.cli.pull import pull_games

        pull_games(project, names)
    # a terminal gets a progress bar; a log (or --verbose) every file by name
    if sys.stdout.isatty() and verbosity(ctx) <= 0:
        result = _build_with_bar(project, names, options)
    else:
        result = build(project, names, options, progress=lambda o: click.echo(f"  wrote {o.path}"))
    for path in result.skipped:
        click.echo(f"  skipped {path} (up to date)")
    echo_warnings(result)
    if changed:
        echo_swaps(result, Path(out_dir or project.build_dir))
    echo_stale(result, project.show(out_dir or project.build_dir))
    for warning in result.warnings:
        say(f"warning: {warning}", err=True)
    for report in result.games:
        languages = result.languages.get(report.game, [])
        failed = result.not_built.get(report.game, [])
        parts = [", ".join(lang for lang in languages if lang not in failed)]
        parts += [f"{lang} not built" for lang in failed]
        shown = f" ({'; '.join(part for part in parts if part)})" \
            if len(languages) > 1 or languages[:1] not in ([], ["en"]) else ""
        say(f"OK  {report.game}{shown}: {counted(report.cards, 'card')} checked")
    skipped = f", {len(result.skipped)} up to date (--force rebuilds them)" if result.skipped else ""
    click.echo(
        f"{len(result.written)} file{'s' if len(result.written) != 1 else ''} written to "
        f"{project.show(out_dir or project.build_dir)}{skipped}"
    )
    if result.warnings:
        click.echo(
            f"{len(result.warnings)} warning{'s' if len(result.warnings) != 1 else ''} above about the "
            "translations (pnp validate --strict fails on them)",
            err=True,
        )
    if result.problems:  # translations that did not build; the source language did
        raise InputError(result.problems)


def echo_warnings(result) -> None:
    """Print the warnings of the outputs, each once (they are also in build/manifest.json): of those just
    written and of those up to date, which said them when they were drawn, in the order of their paths, so a
    rebuild says what a full build says.

    A warning that names no file and line gets the output it came from (board warnings name only the area)."""
    seen: dict[str, str] = {}
    for entry in sorted(result.written + result.kept, key=lambda entry: entry["path"]):
        for warning in entry.get("warnings", []):
            seen.setdefault(warning, entry["path"])
    for warning, path in seen.items():
        say(
            f"warning: {warning}" if LOCATED.match(warning) else f"warning: {path}: {warning}", err=True
        )


def echo_swaps(result, build_dir: Path) -> None:
    """Print the swap list of each --changed reprint (its cards-changed.txt, written now or kept)."""
    paths = [entry["path"] for entry in result.written] + list(result.skipped)
    for path in sorted({p for p in paths if str(p).endswith("cards-changed.txt")}):
        try:
            text = (build_dir / path).read_text(encoding="utf-8")
        except OSError:
            continue
        click.echo(text.rstrip("\n").replace("\n\n", "\n", 1))


def echo_stale(result, build_dir: str) -> None:
    """List the outputs that belong to no game, deck or board any more (also in build/manifest.json)."""
    for entry in result.stale:
        click.echo(
            f"stale: {build_dir}/{entry['path']} ({entry['why']}; delete it if you no longer need it)",
            err=True,
        )


def _build_with_bar(project, names, options):
    """The build with a progress bar over the outputs that need drawing (terminal only)."""
    from generator.pipeline.build import build, drawing_weights

    bars = []
    weights: dict[str, float] = {}

    def start(outputs) -> None:
        # the bar moves by each output's share of the work (pages in the last build), not by file count: a
        # 40-page card sheet and a 1-page board would otherwise count alike and the estimate be far off
        weights.update(drawing_weights(outputs, options.out_dir or project.build_dir))
        bars.append(
            click.progressbar(length=max(1, round(sum(weights.values()) * 10)), label="Building",
                              item_show_func=lambda o: str(o.path) if o else "")
        )
        bars[0].__enter__()

    try:
        return build(project, names, options, on_start=start,
                     drawn=lambda o: bars[0].update(round(weights.get(str(o.path), 1.0) * 10), o))
    finally:
        if bars:
            bars[0].__exit__(None, None, None)
