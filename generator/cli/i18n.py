"""`pnp i18n extract`: the translation file of a game in another language, for a translator to fill in."""

from __future__ import annotations

import click

from generator.cli.common import project_of, quiet_aware


@click.group("i18n")
def i18n_cmd() -> None:
    """Translations: cards/<game>/i18n/<language>.yaml (see docs/translations.md)."""


@i18n_cmd.command("extract")
@click.argument("game")
@click.option("--lang", "language", required=True, metavar="LANGUAGE",
              help="The language of the translation, e.g. de, cs or pt-BR.")
@click.pass_context
@quiet_aware
def extract_cmd(ctx: click.Context, game: str, language: str) -> None:
    """Write (or bring up to date) GAME's translation file for LANGUAGE: every text a player reads, with its
    source text as a comment. Translations already made are kept; texts whose source changed are marked."""
    from generator.core.errors import InputError, Problem
    from generator.core.phrases import CODE, language_name
    from generator.data.load import load_game
    from generator.pipeline.extract import extract

    if not CODE.match(language):
        raise InputError(
            Problem("", 0, f"--lang {language}: not a language code; expected one like de, cs or pt-BR")
        )
    project = project_of(ctx)
    name = project.select((game,))[0]
    done = extract(load_game(project, name), language)
    click.echo(
        f"wrote {project.show(done.path)}: {done.texts} texts, {done.translated} translated, "
        f"{done.texts - done.translated} to do"
        + (f", {done.changed} marked # CHANGED" if done.changed else "")
        + (f", {done.retired} no longer in the game (kept as comments)" if done.retired else "")
    )
    if not done.declared:
        click.echo(
            f"note: {language_name(language)} is not in game.yaml `languages` yet; add it there to build it "
            f"(e.g. languages: [{', '.join(load_game(project, name).languages + [language])}])"
        )
