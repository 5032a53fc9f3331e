"""`pnp mark-printed [GAME...]`: record the cards of the current build as printed, in
cards/<game>/printed.yaml."""

from __future__ import annotations

import click

from generator.cli.common import project_of, quiet_aware, say
from generator.core.words import counted


@click.command("mark-printed")
@click.argument("games", nargs=-1)
@click.option("--lang", "languages", multiple=True, metavar="LANGUAGE|all",
              help="Record the cards in this language (repeatable; default all: every language game.yaml "
                   "declares).")
@click.pass_context
@quiet_aware
def mark_printed_cmd(ctx, games, languages) -> None:
    """Record the cards as `pnp build` prints them now as printed, in cards/<game>/printed.yaml.

    Run it once you have printed the current build; `pnp build --changed` then reprints only the cards whose
    faces changed since, with a swap list of what to replace, add and remove. Commit the file with your game:
    it says what the printed copy holds."""
    from generator.pipeline.printed import mark_printed

    project = project_of(ctx)
    for marked in mark_printed(project, project.select(games), tuple(languages)):
        copies = counted(marked.copies, "copy", "copies")
        say(f"OK  {marked.game}: {counted(marked.cards, 'card')} ({copies}) marked printed in "
            f"{', '.join(marked.languages)} -> {project.show(marked.path)}")
