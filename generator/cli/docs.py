"""`pnp docs [TOPIC]`: the documentation pages, from the checkout or from the installed wheel."""

from __future__ import annotations

import difflib

import click

from generator.core.docpages import SITE_NOTE, first_heading, topics
from generator.core.errors import InputError, Problem


@click.command("docs")
@click.argument("topic", required=False)
def docs_cmd(topic: str | None) -> None:
    """Print a page of pnp's documentation, or list the pages.

    Every pointer pnp prints ("pnp docs rules-language") names a page this command shows, also where pnp was
    installed with pip. Example: pnp docs translations | less
    """
    pages = topics()
    if not pages:
        raise InputError([Problem("", 0, "this copy of pnp carries no documentation pages; expected them in "
                                          "docs/ of a checkout or generator/assets/docs of the wheel")])
    if topic is None:
        width = max(map(len, pages))
        for name, page in pages.items():
            click.echo(f"{name:<{width}}  {first_heading(page)}")
        click.echo(f"\npnp docs TOPIC prints one; {SITE_NOTE}")
        return
    name = topic.removesuffix(".md").removeprefix("docs/")
    if name not in pages:
        near = difflib.get_close_matches(name, list(pages), n=1)
        hint = f"did you mean '{near[0]}'? " if near else ""
        raise InputError([Problem("", 0, f"no documentation page '{topic}'; {hint}expected one of: "
                                         f"{', '.join(pages)}")])
    click.echo(pages[name].read_text(encoding="utf-8"), nl=False)
