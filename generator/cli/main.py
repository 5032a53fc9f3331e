"""The `pnp` command line: a click group whose commands are thin layers over the library functions."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import click

from generator import __version__
from generator.cli.common import PnpGroup
from generator.data.project import find_project

# command -> the module and function that define it, imported only when that command runs (or help lists it):
# `pnp build` with nothing to do does not pay for importing the studio, the exports or the validator.
COMMANDS = {
    "validate": ("generator.cli.validate", "validate_cmd"),
    "sweep": ("generator.cli.sweep", "sweep_cmd"),
    "build": ("generator.cli.build", "build_cmd"),
    "replay": ("generator.cli.replay", "replay_cmd"),
    "odds": ("generator.cli.odds", "odds_cmd"),
    "export": ("generator.cli.export", "export_cmd"),
    "preview": ("generator.cli.preview", "preview_cmd"),
    "new": ("generator.cli.new", "new_cmd"),
    "watch": ("generator.cli.watch", "watch_cmd"),
    "serve": ("generator.cli.serve", "serve_cmd"),
    "list": ("generator.cli.info", "list_cmd"),
    "schema": ("generator.cli.info", "schema_cmd"),
    "i18n": ("generator.cli.i18n", "i18n_cmd"),
    "docs": ("generator.cli.docs", "docs_cmd"),
    "migrate": ("generator.cli.migrate", "migrate_cmd"),
    "pull": ("generator.cli.pull", "pull_cmd"),
    "preflight": ("generator.cli.preflight", "preflight_cmd"),
    "mark-printed": ("generator.cli.printed", "mark_printed_cmd"),
}


# command -> its one-sentence summary (`pnp --help`, without importing the command) and examples (its --help)
HELP: dict[str, tuple[str, tuple[str, ...]]] = {
    "build": ("Build the print-ready PDFs of the games.",
              ("pnp build", "pnp build order-up-pizza --paper a4 --marks lines", "pnp build --lang all",
               "pnp build order-up-pizza --changed")),
    "mark-printed": ("Record the cards of the current build as printed, for `pnp build --changed`.",
                     ("pnp mark-printed order-up-pizza", "pnp mark-printed --lang en")),
    "validate": ("Check the games, replay their scripts and play them many times.",
                 ("pnp validate", "pnp validate short-order-hero --players 3 --games 500",
                  "pnp validate --format github --report build/validation.json")),
    "sweep": ("Play variants of a game's rules or data and compare them.",
              ("pnp sweep order-up-pizza --vary settings.hand_limit=8,10,12",)),
    "replay": ("Play one seeded game and print its log.",
               ("pnp replay short-order-hero --seed 17 --players 4",)),
    "export": ("Write card PNGs, print-shop uploads, Tabletop Simulator decks and spreadsheets.",
               ("pnp export png order-up-pizza", "pnp export pod --shop gamecrafter",
                "pnp export tts order-up-pizza")),
    "preview": ("Write one contact-sheet PNG per deck for a quick look.", ("pnp preview order-up-pizza",)),
    "new": ("Start a new game that builds and validates.",
            ("pnp new space-race", "pnp new space-race --title 'Space Race' --rules")),
    "watch": ("Rebuild what changed each time a file is saved.", ("pnp watch order-up-pizza",)),
    "serve": ("Show the games live in the browser while you edit them.",
              ("pnp serve --open", "pnp serve order-up-pizza --port 8001")),
    "list": ("Print each game's components with counts.", ("pnp list order-up-pizza",)),
    "schema": ("Write JSON Schemas and editor settings that check every file.", ("pnp schema",)),
    "i18n": ("Start and update translations of the games.",
             ("pnp i18n extract order-up-pizza --lang cs",)),
    "docs": ("Print a page of pnp's documentation.", ("pnp docs", "pnp docs layouts")),
    "migrate": ("Rewrite keys that were renamed to their new names, in place.", ("pnp migrate",)),
    "preflight": ("Check a PDF (or a game's shop files) as a print shop's preflight does.",
                  ("pnp preflight build/order-up-pizza/cards-a4.pdf",
                   "pnp preflight order-up-pizza --shop drivethrucards")),
    "pull": ("Download every live sheet (a `cards_from:` URL) into its cache file.",
             ("pnp pull", "pnp pull order-up-pizza")),
    "odds": ("Print the exact odds of each goal the deck deals: opening hands and draws.",
             ("pnp odds short-order-hero", "pnp odds order-up-pizza --players 3 --draws 1,5,10")),
}


def first_sentence(text: str) -> str:
    """A help text's first sentence, on one line (click would cut it at about 45 characters)."""
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[: end + 1]


class LazyPnpGroup(PnpGroup):
    """The `pnp` group with its commands imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:  # noqa: ARG002 - click.Group override
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:  # noqa: ARG002 - click API
        if name not in self.commands and name in COMMANDS:
            module, attr = COMMANDS[name]
            command = getattr(importlib.import_module(module), attr)
            summary, examples = HELP[name]
            command.short_help = summary
            # \b keeps click from re-wrapping the lines of the examples
            command.epilog = "\b\nExamples:\n" + "\n".join(f"  {line}" for line in examples)
            for sub in getattr(command, "commands", {}).values():  # `pnp export --help` lists sentences too
                sub.short_help = sub.short_help or first_sentence(sub.help or "")
            self.add_command(command, name)
        return self.commands.get(name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `pnp --help`, from HELP: whole sentences, and no command imported."""
        rows = [(name, HELP[name][0] if name in HELP else self.commands[name].get_short_help_str(80))
                for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyPnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option("--project", "project_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project folder holding cards/ and templates/ (default: the current folder).")
@click.option(
    "--debug", is_flag=True, help="Show the traceback of an error in pnp itself (for a bug report)."
)
@click.option("--quiet", "-q", is_flag=True,
              help="Print only problems and warnings (to stderr); the exit code says how it went.")
@click.option("--verbose", "-v", is_flag=True, help="Say more: e.g. every file a build writes or skips.")
@click.pass_context
def cli(ctx: click.Context, project_dir: Path | None, debug: bool, quiet: bool, verbose: bool) -> None:
    """Turn game data in YAML into print-ready PDFs, and prove the decks work by playing them.

    Work happens on the project in the current folder (its cards/<game>/ folders) or the one given with
    --project. Exit code 0: all good; 1: problems (each printed as file:line: what, expected), or an error of
    pnp itself.
    """
    ctx.meta["pnp.debug"] = debug
    if quiet and verbose:
        raise click.UsageError("--quiet and --verbose ask for opposite things; give one of them")
    ctx.meta["pnp.verbosity"] = -1 if quiet else 1 if verbose else 0
    ctx.obj = find_project(project_dir)



def main() -> None:
    """Entry point of the `pnp` console script; it ends through click's sys.exit, as any Python program."""
    try:
        cli(prog_name="pnp")
    # `pnp list | head`: the reader left; say nothing more (Python's documented recipe)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
