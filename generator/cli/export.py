"""`pnp export png|pod|tts|csv`: card images, print-shop files, Tabletop Simulator decks and card
spreadsheets."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import project_of, quiet_aware
from generator.core.words import counted

OUT_HELP = "Output folder (default: build/)."


def _games(ctx: click.Context, names: tuple[str, ...], languages: tuple[str, ...] = ()):
    """Load and check the named games (all by default) before anything is written; with `--lang`, the games in
    those languages (exported into build/<game>/<language>/...)."""
    from generator.pipeline.translations import translated_games

    project = project_of(ctx)
    games, warnings = translated_games(project, project.select(names), languages)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    return project, games


def lang_option(command):
    """`--lang LANGUAGE|all` of the exports (default: the source language)."""
    return click.option(
        "--lang",
        "languages",
        multiple=True,
        metavar="LANGUAGE|all",
        help="Export the games in this language (repeatable; all: every declared language; default: "
        "the language the game is written in).",
    )(command)


def _report(project, game_id: str, written: list[Path], what: str) -> None:
    from generator.core.csvsafe import guarded_cells

    folders = sorted({project.show(p.parent) for p in written})
    click.echo(f"OK  {game_id}: {counted(len(written), 'file')} ({what}) in {', '.join(folders)}")
    guarded = guarded_cells(written)
    if guarded:  # said once: spreadsheets show these as text, and pnp reads them back as they were
        click.echo(f"    {counted(guarded, 'CSV cell')} beginning with = + - @, tab or CR written after an "
                   "apostrophe (a spreadsheet shows such a cell as text, never runs it as a formula)")


@click.group("export")
def export_cmd() -> None:
    """Digital exports: card PNGs, print-on-demand uploads, Tabletop Simulator decks, card spreadsheets."""


@export_cmd.command("png")
@click.argument("games", nargs=-1)
@click.option(
    "--dpi", type=click.IntRange(min=50, max=1200), default=300, show_default=True, help="Resolution."
)
@click.option(
    "--bleed",
    default="0.125in",
    show_default=True,
    help="Bleed around each card in the PNG with bleed (poker + 1/8 in at 300 dpi = 825 x 1125 px).",
)
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=OUT_HELP
)
@lang_option
@click.pass_context
@quiet_aware
def png_cmd(ctx, games, dpi, bleed, out_dir, languages) -> None:
    """Every card type as PNG with bleed and trimmed, plus cards.csv, in build/<game>/png/<deck>/; token and
    standee faces (transparent outside the outline) in build/<game>/png/<component>/."""
    from generator.core.errors import InputError, Problem
    from generator.core.units import UnitError, flag_length
    from generator.exports.components import export_game_pngs
    from generator.exports.png import check_png_options

    try:
        bleed_pt = flag_length(bleed, "--bleed")  # a bare '3' is refused as --gap refuses it: mm or pt?
    except UnitError as exc:
        raise InputError(Problem("", 0, str(exc))) from None
    project, loaded = _games(ctx, games, languages)
    for game in loaded:  # every game's options are checked before anything is written
        check_png_options(game, dpi, bleed_pt)
    build_dir = out_dir or project.build_dir
    for game in loaded:
        _report(project, game.id, export_game_pngs(game, build_dir, dpi, bleed_pt), "PNG")


@export_cmd.command("pod")
@click.argument("games", nargs=-1)
@click.option(
    "--shop", required=True, help="Print shop preset: drivethrucards, gamecrafter, makeplayingcards."
)
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=OUT_HELP
)
@lang_option
@click.pass_context
@quiet_aware
def pod_cmd(ctx, games, shop, out_dir, languages) -> None:
    """Upload files for a print-on-demand shop in build/<game>/pod/<shop>/: one PDF per deck, or a folder of
    PNGs per deck (<deck>/) for the PNG shops (presets: generator/assets/presets/*.yaml)."""
    from generator.exports.pod import check_sizes, export_pod, load_preset, turned_notes

    preset = load_preset(shop)
    project, loaded = _games(ctx, games, languages)
    for game in loaded:  # every deck of every game must fit the shop before anything is written
        check_sizes(preset, game)
    build_dir = out_dir or project.build_dir
    for game in loaded:
        _report(project, game.id, export_pod(game, preset, build_dir), preset.name)
        for note in turned_notes(preset, game):
            click.echo(f"Note: {note}")
    if preset.note:
        click.echo(f"Note ({preset.name}): {preset.note}")


@export_cmd.command("tts")
@click.argument("games", nargs=-1)
@click.option(
    "--url-prefix",
    default=None,
    help="Web folder the images will be uploaded to (default: file:// paths of the exported images).",
)
@click.option("--cell-width", type=click.IntRange(min=64, max=1024), default=409, show_default=True,
              help="Pixel width of one card on the deck sheets (a 10-wide sheet stays within 4096 px).")
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=OUT_HELP
)
@lang_option
@click.pass_context
@quiet_aware
def tts_cmd(ctx, games, url_prefix, cell_width, out_dir, languages) -> None:
    """Tabletop Simulator deck sheets, back images and saved-object JSON in build/<game>/tts/."""
    from generator.exports.tts import export_tts

    project, loaded = _games(ctx, games, languages)
    build_dir = out_dir or project.build_dir
    for game in loaded:
        _report(project, game.id, export_tts(game, build_dir, url_prefix, cell_width), "TTS")
    click.echo(
        "Copy a .json into TTS's Saved Objects folder"
        + ("" if url_prefix else " (file:// images load on this computer only; use --url-prefix to share)")
    )


@export_cmd.command("csv")
@click.argument("games", nargs=-1)
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=OUT_HELP
)
@click.pass_context
@quiet_aware
def csv_cmd(ctx, games, out_dir) -> None:
    """Each deck's cards as a spreadsheet (CSV) in build/<game>/csv/, readable again with `cards_from:`."""
    from generator.exports.cards_csv import export_csv

    project, loaded = _games(ctx, games)
    build_dir = out_dir or project.build_dir
    for game in loaded:
        _report(project, game.id, export_csv(game, build_dir), "CSV")
